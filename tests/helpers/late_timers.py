"""A loop that is late for every one-shot Textual timer, as a descheduled process on a busy machine is.

Textual's ``Timer`` reads its clock when its task starts and again before it sleeps; when more than the
delay passed between the two it skips that firing, and a one-shot timer then ends without calling back.
On a quiet machine the two readings are microseconds apart, so the drop is rare and comes only under
load. :func:`late_one_shot_timers` makes it certain: the clock that Textual's timers read jumps a second
at each reading made by a one-shot timer. Repeating timers read the same moved clock, so they skip the
ticks it jumped over and go on; they cannot spin, as no reading comes between two of theirs unawaited.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest
from textual import _time, timer

JUMP = 1.0
"""Seconds the clock moves on at each reading by a one-shot timer: longer than any of Coven's short waits."""


def late_one_shot_timers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make every one-shot Textual timer started from now on late for its firing; returns the jumps so far.

    The list holds one entry per jump, so a test can check that a Textual timer did read the late clock.
    """
    jumps: list[int] = []

    def get_time() -> float:
        caller = sys._getframe(1).f_locals.get("self")
        if isinstance(caller, timer.Timer) and caller._repeat == 0:
            jumps.append(1)
        return _time.get_time() + JUMP * len(jumps)

    monkeypatch.setattr(timer, "_time", SimpleNamespace(get_time=get_time, sleep=_time.sleep))
    return jumps
