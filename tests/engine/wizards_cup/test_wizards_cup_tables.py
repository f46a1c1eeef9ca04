"""The solver's shared duel tables can be built ahead of any game, and its per-team cache is dropped with the games."""

from __future__ import annotations

import random

import numpy as np

from engine.core.game_caches import forget_games
from engine.wizards_cup import round_matrix
from engine.wizards_cup.cards import WIZARDS
from engine.wizards_cup.round_matrix import prepare, round_results

IDS = [w.card_id for w in WIZARDS]


def test_prepared_tables_answer_every_round_without_growing() -> None:
    prepare()
    contexts = round_matrix._CONTEXTS
    known = len(contexts.sides)
    assert known > 0
    assert (contexts.duels[:known, :known] >= 0).all()  # every duel between two contexts is resolved
    before, spots = contexts.duels.copy(), len(contexts.spots)
    rng = random.Random(24)
    for _ in range(4):  # a seat forked after prepare() then only reads the shared tables
        first, second = rng.sample(IDS, 6), rng.sample(IDS, 6)
        results = round_results(first, second)
        assert results.shape == (720, 720)
    assert len(contexts.sides) == known and len(contexts.spots) == spots
    assert np.array_equal(contexts.duels, before)


def test_leaving_the_games_empties_the_team_cache_and_changes_no_result() -> None:
    rng = random.Random(2424)
    first, second = rng.sample(IDS, 6), rng.sample(IDS, 6)
    results = round_results(first, second)
    assert round_matrix._team_contexts.cache_info().currsize >= 1
    assert forget_games() >= 1
    assert round_matrix._team_contexts.cache_info().currsize == 0
    assert np.array_equal(round_results(first, second), results)
