"""The duels shipped resolved ahead are exactly what resolving them now gives, and are taken only when they fit."""

from __future__ import annotations

import base64
import zlib

import numpy as np

from engine.wizards_cup import duel_results, round_matrix
from engine.wizards_cup.round_matrix import DUEL_CAP, _Contexts, number_spots, resolved_afresh


def shipped() -> bytes:
    return zlib.decompress(base64.b64decode("".join(duel_results.RESULTS)))


def test_the_shipped_duels_are_every_duel_resolved_now() -> None:
    # Fails after any change to the wizards or to how a duel resolves: `make duel-results` writes them anew.
    digest, results = resolved_afresh()
    assert duel_results.CONTEXTS_DIGEST == digest, "the contexts changed: run `make duel-results`"
    assert duel_results.DUEL_CAP == DUEL_CAP
    assert shipped() == results, "a duel resolves otherwise now: run `make duel-results`"


def test_the_process_tables_start_from_the_shipped_duels() -> None:
    round_matrix._all_spots()
    known = len(round_matrix._CONTEXTS.sides)
    table = round_matrix._CONTEXTS.duels[:known, :known]
    assert np.array_equal(table, np.frombuffer(shipped(), dtype=np.int8).reshape(table.shape))


def fresh_contexts() -> _Contexts:
    contexts = _Contexts()
    number_spots(contexts)
    return contexts


def test_duels_resolved_for_other_contexts_or_damaged_are_not_taken() -> None:
    contexts = fresh_contexts()
    known = len(contexts.sides)
    untouched = contexts.duels.copy()
    good = shipped()
    assert not contexts.take_resolved("0" * 64, DUEL_CAP, good)  # other wizards
    assert not contexts.take_resolved(contexts.digest(), DUEL_CAP + 1, good)
    assert not contexts.take_resolved(contexts.digest(), DUEL_CAP, good[:-1])  # cut short
    damaged = bytearray(good)
    damaged[len(damaged) // 2] = 7  # no outcome has this number
    assert not contexts.take_resolved(contexts.digest(), DUEL_CAP, bytes(damaged))
    assert np.array_equal(contexts.duels, untouched)
    assert (contexts.duels[:known, :known] < 0).all()  # still to be resolved as games meet them
    assert contexts.take_resolved(contexts.digest(), DUEL_CAP, good)
    assert (contexts.duels[:known, :known] >= 0).all()
