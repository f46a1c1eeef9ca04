"""Snapshot tests of the Wizards Cup table and result screens at 80x24.

Views come from driving the engine with a fixed seed and fixed actions
(see ``test_wizards_cup_tui``), so the pictures only change when the UI does.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.tui_fakes import ScreenApp
from tests.helpers.wizards_cup_tui import (
    Game,
    TableApp,
    duel_app,
    lineup_round2_app,
    swap_game,
    team_app,
    tiebreak_game,
)
from tui.games.wizards_cup.table import WizardsCupUI

SIZE = (80, 24)


def test_team_builder(snap_compare: Any) -> None:
    async def pick_two(pilot: Any) -> None:
        await pilot.press("space", "down", "down", "down", "down", "down", "down", "space", "down", "down")

    assert snap_compare(team_app(), terminal_size=SIZE, run_before=pick_two)


def test_team_builder_refuses_sixth(snap_compare: Any) -> None:
    async def pick_six(pilot: Any) -> None:
        for _ in range(5):
            await pilot.press("space", "down")
        await pilot.press("space")

    assert snap_compare(team_app(), terminal_size=SIZE, run_before=pick_six)


def test_lineup(snap_compare: Any) -> None:
    async def arrange(pilot: Any) -> None:
        await pilot.press("down", "w")

    assert snap_compare(lineup_round2_app(), terminal_size=SIZE, run_before=arrange)


def test_duel_zone_mid_round(snap_compare: Any) -> None:
    assert snap_compare(duel_app(3), terminal_size=SIZE)


def test_duel_zone_log_hidden(snap_compare: Any) -> None:
    assert snap_compare(duel_app(2, log=False), terminal_size=SIZE)


def test_swap_phase(snap_compare: Any) -> None:
    async def choose(pilot: Any) -> None:
        await pilot.press("down", "down", "space", "down", "down", "down")

    game = swap_game()
    assert snap_compare(TableApp(game.view(0), 0, game.legal(0), game.events), terminal_size=SIZE,
                        run_before=choose)


def test_round_result(snap_compare: Any) -> None:
    game = swap_game()
    app = TableApp(game.view(0), None, (), game.events)

    async def open_summary(pilot: Any) -> None:
        screen = WizardsCupUI().round_result(game.view(0), game.events)
        assert screen is not None
        await app.push_screen(screen)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=open_summary)


def test_game_result_tiebreak(snap_compare: Any) -> None:
    game, result = tiebreak_game()
    screen = WizardsCupUI().game_result(game.view(0), result, game.events)
    assert snap_compare(ScreenApp(screen), terminal_size=SIZE)


def test_waiting_for_the_other_player(snap_compare: Any) -> None:
    game = Game()
    game.teams()
    game.act(0, {"type": "lineup", "order": list(game.state.players[0].team[:5])})
    assert snap_compare(TableApp(game.view(0), None, (), game.events), terminal_size=SIZE)
