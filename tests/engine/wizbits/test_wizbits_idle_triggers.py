"""A Trigger ability whose every effect has no legal choice stays legal, as the rulebook has it, but using it
would only pay its cost: Normal and Hard never choose it (docs/rules/wizbits.md, "Choosing targets")."""

from __future__ import annotations

import random

import pytest

from engine.wizbits.actions import Action, Activate
from engine.wizbits.bots import BOTS
from engine.wizbits.bots.hard import HardBot
from engine.wizbits.state import Phase
from tests.helpers.wizbits_game import RULES, Game

TIDAL = {"deck_1": "tidal-dusk", "deck_2": "tidal-dusk"}


def bo_holds_priority(volley: bool = False) -> tuple[Game, int, int]:
    """The non-active seat holds Priority on an Elements pillar, its Main (Tidewhisper Sage, with a
    counter for opposing units only) hurt, and a Glowworm Warden in play whose flip heals that Main.
    The pillar is empty, or (``volley``) holds the active seat's Sparkswarm Volley aimed at that Main.

    Returns the game, that seat and its Main's iid.
    """
    game = Game(3, TIDAL)
    game.to_phase(Phase.ELEMENTS)
    seat = 1 - game.state.active
    main = game.state.players[seat].main
    game.permanent(main).damage = 8
    game.give(seat, "glowworm-warden", "play")
    if volley:
        game.play(1 - seat, "sparkswarm-volley", targets=[main])
    game.pass_()
    assert game.state.priority == seat and len(list(game.pillar().units())) == volley
    return game, seat, main


def counters_of(legal: list[Action], main: int) -> list[Activate]:
    return [action for action in legal if isinstance(action, Activate) and action.card == main]


def test_a_counter_with_nothing_to_counter_stays_legal_and_does_nothing() -> None:
    """The rulebook's Trigger: the cost is paid and the effect goes on the Pillar, even with nothing to aim at."""
    game, seat, main = bo_holds_priority()
    offered = counters_of(RULES.legal_actions(game.state, seat), main)
    assert offered and all(action.targets == (None,) for action in offered)
    game.act(seat, offered[0])
    assert game.newest_unit().owner == seat


def test_the_counter_is_aimed_once_an_opposing_unit_stands() -> None:
    game, seat, main = bo_holds_priority(volley=True)
    offered = counters_of(RULES.legal_actions(game.state, seat), main)
    assert offered and {action.targets for action in offered} == {(game.newest_unit().uid,)}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_bots_never_pay_for_nothing(level: str) -> None:
    """Seceding the Warden to pay for the idle counter would heal the hurt Main, which tempted both bots into
    paying for a counter with no target."""
    game, seat, main = bo_holds_priority()
    legal = RULES.legal_actions(game.state, seat)
    assert counters_of(legal, main)
    bot = BOTS[level] if level == "normal" else HardBot(playouts=8)
    for seed in range(3):
        choice = bot(RULES.view(game.state, seat), legal, random.Random(seed))
        assert choice in legal and choice not in counters_of(legal, main), choice


def test_normal_still_counters_when_there_is_something_to_counter() -> None:
    """Only idle uses are dropped: a Volley aimed at the hurt Main is worth countering."""
    game, seat, main = bo_holds_priority(volley=True)
    legal = RULES.legal_actions(game.state, seat)
    choice = BOTS["normal"](RULES.view(game.state, seat), legal, random.Random(0))
    assert choice in counters_of(legal, main)
