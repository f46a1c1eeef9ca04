"""Wizbits bots. They decide from their own seat's view and legal actions only."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.wizbits.actions import Action
from engine.wizbits.views import WizbitsView


def easy_bot(view: WizbitsView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly at random."""
    return rng.choice(list(legal))


BOTS = {"easy": easy_bot}
"""Bot levels, weakest first."""
