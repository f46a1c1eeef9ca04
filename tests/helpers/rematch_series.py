"""Shared by test_rematch_series.py and other test modules, which import them from here.

finish, moved here from tests/saves/test_rematch_series.py.
"""

from __future__ import annotations

import random

from saves import LiveSession


def finish(live: LiveSession, seed: int = 0) -> LiveSession:
    """Play ``live`` to its end with random legal moves."""
    rng = random.Random(seed)
    while not live.finished:
        if live.table_action is not None and not live.to_act:
            live.play_table()
            continue
        seat = live.to_act[0]
        live.apply(seat, rng.choice(live.rules.legal_actions(live.state, seat)))
    return live
