"""Snapshot tests of Wizbits' quicker acts at 80x24: a typed damage amount cut to what remains, and a yield.

Situations come from ``wizbits_battle`` and ``test_wizbits_typed_damage``, so the pictures only change when
the UI does.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.wizbits_battle import SMALL, BattleApp, opening
from tests.helpers.wizbits_game import RULES
from tests.helpers.wizbits_typed_damage import twelve_to_divide
from tui.games.wizbits.yields import Yield


def test_typed_damage_cut_to_what_remains_at_80x24(snap_compare: Any) -> None:
    async def type_too_much(pilot: Any) -> None:
        await pilot.press("plus", "plus", "plus", "down", "4", "0")

    assert snap_compare(BattleApp(twelve_to_divide()), terminal_size=SMALL, run_before=type_too_much)


def test_watching_while_yielding_at_80x24(snap_compare: Any) -> None:
    game = opening()  # Ana holds Priority: Bo watches, yielding until his next turn
    app = BattleApp(game, viewer=1)

    async def yield_until_my_turn(pilot: Any) -> None:
        app.table.yields[1] = Yield.start("turn", RULES.view(game.state, 1))
        app.redraw()
        await pilot.pause()

    assert snap_compare(app, terminal_size=SMALL, run_before=yield_until_my_turn)
