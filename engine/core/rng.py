"""Seeded randomness: every random draw is derived from the game's seed."""

import random


def seeded_rng(seed: int, *labels: object) -> random.Random:
    """Return a generator that depends only on ``seed`` and ``labels``.

    String seeding in :mod:`random` hashes with SHA-512, so the sequence is the
    same on every platform and Python run, unlike ``hash()``.
    """
    key = ":".join([str(seed), *(str(label) for label in labels)])
    return random.Random(key)
