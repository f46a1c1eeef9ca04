"""Snapshot tests of the Wizbits battlefield at 100x30 and the compact 80x24 layout.

Situations come from driving the engine with fixed seeds and placed cards
(see ``test_wizbits_tui``), so the pictures only change when the UI does.
"""

from __future__ import annotations

from typing import Any

from engine.wizbits import actions as act
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import BIG, SMALL, BattleApp, conflict, division, opening, with_hand
from tests.helpers.wizbits_game import Game
from tests.helpers.wizbits_tui_table import nested


def test_battlefield_at_the_start_of_a_turn(snap_compare: Any) -> None:
    assert snap_compare(BattleApp(opening()), terminal_size=BIG)


def test_cost_dialog(snap_compare: Any) -> None:
    game = opening()
    with_hand(game, "radiant-verdict", "sparkswarm-volley")

    async def open_dialog(pilot: Any) -> None:
        await pilot.press("enter")
        if pilot.app.table.stage == "compose":
            await pilot.press("enter")
        await pilot.press("1")

    assert snap_compare(BattleApp(game), terminal_size=BIG, run_before=open_dialog)


def test_conflict_assignment(snap_compare: Any) -> None:
    game, attackers, _ = conflict()
    game.act(0, act.Attack(tuple(attackers)))
    game.act(1, act.Block(()))

    async def assign(pilot: Any) -> None:
        await pilot.press("space", "down", "space", "space")

    assert snap_compare(BattleApp(game), terminal_size=BIG, run_before=assign)


def test_damage_division(snap_compare: Any) -> None:
    async def divide(pilot: Any) -> None:
        await pilot.press("plus", "plus", "down", "plus")

    assert snap_compare(BattleApp(division()), terminal_size=BIG, run_before=divide)


def dice_game() -> Game:
    """Three turns played with passes only, so the dice log holds every Test and Second Test check."""
    game = Game(3, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.advance(lambda state: state.turn == 4 and state.phase != "reconcile_up")
    return game


def test_dice_log(snap_compare: Any) -> None:
    async def show_dice(pilot: Any) -> None:
        await pilot.press("d")
        table = pilot.app.table  # the hand's rows are laid out again for the narrower list beside the dice
        await until(pilot, lambda: table._entries_width == table._entries_room(table.query_one("#wb-list")),
                    "the hand fitted to its list")

    app = BattleApp(dice_game(), viewer=dice_game().state.active)
    assert snap_compare(app, terminal_size=SMALL, run_before=show_dice)


def test_compact_layout_80x24(snap_compare: Any) -> None:
    assert snap_compare(BattleApp(opening()), terminal_size=SMALL)


def test_nested_pillar_at_100x30(snap_compare: Any) -> None:
    """Three nested Subpillars and a damage unit: every unit's name, owner, kind, height and IPH fit."""
    assert snap_compare(BattleApp(nested()), terminal_size=BIG)


def test_piles_at_80x24(snap_compare: Any) -> None:
    """g: both discard piles and the seceded cards, the highlighted card in full."""
    game = opening()
    game.give(1, "sparkswarm-volley", "discard")
    game.give(1, "ripple-of-doubt", "discard")
    game.give(0, "radiant-verdict", "discard")

    async def open_piles(pilot: Any) -> None:
        await pilot.press("g")

    assert snap_compare(BattleApp(game), terminal_size=SMALL, run_before=open_piles)


def test_archmage_ping_cost_at_80x24(snap_compare: Any) -> None:
    """The ping's cost dialog says it discards a card at random, and what seceding each card sets going."""
    game = opening()

    async def open_dialog(pilot: Any) -> None:
        table = pilot.app.table
        main = game.state.players[0].main
        line = next(index for index, entry in enumerate(table.entries) if (entry.iid, entry.ability) == (main, 1))
        for _ in range(line):
            await pilot.press("down")
        await pilot.press("enter", "enter")

    assert snap_compare(BattleApp(game), terminal_size=SMALL, run_before=open_dialog)
