"""A reproducible random pillar for benchmarks: build n units, then resolve them all."""

from __future__ import annotations

from engine.core.rng import seeded_rng
from engine.wizbits.pillar.tree import Pillar, UnitKind

CARD_SHARE = 0.6
"""Most plays are cards; the rest are abilities, each starting a subpillar."""


def random_pillar(n: int, seed: int) -> Pillar:
    """A two-seat pillar of ``n`` units, each on a random legal foundation.

    Foundations are picked by index (:meth:`Pillar.foundation_at`), never by
    listing them all, so building stays O(n log n).
    """
    rng = seeded_rng(seed, "pillar-workload", n)
    pillar = Pillar.open("turn", "constructed", [(0, "Standing Ward", {"card": "standing-ward"})])
    for index in range(n):
        on = pillar.foundation_at(rng.randrange(pillar.foundation_count()))
        kind = UnitKind.CARD if rng.random() < CARD_SHARE else UnitKind.ABILITY
        pillar.play(kind, index % 2, f"Unit {index}", {"n": index}, on=on)
    return pillar


def resolve_all(pillar: Pillar) -> int:
    """Resolve ``pillar`` to the end and return how many steps it took."""
    steps = 0
    while pillar.resolve_group():
        steps += 1
    return steps
