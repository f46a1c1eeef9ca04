"""Pilot tests of dividing battle damage in fewer presses: typing an amount, and "all here" (``*``).

The harness is ``wizbits_battle``; the rules still judge the finished split.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from tests.helpers.wizbits_battle import BattleApp, conflict, division, prompt, run
from tests.helpers.wizbits_typed_damage import twelve_to_divide


def test_typing_twelve_puts_twelve_on_one_defender() -> None:
    game = twelve_to_divide()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert table.stage == "divide" and table.total == 12
        first, second = (row.key for row in table.rows)
        await pilot.press("1", "2")
        assert [row.value for row in table.rows] == [12, 0] and "Remaining: 0 of 12" in prompt(app)
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "divide", "damage": [[first, 12]]}
        # Bo's blockers had only the Stagbeetle to hit, so Ana's split opened the Damage pillar.
        assert game.state.pillar is not None
        assert [u.payload["damage"] for u in game.state.pillar.units() if u.owner == 0] == [[[first, 12]]]

    run(app, scenario)


def test_a_typed_amount_is_clamped_to_what_remains_with_a_message() -> None:
    app = BattleApp(twelve_to_divide())

    async def scenario(pilot: Any) -> None:
        table = app.table
        await pilot.press("plus", "plus", "plus", "down")  # 3 on the first defender: 9 remain
        await pilot.press("4", "0")  # 40 is more than there is
        assert [row.value for row in table.rows] == [3, 9]
        assert f"Only 9 of 12 left for {table.rows[1].label}: it gets 9, not 40" in prompt(app)
        await pilot.press("5")  # a clamp ends the number: the next digit starts a new one
        assert table.rows[1].value == 5 and "Only" not in prompt(app)
        await pilot.press("backspace")
        assert table.rows[1].value == 0 and "Remaining: 9 of 12" in prompt(app)
        await pilot.press("0", "0", "0", "7")  # leading zeros add nothing
        assert table.rows[1].value == 7
        await pilot.press("up", "1")  # another line starts a new number
        assert [row.value for row in table.rows] == [1, 7]

    run(app, scenario)


def test_all_to_this_one_puts_every_remaining_point_on_the_highlighted_defender() -> None:
    game = division()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        total = table.total
        first, second = (row.key for row in table.rows)
        await pilot.press("down", "asterisk")
        assert [row.value for row in table.rows] == [0, total]
        await pilot.press("asterisk")  # nothing remains to give
        assert "No damage left to give" in prompt(app)
        await pilot.press("minus", "minus", "up", "asterisk")
        assert [row.value for row in table.rows] == [2, total - 2]
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "divide", "damage": [[first, 2], [second, total - 2]]}

    run(app, scenario)


def test_typed_amounts_and_all_here_only_while_dividing() -> None:
    game, attackers, _ = conflict()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert table.stage == "attack"
        before = [row.value for row in table.rows]
        await pilot.press("1", "asterisk")
        assert [row.value for row in table.rows] == before and app.chosen == []
        assert table.query_one("#wb-list", OptionList).highlighted == 0
        assert not table.check_action("digit", (1,)) and not table.check_action("all_damage", ())

    run(app, scenario)
