"""A whole two-player WitchDraft game against the normal bot, from the keyboard."""

from __future__ import annotations

import asyncio

import tui.games
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.games.witchdraft.results import WitchDraftScoreScreen
from tui.games.witchdraft.table import WitchDraftUI
from tui.screens.game.screen import GameScreen


def test_a_whole_witchdraft_game_from_the_keyboard() -> None:
    assert isinstance(tui.games.game_ui("witchdraft"), WitchDraftUI)

    async def scenario() -> int:
        keys = 0
        with SessionStore() as store:
            live = LiveSession.create(store, "witchdraft", {}, 5,
                                      [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
            app = CovenApp(store=store, auto_delay=0.02)  # the pause before Merlin answers is not tested here
            async with app.run_test(size=(80, 24)) as pilot:
                app.start_game(live)
                for _ in range(200):
                    # Merlin answers a move Ana may still take back after the step pause: wait for him.
                    await until(pilot, lambda: isinstance(app.screen, WitchDraftScoreScreen) or 0 in live.to_act,
                                "Ana's turn or the score")
                    await app.workers.wait_for_complete()
                    await pilot.pause()
                    screen = app.screen
                    if isinstance(screen, WitchDraftScoreScreen):
                        break
                    assert isinstance(screen, GameScreen), type(screen).__name__
                    if 0 not in live.to_act:
                        continue
                    grid = screen.query_one(PotionGrid)
                    if live.state.stage == "pick":
                        assert not grid.placing
                        await pilot.press("space")  # pick the highlighted card
                    else:
                        assert grid.placing and grid.card_id == live.state.players[0].picked
                        assert grid.reason is None  # the ghost starts on a legal spot
                        await pilot.press("enter")
                    keys += 1
                else:
                    raise AssertionError("the game did not finish")
                assert live.result is not None
                assert len(live.state.players[0].area) == 12
        return keys

    assert asyncio.run(scenario()) <= 2 * 11
