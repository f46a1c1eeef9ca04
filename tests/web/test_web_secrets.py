"""No secret of one seat appears in the other's page: Ana in the browser and Bea over SSH (one ``coven web
--ssh-port``) play a whole WitchDraft game by keys, and at every screen sampled neither shows a card the other holds
hidden (hand, secret pick, recipe, ingredient card), as the engine's state says at that moment."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from saves import LiveSession, Presence, SeatPlan, SessionStore, TableStore
from tests.helpers.browser import log_in, screen_text, type_keys, wait_for_screen
from tests.helpers.serve_game import GAME_SECONDS, RESEND_AFTER
from tests.helpers.ssh_client import SSHPlayer, wait_until
from tests.helpers.web_door import ssh_port_of, start_web
from tests.helpers.witchdraft_secrets import secret_names

SETTLED_SECONDS = 1.0
"""A screen unchanged this long has finished its paint (a paint reaches a client in pieces)."""


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _settled(read: Callable[[], str]) -> str:
    """The screen once it has stopped changing for :data:`SETTLED_SECONDS` (at most 15 s)."""
    deadline = time.monotonic() + 15
    screen, since = read(), time.monotonic()
    while time.monotonic() - since < SETTLED_SECONDS and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        if (now := read()) != screen:
            screen, since = now, time.monotonic()
    return screen


def _leaks(screen: str, store: SessionStore, session_id: int, seat: int) -> set[str]:
    """The other seat's hidden card names on ``seat``'s screen, hidden still in the state read after the screen."""
    state = LiveSession.load(store, session_id).state
    flat = _flat(screen)
    return {name for name in secret_names(state, seat) if name in flat}


async def _checked(read: Callable[[], str], store: SessionStore, session_id: int, seat: int) -> str:
    """``seat``'s screen, after checking it shows none of the other seat's secrets (on a settled screen when the first
    look finds one: half a paint can show the last screen's corner under the next one's title)."""
    screen = read()
    if _leaks(screen, store, session_id, seat):
        screen = await _settled(read)
        leaked = _leaks(screen, store, session_id, seat)
        assert not leaked, f"seat {seat + 1} sees the other seat's hidden {sorted(leaked)}:\n{screen}"
    return screen


def _prompted(screen: str, stage: str) -> bool:
    """Whether the screen offers its seat this stage's move: its hand to pick from, or its pick to place."""
    flat = _flat(screen)
    return "Your hand · phase" in flat if stage == "pick" else "place yours" in flat


async def test_neither_seat_s_page_shows_a_card_the_other_holds_hidden_in_a_whole_witchdraft_game(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    with start_web(data_dir, "--ssh-port", "0") as door, SessionStore() as store, Presence() as presence:
        hal = TableStore(store, presence)  # the test hosts: both seats are players'
        plan = [SeatPlan("remote", "Seat 1"), SeatPlan("remote", "Seat 2")]
        code = hal.host("witchdraft", {"faster": True}, 11, plan, host_name="Hal").info.code
        log_in(page, f"http://127.0.0.1:{door.port}", f"ana+{code}")
        wait_for_screen(page, "Take seat 1")
        type_keys(page, Keys.ENTER)
        wait_for_screen(page, "Your seat token")
        bea = await SSHPlayer.connect(ssh_port_of(door), f"bea+{code}")
        try:
            await bea.wait_for("Take seat 2")
            bea.press("enter")
            await bea.wait_for("Your seat token")
            session_id = hal.start(code)
            reads: dict[int, Callable[[], str]] = {0: lambda: screen_text(page), 1: bea.text}
            sent: dict[int, tuple[int, float]] = {}
            seen_own: dict[int, set[str]] = {0: set(), 1: set()}
            samples = 0
            deadline = time.monotonic() + GAME_SECONDS
            while time.monotonic() < deadline:
                live = LiveSession.load(store, session_id)
                if live.result is not None:
                    break
                for seat in (0, 1):
                    screen = await _checked(reads[seat], store, session_id, seat)
                    samples += 1
                    seen_own[seat] |= {name for name in secret_names(live.state, 1 - seat) if name in _flat(screen)}
                    last = sent.get(seat)
                    if seat not in live.to_act or not _prompted(screen, live.state.stage) or (
                            last is not None and last[0] == len(live.log) and time.monotonic() - last[1] < RESEND_AFTER):
                        continue
                    if seat == 0:
                        type_keys(page, Keys.ENTER)  # pick the card under the cursor, or place at the offered spot
                    else:
                        bea.press("enter")
                    sent[seat] = (len(live.log), time.monotonic())
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"the game did not finish; Ana sees:\n{screen_text(page)}\nBea sees:\n{bea.text()}")
            # The scan finds such names where they are drawn: each seat saw cards of its own hidden hand named.
            assert seen_own[0] and seen_own[1], seen_own
            assert samples > 20
            for seat in (0, 1):  # the end: every secret is shown to all, and nothing is hidden any more
                await _checked(reads[seat], store, session_id, seat)
        finally:
            await bea.close()
        page.get("about:blank")
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
