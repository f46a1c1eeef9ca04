"""Coven's rules engine: pure game logic with no UI or storage imports.

Importing :mod:`engine` registers every bundled game, so callers can look a
game up by id with :func:`get_game`.
"""

from engine.core import (
    TABLE,
    ActionError,
    Event,
    GameRules,
    GameSpec,
    IllegalActionError,
    MalformedActionError,
    OptionSpec,
    Result,
    Seat,
    all_games,
    get_game,
    register,
    state_digest,
)
# Registration order is menu order: Wizards Cup first.
from engine import wizards_cup as _wizards_cup  # noqa: F401  (registers itself)
from engine import witchdraft as _witchdraft  # noqa: F401  (registers itself)
from engine import wizbits as _wizbits  # noqa: F401  (registers itself)

__all__ = [
    "TABLE",
    "ActionError",
    "Event",
    "GameRules",
    "GameSpec",
    "IllegalActionError",
    "MalformedActionError",
    "OptionSpec",
    "Result",
    "Seat",
    "all_games",
    "get_game",
    "register",
    "state_digest",
]
