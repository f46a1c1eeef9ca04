"""Playing a Wizards Cup table to its end with one seat in a browser page and the other over SSH.

Moved here from tests/web/test_web_tables.py so that every browser test at a table can play one out.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from tests.helpers.browser import screen_text, type_keys, wait_for, wait_for_screen
from tests.helpers.serve_game import GAME_SECONDS, RESEND_AFTER, checked_screen, choose_team
from tests.helpers.ssh_client import SSHPlayer

ROUND_TITLE = re.compile(r"Round \d+ · (?:\w+ wins|both win) the round and a Cup Token")
TEAM_COUNT = re.compile(r"Choose your team\s+(\d)/(\d)")


def flat(text: str) -> str:
    """``text`` with every run of whitespace made one space (a wrapped line read as one)."""
    return " ".join(text.split())


def choose_team_in_page(page: Any) -> None:
    """Pick wizards down the list until the team is full, then confirm, as a player at her browser."""
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


async def play_to_the_end(page: Any, page_seat: int, other: SSHPlayer, store: SessionStore,
                          session_id: int) -> dict[int, list[str]]:
    """Play the started table to its end by keys, the page in ``page_seat``, ``other`` over SSH in the other.

    Returns:
        Each seat's round results as its screen read them, once both read the game's headline.
    """
    from selenium.webdriver.common.keys import Keys

    ssh_seat = 1 - page_seat
    sent: dict[int, tuple[int, float]] = {}
    duels: dict[int, list[str]] = {0: [], 1: []}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        live = LiveSession.load(store, session_id)
        if live.result is not None:
            break
        for seat in (0, 1):
            in_page = seat == page_seat
            screen = screen_text(page) if in_page else await checked_screen(other, seat, store, session_id)
            if "enter: continue" in screen:  # a round's result
                title = ROUND_TITLE.search(flat(screen))
                assert title, screen
                duels[seat].append(title.group(0))
                if in_page:
                    type_keys(page, Keys.ENTER)
                    wait_for(lambda: "enter: continue" not in screen_text(page), "the page's next screen")
                else:
                    other.press("enter")
                    await other.wait_for(lambda text: "enter: continue" not in text, timeout=60)
                continue
            if seat not in live.to_act:
                continue
            last = sent.get(seat)
            if last is not None and last[0] == len(live.log) and time.monotonic() - last[1] < RESEND_AFTER:
                continue  # keys on their way; a key that reached a screen still settling is sent again
            phase = live.state.phase
            if phase is Phase.TEAM and "Confirm" in screen and "Pick" in screen:
                if in_page:
                    choose_team_in_page(page)
                else:
                    await choose_team(other)
            elif (phase is Phase.LINEUP and "Waiting Card" in screen) or (phase is Phase.SWAP and "Keep team" in screen):
                key = "c" if phase is Phase.LINEUP else "k"  # the lineup as it stands; keep the team
                if in_page:
                    type_keys(page, key)
                else:
                    other.press(key)
            else:
                continue
            sent[seat] = (len(live.log), time.monotonic())
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the game did not finish; the page shows:\n{screen_text(page)}\n"
                             f"over SSH:\n{other.text()}")
    winner = live.seats[live.result.winners[0]].name if live.result.winners else None
    headline = f"{winner} wins the Wizards Cup!" if winner else "The Cup is shared"
    wait_for(lambda: "enter: continue" in screen_text(page) or headline in screen_text(page), "the page's last screen")
    if "enter: continue" in screen_text(page):  # the last round's result comes first
        title = ROUND_TITLE.search(flat(screen_text(page)))
        assert title, screen_text(page)
        duels[page_seat].append(title.group(0))
        type_keys(page, Keys.ENTER)
    wait_for_screen(page, headline)
    await other.wait_for(lambda text: "enter: continue" in text or headline in text, timeout=30)
    if "enter: continue" in other.text():
        title = ROUND_TITLE.search(flat(other.text()))
        assert title, other.text()
        duels[ssh_seat].append(title.group(0))
        other.press("enter")
    await other.wait_for(headline, timeout=30)
    return duels
