"""A browser player at a table hosted over SSH (one ``coven web --ssh-port`` for both doors): a page refresh
mid-game is a drop, not a loss: the seat waits for its token, and the same browser takes it back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.helpers.browser import log_in, screen_text, wait_for, wait_for_screen
from tests.helpers.ssh_client import SSHPlayer, wait_until
from tests.helpers.web_door import start_web

CODE_LINE = re.compile(r"^\W*([A-Z]) ([A-Z]) ([A-Z]) ([A-Z])\W*$", re.MULTILINE)
TOKEN = re.compile(r"Your seat token: ([A-Z0-9]{4}(?:-[A-Z0-9]{4})+)")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _type(page: Any, keys: str) -> None:
    """Type ``keys`` into the page's terminal, as a player at the keyboard."""
    from selenium.webdriver.common.by import By

    page.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys(keys)


async def test_a_refresh_mid_game_drops_the_seat_and_its_token_takes_it_back(tmp_path: Path, page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    with start_web(tmp_path, "--ssh-port", "0") as door:
        told = re.search(r"ssh -t -p (\d+)", "\n".join(door.banner))
        assert told is not None, door.banner
        ssh_port = int(told.group(1))
        ana = await SSHPlayer.connect(ssh_port, "ana")
        try:
            await ana.wait_for("C O V E N")
            ana.press("h")
            await ana.wait_for("Host a table")
            await ana.wait_for("Ana")
            ana.press("\x13")  # ctrl+s: a Wizards Cup table with the form's defaults, seat 2 remote
            match = CODE_LINE.search(await ana.wait_for("Waiting for 1 more player"))
            assert match
            code = "".join(match.groups())

            log_in(page, f"http://127.0.0.1:{door.port}", f"bea+{code}")  # straight to the table's seats
            wait_for_screen(page, "Take seat 2")
            _type(page, Keys.ENTER)
            wait_for(lambda: TOKEN.search(_flat(screen_text(page))), "Bea's seat token on her page")
            found = TOKEN.search(_flat(screen_text(page)))
            assert found
            token = found.group(1)
            await ana.wait_for("Everyone is here. Press s to start.")
            ana.press("s")
            wait_for_screen(page, f"Table {code} · Wizards Cup")  # the game: both choose their teams

            page.refresh()  # the page's socket closes: Bea's Coven is hung up, like a lost SSH link
            await ana.wait_for(lambda text: "Bea dropped" in _flat(text), timeout=60)
            wait_for_screen(page, "Reclaim my seat")  # the same login opens the same table again
            _type(page, Keys.ENTER)
            wait_for_screen(page, "Your seat token")
            _type(page, token.lower() + Keys.ENTER)
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            await ana.wait_for(lambda text: "Bea is back" in _flat(text), timeout=60)
            wait_for(lambda: "Pick" in screen_text(page) and "Confirm" in screen_text(page),
                     "Bea's team builder, where she left it")
        finally:
            await ana.close()
        page.get("about:blank")  # the visit ends; its Coven is hung up before the door stops
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
