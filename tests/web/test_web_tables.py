"""One table for both doors (one ``coven web --ssh-port``): a table hosted from a browser that an SSH player
joins and both play to its end, reading the same results (a refresh mid-game: test_web_refresh.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from saves import Presence, SessionStore, TableStore
from tests.helpers.browser import log_in, type_keys, wait_for_screen
from tests.helpers.ssh_client import SSHPlayer, wait_until
from tests.helpers.web_door import CODE_LINE, ssh_port_of, start_web
from tests.helpers.web_game import play_to_the_end


async def test_a_table_hosted_from_a_browser_is_joined_over_ssh_and_played_to_its_end(
        page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    with start_web(data_dir, "--ssh-port", "0", env=dict(os.environ, COVEN_AUTO_DELAY="0.05")) as door:
        ssh_port = ssh_port_of(door)
        log_in(page, f"http://127.0.0.1:{door.port}", "ana")
        wait_for_screen(page, "C O V E N")
        type_keys(page, "h")
        wait_for_screen(page, "Host a table")
        type_keys(page, Keys.CONTROL + "s")  # a Wizards Cup table with the form's defaults, seat 2 remote
        lobby = wait_for_screen(page, "Waiting for 1 more player")
        match = CODE_LINE.search(lobby)
        assert match, lobby
        code = "".join(match.groups())
        wait_for_screen(page, f"ssh -p {ssh_port} {code}@localhost")  # the SSH door's line, in the browser

        bea = await SSHPlayer.connect(ssh_port, f"bea+{code}")
        store = SessionStore()
        try:
            await bea.wait_for("Take seat 2")
            bea.press("enter")
            await bea.wait_for("Waiting for Ana to start")
            wait_for_screen(page, "Everyone is here. Press s to start.")
            type_keys(page, "s")
            await bea.wait_for(f"Table {code} · Wizards Cup", timeout=60)
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            with Presence() as presence:
                session_id = TableStore(store, presence).find(code).session_id
            assert session_id is not None
            duels = await play_to_the_end(page, 0, bea, store, session_id)
        finally:
            store.close()
            await bea.close()
        assert duels[0] and duels[0] == duels[1]  # both read the same round results
        page.get("about:blank")
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
