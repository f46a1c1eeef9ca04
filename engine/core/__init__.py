"""The contract every Coven game follows, and the registry that lists them."""

from engine.core.contract import TABLE, Event, GameRules, ReplayError, Result, Seat, canonical_json, state_digest
from engine.core.errors import (
    ActionError,
    IllegalActionError,
    InvalidOptionsError,
    MalformedActionError,
    UnknownGameError,
)
from engine.core.registry import GameSpec, OptionSpec, all_games, get_game, register
from engine.core.rng import seeded_rng

__all__ = [
    "TABLE",
    "ActionError",
    "Event",
    "GameRules",
    "GameSpec",
    "IllegalActionError",
    "InvalidOptionsError",
    "MalformedActionError",
    "OptionSpec",
    "ReplayError",
    "Result",
    "Seat",
    "UnknownGameError",
    "all_games",
    "canonical_json",
    "get_game",
    "register",
    "seeded_rng",
    "state_digest",
]
