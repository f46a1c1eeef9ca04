"""A Trigger ability whose every effect has no legal choice is not offered: using it would only pay its cost.

Rules version 4 refuses it (docs/rules/wizbits.md, "Choosing targets"); sessions begun under older
versions still offer it so their logs replay, and there the bots must never choose it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import get_game
from engine.core import ReplayError
from engine.core.errors import IllegalActionError
from engine.wizbits.actions import Action, Activate, Payment
from engine.wizbits.bots import BOTS
from engine.wizbits.bots.hard import HardBot
from engine.wizbits.state import Phase
from tests.helpers.wizbits_game import RULES, Game

SPEC = get_game("wizbits")
TIDAL = {"deck_1": "tidal-dusk", "deck_2": "tidal-dusk"}


def bo_holds_priority(version: int | None = None, volley: bool = False) -> tuple[Game, int, int]:
    """The non-active seat holds Priority on an Elements pillar, its Main (Tidewhisper Sage, with a
    counter for opposing units only) hurt, and a Glowworm Warden in play whose flip heals that Main.
    The pillar is empty, or (``volley``) holds the active seat's Sparkswarm Volley aimed at that Main.

    Returns the game, that seat and its Main's iid.
    """
    game = Game(3, TIDAL)
    if version is not None:
        game.state.rules_version = version
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


def test_a_counter_with_nothing_to_counter_is_neither_offered_nor_accepted() -> None:
    game, seat, main = bo_holds_priority()
    assert counters_of(RULES.legal_actions(game.state, seat), main) == []
    with pytest.raises(IllegalActionError, match="Tidewhisper Sage has no legal target now; using it would only"):
        game.act(seat, Activate(main, 1, None, (None,), Payment(deck=3)))


def test_the_counter_is_offered_once_an_opposing_unit_stands() -> None:
    game, seat, main = bo_holds_priority(volley=True)
    offered = counters_of(RULES.legal_actions(game.state, seat), main)
    assert offered and {action.targets for action in offered} == {(game.newest_unit().uid,)}


def test_an_ability_that_does_something_without_a_choice_stays_usable() -> None:
    game, seat, _ = bo_holds_priority()
    orb = game.give(seat, "dewdrop-orb", "play")
    assert any(isinstance(action, Activate) and action.card == orb for action in RULES.legal_actions(game.state, seat))


def test_a_session_begun_under_version_3_still_offers_it() -> None:
    game, seat, main = bo_holds_priority(version=3)
    offered = counters_of(RULES.legal_actions(game.state, seat), main)
    assert offered and all(action.targets == (None,) for action in offered)
    game.act(seat, offered[0])
    assert game.newest_unit().owner == seat


def test_an_old_log_with_such_a_use_replays_under_its_version_and_is_refused_under_the_newest() -> None:
    data = json.loads((Path(__file__).resolve().parents[2] / "data" / "wizbits_rules_v1_games.json").read_text())
    logs: list[list[tuple[int | None, dict[str, Any]]]] = []
    for game in data["games"]:
        log = [(seat, action) for seat, action in game["log"]]
        idle = [index for index, (_, action) in enumerate(log)
                if action["type"] == "activate" and action["targets"] and not any(action["targets"])]
        if idle:
            options = SPEC.resolve_options(game["options"])
            prefix = log[:idle[0] + 1]
            state = SPEC.rules.replay(options, game["seed"], 2, prefix, ["Ana", "Bo"], rules_version=3)
            assert state.rules_version == 3
            with pytest.raises(ReplayError, match="has no legal target now"):
                SPEC.rules.replay(options, game["seed"], 2, prefix, ["Ana", "Bo"])
            logs.append(prefix)
    assert logs, "the recorded games hold such a use"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_bots_never_pay_for_nothing_in_an_older_session(level: str) -> None:
    """Under version 3 the engine offers the idle counter; seceding the Warden to pay for it would heal the
    hurt Main, which tempted both bots into paying for a counter with no target."""
    game, seat, main = bo_holds_priority(version=3)
    legal = RULES.legal_actions(game.state, seat)
    assert counters_of(legal, main)
    bot = BOTS[level] if level == "normal" else HardBot(playouts=8)
    for seed in range(3):
        choice = bot(RULES.view(game.state, seat), legal, random.Random(seed))
        assert choice in legal and choice not in counters_of(legal, main), choice


def test_normal_still_counters_when_there_is_something_to_counter() -> None:
    """Only idle uses are dropped: a Volley aimed at the hurt Main is worth countering."""
    game, seat, main = bo_holds_priority(version=3, volley=True)
    legal = RULES.legal_actions(game.state, seat)
    choice = BOTS["normal"](RULES.view(game.state, seat), legal, random.Random(0))
    assert choice in counters_of(legal, main)
