"""The solver's shared duel tables can be built ahead of any game, and its per-team cache is dropped with the games."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from engine.core.game_caches import forget_games
from engine.wizards_cup import round_matrix
from engine.wizards_cup.cards import WIZARDS
from engine.wizards_cup.round_matrix import prepare, round_results

IDS = [w.card_id for w in WIZARDS]
REPO = Path(__file__).resolve().parents[3]

_DECISIONS = (
    "import random, sys\n"
    "from engine.core.game_caches import forget_games\n"
    "from engine.wizards_cup.hard import hard_bot\n"
    "from engine.wizards_cup.round_matrix import prepare\n"
    "from tests.helpers.wizards_cup_helpers import RULES, SPEC, lineup_state\n"
    "warm = sys.argv[1] == 'warm'\n"
    "if warm:\n"
    "    prepare()\n"
    "state = SPEC.new_state({}, 3, 2)\n"
    "print(hard_bot(RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(8)))\n"
    "if warm:\n"
    "    forget_games()\n"
    "state = lineup_state(['pyre-lord', 'echo-warden', 'mist-warden', 'tide-caller', 'moss-hermit',"
    " 'lantern-knight'], ['ember-adept', 'hollow-sage', 'thornmother', 'brine-witch', 'cinder-duelist',"
    " 'night-whisper'])\n"
    "print(hard_bot(RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(4)))\n"
)


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


def test_hard_decides_the_same_with_tables_built_ahead_and_caches_dropped_between_decisions() -> None:
    decided = []
    for mode in ("cold", "warm"):  # each in a fresh interpreter: a process as it starts, and a warm seat's
        done = subprocess.run([sys.executable, "-c", _DECISIONS, mode], cwd=REPO,
                              env=dict(os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True,
                              timeout=300, check=True)
        decided.append(done.stdout.splitlines())
    assert len(decided[0]) == 2 and decided[0] == decided[1]
