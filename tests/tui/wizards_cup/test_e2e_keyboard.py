"""End to end: a whole Wizards Cup game against the normal bot, from the keyboard only."""

from __future__ import annotations

import asyncio

from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.results import RoundResultScreen, WizardsCupResultScreen
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.game.screen import GameScreen
from tui.screens.menu import MainMenu


async def play_whole_game() -> tuple[CovenApp, list[str]]:
    app = CovenApp(auto_delay=0.0)
    keys: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:

        async def press(*pressed: str) -> None:
            keys.extend(pressed)
            await pilot.press(*pressed)

        await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')
        await press("n")
        await press("ctrl+s")  # defaults: the login name (human) against Merlin, the normal bot
        for _ in range(600):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, WizardsCupResultScreen):
                break
            if isinstance(screen, RoundResultScreen):
                await press("enter")
                continue
            assert isinstance(screen, GameScreen), type(screen).__name__
            live = screen.live
            deciding = 0 in live.to_act
            phase = live.state.phase
            if deciding and phase is Phase.TEAM:
                builder = screen.query_one(TeamBuilder)
                while len(builder.picks) < 5:
                    await press("space", "down")
                await press("c")
            elif deciding and phase is Phase.LINEUP:
                await press("c")
            elif deciding and phase is Phase.SWAP:
                await press("k")
            elif phase is Phase.DUEL and not screen.auto_play:
                await press("a")
            else:
                await app.workers.wait_for_complete()
                await asyncio.sleep(0.01)
        else:
            raise AssertionError("the game did not finish")
        assert isinstance(app.screen, WizardsCupResultScreen)
        result = app.screen_stack[-2].live.result  # type: ignore[attr-defined]
        shown = app.export_screenshot().replace("&#160;", " ")
        headline = "draw" if result.is_draw else f"{('Ana', 'Merlin')[result.winners[0]]} wins"
        assert headline in shown
        await press("enter")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')
    return app, keys


def test_a_whole_game_against_the_bot_from_the_keyboard() -> None:
    app, keys = asyncio.run(play_whole_game())
    assert app.return_code in (None, 0)
    assert len(keys) < 200  # short key sequences only; the duels play themselves
    with SessionStore() as store:
        (summary,) = store.list_sessions()
        assert summary.status == "finished"
        live = LiveSession.load(store, summary.session_id)
        assert live.result is not None
        assert any(entry.seat is None for entry in live.log)  # duels were played as table steps
        assert {entry.seat for entry in live.log} == {0, 1, None}
