"""Giving a bot the player's thinking time, whatever the game.

A bot that searches within a clock (a Hard bot) offers ``with_think_time(seconds)``,
returning itself under that clock; other bots are plain functions and are
used as they are. Generic screens call :func:`with_think_time` and never need
to know which game or level they run.
"""

from __future__ import annotations

from typing import TypeVar

BotT = TypeVar("BotT")


def with_think_time(bot: BotT, seconds: float) -> BotT:
    """``bot`` under a clock of ``seconds`` a decision, if it takes one; else ``bot`` unchanged."""
    configure = getattr(bot, "with_think_time", None)
    if not callable(configure):
        return bot
    configured: BotT = configure(seconds)
    return configured
