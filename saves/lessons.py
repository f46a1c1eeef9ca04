"""A lesson's game and the learner's progress.

A lesson's game is played like a saved session but kept in memory
(:class:`LessonSession`): it never appears among the sessions, and Continue never
offers it. What is kept is the progress, per account, as a preference: how many
of the lesson's steps are done, whether the lesson was ever finished, and the
learner's own moves where a step took one other than the script's (a WitchDraft
spot of their choosing). Replaying that many steps, with those moves in their
places, rebuilds the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import GameSpec, Seat
from engine.core.undo import Timeline
from saves.errors import StoreError
from saves.preferences import get_preference, set_preference
from saves.records import LogEntry, SeatInfo
from saves.session import LiveSession
from saves.store import SessionStore, utc_now

PROGRESS_KEY = "lessons"
"""The preference holding every lesson's progress: ``{lesson_id: {"step": n, "done": bool, "own": {...}}}``."""

MAX_OWN_KEYS = 8
"""The most fields a stored move may have: more is not a move of any game."""

NOT_STORED = 0
"""The session id of a lesson's game, which is never stored."""


class LessonSession(LiveSession):
    """A lesson's game: a :class:`LiveSession` whose moves are kept in memory only."""

    @classmethod
    def start(cls, store: SessionStore, spec: GameSpec, options: Mapping[str, Any], seed: int,
              seats: Sequence[SeatInfo]) -> LessonSession:
        """A new lesson game (``store`` is the app's, read for nothing but what a screen asks of it)."""
        resolved = spec.resolve_options(options)
        names = [seat.name for seat in seats]
        state = spec.new_state(resolved, seed, len(seats), names)
        return cls(store, NOT_STORED, spec, resolved, seed, seats, Timeline(spec.rules, state, names), [])

    def _commit(self, seat: Seat | None, action: Any, action_json: Mapping[str, Any]) -> list[Any]:
        """Play the action here only: a lesson's moves are never written to the session store."""
        moment = self._timeline.next_moment(seat, action)
        self._log.append(LogEntry(len(self._log) + 1, seat, dict(action_json), utc_now()))
        self._timeline.record(moment)
        return list(moment.events)


@dataclass(frozen=True)
class LessonProgress:
    """How far a learner is in one lesson.

    Attributes:
        step: Steps done (0: not begun).
        done: Whether the learner ever reached its end.
        own: The learner's own moves (as JSON) by step index, where a step took one other than the script's.
            Read back from storage they are only shaped like moves: the replay checks each against the rules.
    """

    step: int = 0
    done: bool = False
    own: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)


def _own_moves(value: object, steps: int) -> dict[int, dict[str, Any]]:
    """The stored own moves, keeping only entries shaped like one (a step index before ``steps``, a small object
    of plain values)."""
    if not isinstance(value, dict):
        return {}
    found: dict[int, dict[str, Any]] = {}
    for key, move in value.items():
        if not isinstance(key, str) or not key.isdigit() or len(key) > 5 or int(key) >= steps:
            continue
        if not isinstance(move, dict) or len(move) > MAX_OWN_KEYS:
            continue
        if all(isinstance(name, str) and len(name) <= 20 and (isinstance(field_value, (int, str))
                                                             and len(str(field_value)) <= 40)
               for name, field_value in move.items()):
            found[int(key)] = dict(move)
    return found


def lesson_progress(store: SessionStore | None, account: str | None) -> dict[str, LessonProgress]:
    """Every lesson's progress for ``account``; anything unreadable in the stored value is left out."""
    stored = get_preference(store, account, PROGRESS_KEY) if store is not None else None
    found: dict[str, LessonProgress] = {}
    if not isinstance(stored, dict):
        return found
    for lesson_id, entry in stored.items():
        if not isinstance(lesson_id, str) or not isinstance(entry, dict):
            continue
        step, done = entry.get("step", 0), entry.get("done", False)
        if isinstance(step, int) and not isinstance(step, bool) and 0 <= step <= 10_000 and isinstance(done, bool):
            found[lesson_id] = LessonProgress(step, done, _own_moves(entry.get("own"), step))
    return found


def save_lesson_progress(store: SessionStore | None, account: str | None, lesson_id: str,
                         progress: LessonProgress) -> bool:
    """Keep ``progress`` for ``lesson_id``; False when it could not be kept (the lesson goes on regardless)."""
    if store is None:
        return False
    every = {key: _stored(value) for key, value in lesson_progress(store, account).items()}
    every[lesson_id] = _stored(progress)
    try:
        set_preference(store, account, PROGRESS_KEY, every)
    except (StoreError, ValueError):
        return False
    return True


def _stored(progress: LessonProgress) -> dict[str, Any]:
    stored: dict[str, Any] = {"step": progress.step, "done": progress.done}
    if progress.own:
        stored["own"] = {str(index): dict(move) for index, move in progress.own.items()}
    return stored


def learner_seats(names: Sequence[str]) -> list[SeatInfo]:
    """The learner in seat 0, the lesson's bot in the others (its moves come from the lesson, not a bot)."""
    return [SeatInfo(names[0]), *(SeatInfo(name, "bot", "lesson") for name in names[1:])]
