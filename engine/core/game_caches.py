"""Caches a game keeps for the teams, decks and positions of the games being played, dropped when a game is left.

A bot or coach may remember what it worked out for one game's teams (the
Wizards Cup solver keeps each team's lineup table, 34 KB apiece, up to 256
of them). That helps within a game, but a finished game's entries are
rarely asked for again, and a seat that sits at the menu should not hold
them: the app calls :func:`forget_games` once a game screen has closed.
Process-wide tables that every game reads (the duel tables) are not
registered here: they are built once and shared.
"""

from __future__ import annotations

from collections.abc import Callable

_CLEARERS: list[Callable[[], None]] = []


def forget_with_games(clear: Callable[[], None]) -> None:
    """Register ``clear`` (e.g. an ``lru_cache``'s ``cache_clear``) to run whenever a game is left."""
    if clear not in _CLEARERS:
        _CLEARERS.append(clear)


def forget_games() -> int:
    """Empty every registered per-game cache; how many there were.

    Safe while a bot still thinks in another thread: a cleared entry is worked out again, to the same value.
    """
    for clear in list(_CLEARERS):
        clear()
    return len(_CLEARERS)
