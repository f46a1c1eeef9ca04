"""Every table action from the browser, with an SSH player on the other side (one ``coven web --ssh-port``).

Ana hosts a Wizards Cup table over SSH that spectators may watch; Bea, in the browser, joins it by its code,
talks with Ana both ways, takes back her team, plays the game out and asks to play again; then the same
browser comes back as Cy, watches the rematch as a spectator and talks from there. (Hosting from the browser and a whole game:
test_web_tables.py; a refresh: test_web_refresh.py.)
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from saves import LiveSession, Presence, SessionStore, TableStore
from saves.series import series_of
from tests.helpers.browser import log_in, screen_text, type_keys, wait_for, wait_for_screen
from tests.helpers.ssh_client import SSHPlayer, wait_until
from tests.helpers.web_door import CODE_LINE, ssh_port_of, start_web
from tests.helpers.web_game import choose_team_in_page, flat, play_to_the_end


async def _host_with_spectators(port: int) -> tuple[SSHPlayer, str]:
    """Ana, over SSH, opens a Wizards Cup table that spectators may watch; Ana and the table's code."""
    ana = await SSHPlayer.connect(port, "ana")
    await ana.wait_for("C O V E N")
    ana.press("h")
    await ana.wait_for("Host a table")
    await ana.wait_for("Ana")
    ana.press(*["tab"] * 6)  # the form's sixth stop past the host's name is Spectators, scrolled into view
    await ana.wait_for("Not allowed")
    ana.press("enter")
    await ana.wait_for("Allowed to watch")
    ana.press("down", "enter")
    await ana.wait_for(lambda text: "Allowed to watch" in text and "Not allowed" not in text)
    ana.press("\x13")  # ctrl+s: open the table, seat 2 remote
    lobby = await ana.wait_for(lambda text: "Spectators: allowed" in text and CODE_LINE.search(text) is not None)
    match = CODE_LINE.search(lobby)
    assert match, lobby
    return ana, "".join(match.groups())


def _find(code: str) -> Any:
    """Table ``code`` as every process reads it now."""
    with SessionStore() as store, Presence() as presence:
        return TableStore(store, presence).find(code)


