"""Wizbits Elemenstor Battle: the Pillar-building card duel.

Importing the package (or any of its data modules) loads no rules or bots:
:mod:`engine.wizbits.game` registers the game, and :func:`engine.get_game`
imports it on first use. ``RULES`` and ``SPEC`` are still reachable here.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("RULES", "SPEC"):
        from engine.wizbits import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
