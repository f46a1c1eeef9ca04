"""Shared by test_wizbits_typed_damage.py and other test modules, which import them from here.

twelve_to_divide, moved here from tests/tui/wizbits/test_wizbits_typed_damage.py.
"""

from __future__ import annotations

from engine.wizbits import actions as act
from engine.wizbits.state import Phase
from tests.helpers.wizbits_battle import conflict
from tests.helpers.wizbits_game import RULES, Game


def twelve_to_divide() -> Game:
    """Ana's Stagbeetle, raised to a d12 of Strength, is blocked by both of Bo's characters: 12 to divide."""
    game, attackers, blockers = conflict()
    game.permanent(attackers[0]).lasting_steps["strength"] = 2  # d8 two levels up: d12
    game.act(0, act.Attack((attackers[0],)))
    game.act(1, act.Block(tuple((b, attackers[0]) for b in blockers)))
    game.advance(lambda s: s.phase == Phase.DIVIDE)
    assert 0 in RULES.to_act(game.state)
    return game
