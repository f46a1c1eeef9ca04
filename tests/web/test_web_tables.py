"""One table for both doors (one ``coven web --ssh-port``): a table hosted from a browser that an SSH player
joins and both play to its end, reading the same results (a refresh mid-game: test_web_refresh.py)."""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path
from typing import Any

from engine.wizards_cup.state import Phase
from saves import LiveSession, Presence, SessionStore, TableStore
from tests.helpers.browser import log_in, screen_text, type_keys, wait_for, wait_for_screen
from tests.helpers.serve_game import GAME_SECONDS, RESEND_AFTER, checked_screen, choose_team
from tests.helpers.ssh_client import SSHPlayer, wait_until
from tests.helpers.web_door import CODE_LINE, ssh_port_of, start_web

ROUND_TITLE = re.compile(r"Round \d+ · (?:\w+ wins|both win) the round and a Cup Token")
TEAM_COUNT = re.compile(r"Choose your team\s+(\d)/(\d)")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _choose_team_in_page(page: Any) -> None:
    """Pick wizards down the list until the team is full, then confirm, as Ana at her browser."""
    from selenium.webdriver.common.keys import Keys

    wait_for(lambda: TEAM_COUNT.search(screen_text(page)), "the team builder")
    for _ in range(40):
        count = TEAM_COUNT.search(screen_text(page))
        if count is not None and count.group(1) == count.group(2):
            break
        before = count.group(0) if count else ""
        type_keys(page, " " + Keys.ARROW_DOWN)
        deadline = time.monotonic() + 1
        while before in screen_text(page) and time.monotonic() < deadline:
            time.sleep(0.05)
    type_keys(page, "c")


async def _play_to_the_end(page: Any, bea: SSHPlayer, store: SessionStore, session_id: int) -> dict[int, list[str]]:
    """Play the started table to its end by keys, Ana at her browser, Bea over SSH; each seat's round results."""
    from selenium.webdriver.common.keys import Keys

    sent: dict[int, tuple[int, float]] = {}
    duels: dict[int, list[str]] = {0: [], 1: []}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        live = LiveSession.load(store, session_id)
        if live.result is not None:
            break
        for seat in (0, 1):
            screen = screen_text(page) if seat == 0 else await checked_screen(bea, 1, store, session_id)
            if "enter: continue" in screen:  # a round's result
                title = ROUND_TITLE.search(_flat(screen))
                assert title, screen
                duels[seat].append(title.group(0))
                if seat == 0:
                    type_keys(page, Keys.ENTER)
                    wait_for(lambda: "enter: continue" not in screen_text(page), "Ana's next screen")
                else:
                    bea.press("enter")
                    await bea.wait_for(lambda text: "enter: continue" not in text, timeout=60)
                continue
            if seat not in live.to_act:
                continue
            last = sent.get(seat)
            if last is not None and last[0] == len(live.log) and time.monotonic() - last[1] < RESEND_AFTER:
                continue  # keys on their way; a key that reached a screen still settling is sent again
            phase = live.state.phase
            if phase is Phase.TEAM and "Confirm" in screen and "Pick" in screen:
                if seat == 0:
                    _choose_team_in_page(page)
                else:
                    await choose_team(bea)
            elif (phase is Phase.LINEUP and "Waiting Card" in screen) or (phase is Phase.SWAP and "Keep team" in screen):
                key = "c" if phase is Phase.LINEUP else "k"  # the lineup as it stands; keep the team
                if seat == 0:
                    type_keys(page, key)
                else:
                    bea.press(key)
            else:
                continue
            sent[seat] = (len(live.log), time.monotonic())
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the game did not finish; Ana sees:\n{screen_text(page)}\nBea sees:\n{bea.text()}")
    winner = live.seats[live.result.winners[0]].name if live.result.winners else None
    headline = f"{winner} wins the Wizards Cup!" if winner else "The Cup is shared"
    wait_for(lambda: "enter: continue" in screen_text(page) or headline in screen_text(page), "Ana's last screen")
    if "enter: continue" in screen_text(page):  # the last round's result comes first
        title = ROUND_TITLE.search(_flat(screen_text(page)))
        assert title, screen_text(page)
        duels[0].append(title.group(0))
        type_keys(page, Keys.ENTER)
    wait_for_screen(page, headline)
    await bea.wait_for(lambda text: "enter: continue" in text or headline in text, timeout=30)
    if "enter: continue" in bea.text():
        title = ROUND_TITLE.search(_flat(bea.text()))
        assert title, bea.text()
        duels[1].append(title.group(0))
        bea.press("enter")
    await bea.wait_for(headline, timeout=30)
    return duels


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
            duels = await _play_to_the_end(page, bea, store, session_id)
        finally:
            store.close()
            await bea.close()
        assert duels[0] and duels[0] == duels[1]  # both read the same round results
        page.get("about:blank")
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
