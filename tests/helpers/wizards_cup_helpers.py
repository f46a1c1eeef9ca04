"""Builders for Wizards Cup engine tests: states set up by hand, games played by bots."""

from __future__ import annotations

import json
import random
from typing import Any

from engine import get_game
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.duel import Side
from engine.wizards_cup.rules import WizardsCupRules
from engine.wizards_cup.state import Phase, PlayerState, WizardsCupState

SPEC = get_game("wizards-cup")
RULES: WizardsCupRules = SPEC.rules  # type: ignore[assignment]

Log = list[tuple[int | None, dict[str, Any]]]


def side(card: str, fresh: bool = False, waiting: str | None = None, discard: tuple[str, ...] = ()) -> Side:
    """A duel side built from card ids."""
    return Side(CARDS[card], fresh, CARDS[waiting] if waiting else None, [CARDS[c] for c in discard])


def lineup_state(team0: list[str], team1: list[str], tokens: tuple[int, int] = (0, 0)) -> WizardsCupState:
    """A state at the start of round 1's lineups with the given teams (first card displayed)."""
    players = [
        PlayerState(name="Ana", displayed=team0[0], team=list(team0), tokens=tokens[0]),
        PlayerState(name="Bo", displayed=team1[0], team=list(team1), tokens=tokens[1]),
    ]
    return WizardsCupState(seed=7, tokens_to_win=2, players=players, phase=Phase.LINEUP, round=1)


def play_random_game(seed: int, rng: random.Random,
                     options: dict[str, Any] | None = None) -> tuple[WizardsCupState, Log]:
    """Play a whole game (with ``options``, default none) by uniformly random legal actions; its state and JSON log."""
    state = SPEC.new_state(options or {}, seed, 2, ["Ana", "Bo"])
    log: Log = []
    while RULES.result(state) is None:
        seats = RULES.to_act(state)
        seat = rng.choice(seats) if seats else None
        action = rng.choice(RULES.legal_actions(state, seat))
        data = json.loads(json.dumps(RULES.action_to_json(action)))
        state, _ = RULES.apply(state, seat, data)
        log.append((seat, data))
    return state, log
