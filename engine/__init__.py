"""Coven's rules engine: pure game logic with no UI or storage imports.

Importing :mod:`engine` announces every bundled game (:func:`game_entries`)
without importing its rules; :func:`get_game` imports a game's rules, options
and bots the first time it is asked for them.
"""

# Announces the bundled games without importing them; each loads on first use.
from engine import bundled as _bundled  # noqa: F401
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
    UnknownRulesVersionError,
    all_games,
    get_game,
    register,
    state_digest,
)
from engine.core.catalog import GameEntry, game_entries

__all__ = [
    "TABLE",
    "ActionError",
    "Event",
    "GameEntry",
    "GameRules",
    "GameSpec",
    "IllegalActionError",
    "MalformedActionError",
    "OptionSpec",
    "Result",
    "Seat",
    "UnknownRulesVersionError",
    "all_games",
    "game_entries",
    "get_game",
    "register",
    "state_digest",
]