async def _wait_log(store: SessionStore, session_id: int, check: Any, what: str) -> LiveSession:
    """Poll the table's game until ``check(live)`` holds; the game then."""
    for _ in range(600):
        live = LiveSession.load(store, session_id)
        if check(live):
            return live
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_browser_player_joins_by_code_talks_undoes_plays_again_and_watches(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    with start_web(data_dir, "--ssh-port", "0", env=dict(os.environ, COVEN_AUTO_DELAY="0.05")) as door:
        base = f"http://127.0.0.1:{door.port}"
        ana, code = await _host_with_spectators(ssh_port_of(door))
        store = SessionStore()
        try:
            # Join by code: Bea logs in as bea+CODE and takes the free seat.
            log_in(page, base, f"bea+{code}")
            wait_for(lambda: "Wizards Cup hosted by Ana" in flat(screen_text(page)), "the table's seats")
            wait_for_screen(page, "Take seat 2")
            type_keys(page, Keys.ENTER)
            wait_for_screen(page, "Waiting for Ana to start")
            await ana.wait_for(lambda text: "Bea · seated" in flat(text))
            assert [seat.name for seat in _find(code).seats] == ["Ana", "Bea"]

            # Chat both ways, in the lobby: each line reaches the other door's screen with its speaker's name.
            type_keys(page, "c")
            wait_for_screen(page, "esc Close chat")
            type_keys(page, "hello from the browser" + Keys.ENTER)
            await ana.wait_for("Chat (1)")  # Ana's pane is closed: her Chat key counts the line
            ana.press("c")
            await ana.wait_for(lambda text: "Bea: hello from the browser" in flat(text))
            ana.press(*"hi Bea, over SSH", "enter")
            wait_for(lambda: "Ana: hi Bea, over SSH" in flat(screen_text(page)), "Ana's line on Bea's page")
            table_id = _find(code).table_id
            with Presence() as presence:
                said = [(line.name, line.text) for line in TableStore(store, presence).chat_since(table_id)]
            assert said == [("Bea", "hello from the browser"), ("Ana", "hi Bea, over SSH")]
            ana.press("escape")
            type_keys(page, Keys.ESCAPE)
            await ana.wait_for(lambda text: "esc Close chat" not in text)
            wait_for(lambda: "esc Close chat" not in screen_text(page), "Bea's chat pane closed")

            await ana.wait_for("s Start game")  # the footer's (the lobby's longer lines push its sentence out of view)
            ana.press("s")
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            first = _find(code).session_id
            assert first is not None

            # Undo from the browser: Bea confirms her team before Ana chooses hers, then takes it back.
            choose_team_in_page(page)
            await _wait_log(store, first, lambda live: [entry.seat for entry in live.log] == [1], "Bea's team")
            wait_for(lambda: "u Undo" in screen_text(page), "the footer offering Undo")
            type_keys(page, "u")
            await ana.wait_for(lambda text: "Bea took back a move." in flat(text))
            live = await _wait_log(store, first, lambda live: len(live.log) == 2, "the undo in the log")
            assert live.log[-1].seat == 1 and live.log[-1].action == {"type": "undo"}
            assert 1 in live.to_act  # Bea chooses her team again

            # The whole game, Bea choosing again from the page; both read the same round results.
            duels = await play_to_the_end(page, 1, ana, store, first)
            assert duels[1] and duels[0] == duels[1]

            # Rematch from the browser: Bea asks, Ana agrees, the same table deals a new game for both.
            wait_for_screen(page, "Play again")
            type_keys(page, "p")
            await ana.wait_for(lambda text: "Bea wants to play again." in flat(text), timeout=60)
            await ana.wait_for("y: play again · n: no", timeout=60)
            ana.press("y")
            await ana.wait_for(f"Table {code} · Wizards Cup", timeout=60)
            wait_for(lambda: "Choose your team" in screen_text(page), "Bea's team builder in the rematch")
            await ana.wait_for("Choose your team", timeout=60)
            again = _find(code)
            assert again.session_id is not None and again.session_id != first
            assert series_of(store, again.session_id) == first
            assert [seat.name for seat in again.seats] == ["Ana", "Bea"]
            assert LiveSession.load(store, again.session_id).result is None

            # Watching: the same browser leaves Bea's seat and comes back as Cy, a spectator of the rematch.
            page.get(base + "/login")  # Bea's page goes, like a lost SSH link
            await ana.wait_for(lambda text: "Bea dropped" in flat(text), timeout=60)
            page.execute_script("window.sessionStorage.clear();")  # Bea's kept seat is not Cy's
            page.delete_all_cookies()  # of this origin: Bea's login goes too
            log_in(page, base, f"cy+{code}")
            wait_for_screen(page, "Watch as a spectator")
            type_keys(page, Keys.END + Keys.ENTER)  # the last choice: watching
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            wait_for(lambda: [watcher.name for watcher in _find(code).watchers] == ["Cy"], "Cy among the watchers")
            assert [seat.name for seat in _find(code).seats] == ["Ana", "Bea"]  # Cy took no seat
            assert "Confirm" not in screen_text(page)  # a spectator has no team to choose
            # The spectator talks from the page, marked as watching, and reads the players' lines.
            type_keys(page, "c")  # no team builder of her own to take the c: it opens the chat
            wait_for_screen(page, "esc Close chat")
            type_keys(page, "enjoy the game" + Keys.ENTER)
            ana.send("\x14")  # ctrl+t: the chat key while Ana's team builder (whose c confirms) has the focus
            await ana.wait_for(lambda text: "Cy (watching): enjoy the game" in flat(text))
            ana.press(*"welcome Cy", "enter")
            wait_for(lambda: "Ana: welcome Cy" in flat(screen_text(page)), "Ana's line on Cy's page")
        finally:
            store.close()
            await ana.close()
        page.get("about:blank")
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
