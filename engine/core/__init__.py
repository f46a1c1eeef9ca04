"""The contract every Coven game follows, and the registry that lists them."""

from engine.core.contract import (
    TABLE,
    Event,
    GameRules,
    ReplayError,
    Result,
    Seat,
    canonical_json,
    check_rules_version,
    state_digest,
)
from engine.core.errors import (
    ActionError,
    IllegalActionError,
    InvalidOptionsError,
    MalformedActionError,
    UnknownGameError,
    UnknownRulesVersionError,
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
    "UnknownRulesVersionError",
    "all_games",
    "canonical_json",
    "check_rules_version",
    "get_game",
    "register",
    "seeded_rng",
    "state_digest",
]
