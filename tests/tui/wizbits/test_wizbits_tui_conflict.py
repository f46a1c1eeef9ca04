"""Pilot tests of the Wizbits battlefield in Conflict and Reconcile: attack, block, assign, divide, discard, flip targets."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from engine.wizbits import actions as act
from engine.wizbits.state import Phase
from tests.helpers.wizbits_battle import BattleApp, conflict, division, names, opening, prompt, run, with_hand
from tests.helpers.wizbits_game import RULES, Game


def test_declare_attackers() -> None:
    game, attackers, _ = conflict()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "attack"
        keys = [row.key for row in app.table.rows]
        await pilot.press("down")
        row = keys.index(attackers[0])
        app.table.query_one("#wb-list", OptionList).highlighted = row
        await pilot.press("space", "enter")
        assert app.chosen == [{"type": "attack", "attackers": [attackers[0]]}]
        assert game.state.phase == Phase.BLOCK

    run(app, scenario)


def test_block_from_the_keyboard() -> None:
    game, attackers, blockers = conflict()
    game.act(0, act.Attack(tuple(attackers)))
    app = BattleApp(game, viewer=1)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "block"
        index = [r.key for r in app.table.rows].index(blockers[0])
        app.table.query_one("#wb-list", OptionList).highlighted = index
        await pilot.press("space")
        row = app.table.rows[index]
        assert row.value in attackers and "→ blocks" in names(app)[index]
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "block", "blocks": [[blockers[0], row.value]]}
        assert game.state.blocks == {blockers[0]: row.value}

    run(app, scenario)


def test_assign_shows_attacker_to_defender_lines() -> None:
    game, attackers, blockers = conflict()
    game.act(0, act.Attack(tuple(attackers)))
    game.act(1, act.Block(()))
    assert game.state.phase == Phase.ASSIGN
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "assign"
        await pilot.press("space")
        first = app.table.rows[0]
        assert first.value is not None and " → " in names(app)[0]
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "assign", "assignments": [[first.key, first.value]]}
        # The battles formed are shown as lines too.
        assert "→" in prompt(app)

    run(app, scenario)


def test_divide_damage_with_plus_minus_and_the_remaining_counter() -> None:
    game = division()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert table.stage == "divide" and len(table.rows) == 2
        first, second = (row.key for row in table.rows)
        total = table.total
        assert f"Remaining: {total} of {total}" in prompt(app)
        for _ in range(total + 1):  # one press too many: nothing is left to give
            await pilot.press("plus")
        assert table.rows[0].value == total and "No damage left" in prompt(app)
        await pilot.press("minus", "down", "plus")
        assert [row.value for row in table.rows] == [total - 1, 1]
        assert f"Remaining: 0 of {total}" in prompt(app)
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "divide", "damage": [[first, total - 1], [second, 1]]}

    run(app, scenario)


def test_discard_at_reconcile() -> None:
    game = Game(1)
    game.settle()
    for card in ("pollen-drift", "pollen-drift", "ripple-of-doubt"):
        game.give(0, card)
    game.advance(lambda s: s.phase == Phase.RECONCILE_DOWN)
    need = len(game.state.players[0].hand) - 7
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "discard" and app.table.total == need
        await pilot.press("space", "enter")  # one marked, not enough when need > 1
        if need > 1:
            assert app.chosen == [] and f"discard exactly {need}" in prompt(app)
            for _ in range(need - 1):
                await pilot.press("down", "space")
            await pilot.press("enter")
        assert app.chosen[-1]["type"] == "discard" and len(app.chosen[-1]["cards"]) == need

    run(app, scenario)


def test_choose_targets_for_a_flip_income() -> None:
    game = opening()
    verdict, = with_hand(game, "radiant-verdict")
    squire = next(p.iid for p in game.state.players[0].in_play if game.state.cards[p.iid] == "emberbeetle-squire")
    play = next(a for a in RULES.legal_actions(game.state, 0)
                if isinstance(a, act.PlayCard) and a.card == verdict and squire in a.pay.secede)
    game.act(0, play)  # seceding the Squire sets off its flip Income, which needs a target
    assert game.state.pending
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "pending" and len(app.table.rows) == 1
        row = app.table.rows[0]
        assert len(row.options) == 2 and "→" in names(app)[0]
        await pilot.press("space")
        await pilot.press("enter")
        assert app.chosen == [{"type": "choose", "targets": [row.options[1]]}]
        assert not game.state.pending

    run(app, scenario)
