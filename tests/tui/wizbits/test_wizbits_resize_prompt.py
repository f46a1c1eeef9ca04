"""After a resize the first frame sent speaks of the new layout: the prompt's keys follow the compact switch.

At 80x24 the pillar tree waits behind ``t`` and the prompt of a resolving pillar
says so ("t: show it"); at 100x30 the tree is on show. The prompt was worded
only when the table was shown again, so a resized game kept the old layout's
words (an 80x24 prompt over a shown tree, or no ``t`` where the tree hid) until
the next step. Frames are read as they reach the terminal, through the real
app's one door to it (held resize frames never get there).
"""

from __future__ import annotations

import asyncio
import random
import re

from rich.console import RenderableType
from textual.screen import Screen
from textual.widgets import Static

from engine import get_game
from engine.wizbits import actions as act
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.waiting import until
from tests.helpers.wizbits_passing import DEFAULT_DECKS
from tui.app import CovenApp
from tui.games.wizbits.table import WizbitsTable
from tui.screens.game.screen import GameScreen

SHOW_TREE = "t: show it"
"""What the compact prompt adds while a pillar resolves out of sight."""


def resolving(store: SessionStore) -> LiveSession:
    """Ana and Bo (both easy bots' moves, seeded) up to the first resolution step of a pillar with units."""
    live = LiveSession.create(store, "wizbits", DEFAULT_DECKS, 3, [SeatInfo("Ana"), SeatInfo("Bo")])
    bot, rng = get_game("wizbits").bots["easy"], random.Random(2)
    for _ in range(3000):
        pending = live.table_action
        if not live.to_act:
            if isinstance(pending, act.Step) and pending.step == "resolve" and live.state.pillar is not None:
                return live
            live.play_table()
            continue
        seat = live.to_act[0]
        live.apply(seat, bot(live.rules.view(live.state, seat), live.rules.legal_actions(live.state, seat), rng))
    raise AssertionError("no pillar came to resolve")


def test_the_first_frame_after_a_resize_words_the_prompt_for_the_new_layout() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = resolving(store)
            app = CovenApp(store=store, auto_delay=60)
            sent: list[str] = []
            display = app._display

            def noting(screen: Screen[object], renderable: RenderableType | None) -> None:
                if renderable is not None and isinstance(screen, GameScreen) and not app._holding_frames:
                    prompt = screen.query_one("#wb-prompt", Static)
                    strips = app.screen._compositor.render_strips()
                    region = prompt.region
                    drawn = " ".join(strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom))
                    sent.append(re.sub(r"\s+", " ", drawn))
                display(screen, renderable)

            app._display = noting  # type: ignore[method-assign]
            async with app.run_test(size=(80, 24)) as pilot:
                app.push_screen(GameScreen(live, auto_delay=60))
                await until(pilot, lambda: bool(sent) and SHOW_TREE in sent[-1], "the compact prompt")
                table = app.screen.query_one(WizbitsTable)
                for size, compact in (((100, 30), False), ((80, 24), True)):
                    before = len(sent)
                    await pilot.resize_terminal(*size)
                    await until(pilot, lambda before=before, compact=compact: (table.compact is compact
                                                                               and len(sent) > before),
                                f"a frame at {size}")
                    first = sent[before]
                    assert "Resolving the pillar" in first, first
                    assert (SHOW_TREE in first) is compact, (size, first)

    asyncio.run(scenario())
