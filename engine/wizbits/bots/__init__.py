"""Wizbits bots: Normal's judgement, the Hard search over it, and the determinized states the search samples.

The bot table is built here, so Normal (:mod:`engine.wizbits.bots.normal`) and Hard
(:mod:`engine.wizbits.bots.hard`, which plays Normal in its playouts) need not import each other both ways.
"""

from engine.wizbits.bots.hard import HardBot, hard_bot
from engine.wizbits.bots.normal import Bot, easy_bot, normal_bot

BOTS: dict[str, Bot] = {"easy": easy_bot, "normal": normal_bot, "hard": hard_bot}
"""Bot levels, weakest first."""

__all__ = ["BOTS", "Bot", "HardBot", "easy_bot", "hard_bot", "normal_bot"]
