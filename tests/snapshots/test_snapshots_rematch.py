"""Snapshot tests of play again at 80x24: the final screen with its series line and key, and the table's prompt."""

from __future__ import annotations

from typing import Any

from tests.helpers.tui_fakes import ScreenApp
from tests.helpers.wizards_cup_tui import tiebreak_game
from tui.games.wizards_cup.table import WizardsCupUI
from tui.screens.table_rematch import RematchPromptScreen
from tui.widgets.game_over import GameOverScreen

SIZE = (80, 24)


def final_screen() -> GameOverScreen:
    """The Wizards Cup final screen as a table's game screen hands it over: a series and p asking the table."""
    game, result = tiebreak_game()
    screen = WizardsCupUI().game_result(game.view(0), result, game.events)
    assert isinstance(screen, GameOverScreen)
    screen.series = "Ana 2 – 1 Bo, 1 draw"
    screen.ask_table = lambda: None
    return screen


def test_final_screen_with_the_series_and_play_again(snap_compare: Any) -> None:
    assert snap_compare(ScreenApp(final_screen()), terminal_size=SIZE)


def test_rematch_prompt_at_a_table(snap_compare: Any) -> None:
    app = ScreenApp(final_screen())

    async def asked(pilot: Any) -> None:
        await pilot.pause()
        await app.push_screen(RematchPromptScreen("Bo", "Also waiting for Cy."))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=asked)
