"""Taking back a move: one rule for every game, kept in the log as an entry of its own.

A seat may take back its own most recent action, then the one before it, and
so on, but never across another seat's action (or the table's), never once the
turn has moved on to another seat, never across the last of a round of secret
choices (it shows them all), and never across what a game calls a barrier: a
reveal of hidden information or chance (a shuffle, a draw, a roll), see
:meth:`GameRules.undo_barrier`.

The log stays append-only. Taking back is an entry ``{"type": "undo"}`` by the
seat; replaying the log passes through the taken-back action and then returns
to the state before it, so the state after an undo is exactly the state before
the undone action, and a replay can still show what was taken back.
:class:`Timeline` is that replay, shared by the live session, imports, the
doctor and :meth:`GameRules.replay`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, overload

from engine.core.errors import IllegalActionError, MalformedActionError, ReplayError
from engine.core.terms import TABLE, Event, JsonDict, Seat


class UndoRules(Protocol):
    """What the undo rule reads of a game's rules: every :class:`~engine.core.contract.GameRules` is one.

    Named here, not imported, because the contract replays through this module.
    """

    def to_act(self, state: Any) -> tuple[Seat, ...]:
        """Seats that must act now."""
        ...

    def result(self, state: Any) -> object | None:
        """None while the game runs."""
        ...

    def choices_are_secret(self, state: Any) -> bool:
        """Whether the seats now to act choose in secret."""
        ...

    def undo_barrier(self, before: Any, after: Any, seat: Seat, events: list[Event]) -> str | None:
        """Why the action from ``before`` to ``after`` may not be taken back, or None."""
        ...

    def apply(self, state: Any, seat: Seat | None, action: Any) -> tuple[Any, list[Event]]:
        """The new state and events of ``seat``'s action; ``state`` is left as it was."""
        ...


T = TypeVar("T")

_UNKNOWN: Any = object()
"""A state a timeline has not kept (no state is this object)."""

UNDO_TYPE = "undo"
"""The ``type`` of a log entry that takes back the seat's most recent action."""


def undo_entry() -> JsonDict:
    """The log entry's action for taking back a move."""
    return {"type": UNDO_TYPE}


def is_undo(data: object) -> bool:
    """True when ``data`` is an undo entry's action (exactly ``{"type": "undo"}``)."""
    return isinstance(data, Mapping) and len(data) == 1 and data.get("type") == UNDO_TYPE


@dataclass(frozen=True)
class Moment:
    """One point of a timeline: the state after a log entry, with the entry's events and who made it.

    Attributes:
        state: The state after the entry (the opening state for moment 0). Treat it as read-only.
        events: What the entry set off (none for moment 0).
        seat: Who made the entry (None for the table, and for moment 0).
        undoes: For an undo entry, the moment it took back; None otherwise.
        action: The action the entry applied, as it was given (an action or its JSON); None for an undo entry
            and for moment 0.
    """

    state: Any
    events: tuple[Event, ...] = ()
    seat: Seat | None = None
    undoes: int | None = None
    action: Any = None


KEEP_EVERY = 16
"""A timeline keeps the state of a moment once this many actions separate it from the last state it kept.

The others are worked out again when asked for, from the nearest kept state before them: at most this many
actions apart, a few milliseconds even for Wizbits. A Wizbits state costs about 5 KB more than the one before it,
so a timeline that kept every state of a 1,000-move game would hold 5 MB, and a seat's memory would keep that
high-water mark for good; it keeps a sixteenth of that."""
RECENT = 8
"""How many worked-out states a timeline remembers besides the kept ones, latest first: enough for stepping a
replay back and forth, and for taking back several moves in a row."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """What a timeline remembers of a moment when it does not keep its state."""

    events: tuple[Event, ...]
    seat: Seat | None
    undoes: int | None
    action: Any
    source: int
    """The moment whose state this one's action applied to (an undo's state is its source's); -1 for moment 0."""
    to_act: tuple[Seat, ...]
    """The seats to act after this moment."""
    distance: int
    """Actions to apply from the nearest kept state to work this moment's state out (0: kept)."""


class History(Sequence[T]):
    """The first ``length`` items of something that works each one out when asked: a timeline's moments, or a
    session's steps. Reading it in order works each state out from the one before it.

    A state read twice may come back as two equal objects, not the same one: compare states, never their identity.
    """

    def __init__(self, length: int, item: Callable[[int], T]) -> None:
        """The items ``item(0)`` to ``item(length - 1)``."""
        self._length = length
        self._item = item

    def __len__(self) -> int:
        """How many items there are."""
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> History[T]: ...

    def __getitem__(self, index: int | slice) -> T | History[T]:
        """One item (negative counts from the end), or a slice's, worked out as they are read."""
        if isinstance(index, slice):
            chosen = range(*index.indices(self._length))
            item = self._item
            return History(len(chosen), lambda at: item(chosen[at]))
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._item(index)


class Timeline:
    """The moments a log passes through, one per entry, with taken-back actions accounted for.

    Moments are never removed: an undo adds a moment whose state is the one
    before the action it takes back, so ``moments`` lines up with the log
    entry for entry, and :attr:`undone` says which actions were taken back.
    Only some states are kept (see :data:`KEEP_EVERY`); the rest are worked out
    again by the rules, which apply an action to a state the same way every time.
    """

    def __init__(self, rules: UndoRules, opening: Any, names: Sequence[str] | None = None) -> None:
        """Start at ``opening``; ``names`` are the seats' names, for the undo events' sentences."""
        self.rules = rules
        self.names = list(names or ())
        self._entries: list[_Entry] = [_Entry((), None, None, None, -1, tuple(rules.to_act(opening)), 0)]
        self._kept: dict[int, Any] = {0: opening}
        self._recent: dict[int, Any] = {}
        """Worked-out states by moment, oldest first, at most :data:`RECENT`."""
        self._lock = threading.RLock()  # a thread may read a state while another reads or records one
        self._now: Any = opening
        self._live: list[int] = [0]
        self._undone: set[int] = set()
        self._refusals: dict[Seat | None, tuple[int, str | None]] = {}
        """Each seat's last answer, with the moment count it was given at: a screen asks at every redraw of its
        keys, and a Wizbits answer builds views of both states."""

    def __len__(self) -> int:
        """How many moments there are: the opening, then one per log entry."""
        return len(self._entries)

    @property
    def state(self) -> Any:
        """The state now."""
        return self._now

    @property
    def moments(self) -> History[Moment]:
        """Every moment so far, the opening first; later entries do not lengthen it."""
        return History(len(self._entries), self.moment)

    def moment(self, index: int) -> Moment:
        """Moment ``index`` (0: the opening), its state worked out again when it was not kept.

        Raises:
            IndexError: there is no such moment.
        """
        entry = self._entries[index] if index >= 0 else self._entries[len(self._entries) + index]
        return Moment(self.state_at(index), entry.events, entry.seat, entry.undoes, entry.action)

    def events_at(self, index: int) -> tuple[Event, ...]:
        """What moment ``index``'s entry set off."""
        return self._entries[index].events

    def to_act_at(self, index: int) -> tuple[Seat, ...]:
        """The seats to act after moment ``index``."""
        return self._entries[index].to_act

    def state_at(self, index: int) -> Any:
        """The state after moment ``index`` (0: the opening), worked out again when it was not kept.

        Raises:
            IndexError: there is no such moment.
        """
        if index < 0:
            index += len(self._entries)
        if not 0 <= index < len(self._entries):
            raise IndexError("moment index out of range")
        with self._lock:
            path: list[int] = []
            at = index
            while (state := self._kept.get(at, _UNKNOWN)) is _UNKNOWN \
                    and (state := self._recent.get(at, _UNKNOWN)) is _UNKNOWN:
                path.append(at)
                at = self._entries[at].source
            for at in reversed(path):
                entry = self._entries[at]
                if entry.undoes is None:
                    state, _ = self.rules.apply(state, entry.seat, entry.action)
                self._remember(at, state)
            return state

    def _remember(self, index: int, state: Any) -> None:
        recent = self._recent
        recent.pop(index, None)
        recent[index] = state
        while len(recent) > RECENT:
            del recent[next(iter(recent))]

    @property
    def undone(self) -> frozenset[int]:
        """The moments whose actions were taken back."""
        return frozenset(self._undone)

    @property
    def undo_moments(self) -> frozenset[int]:
        """The moments that took a move back."""
        return frozenset(index for index, entry in enumerate(self._entries) if entry.undoes is not None)

    @property
    def last_mover(self) -> Seat | None:
        """The seat whose action is the latest still in force (None: the table's, or none yet)."""
        return self._entries[self._live[-1]].seat if len(self._live) > 1 else None

    def _name(self, seat: Seat) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def undo_refusal(self, seat: Seat | None) -> str | None:
        """Why ``seat`` may not take back a move now, in a few words (they fit a footer), or None when it may."""
        known = self._refusals.get(seat)
        if known is not None and known[0] == len(self._entries):  # moments are only ever added
            return known[1]
        refusal = self._undo_refusal(seat)
        self._refusals[seat] = (len(self._entries), refusal)
        return refusal

    def _undo_refusal(self, seat: Seat | None) -> str | None:
        rules, state = self.rules, self.state
        if seat is TABLE:
            return "the table's steps stay"
        if rules.result(state) is not None:
            return "the game is over"
        if len(self._live) < 2:
            return "nothing to take back"
        last = self._entries[self._live[-1]]
        if last.seat != seat:
            if last.seat is TABLE:
                return "the table has played since"
            if not any(self._entries[index].seat == seat for index in self._live[1:]):
                return "nothing of yours to take back"
            return f"{self._name(last.seat)} has moved since"
        before_index = self._live[-2]
        acting_before, acting_after = set(self._entries[before_index].to_act), set(last.to_act)
        before = self.state_at(before_index)
        if rules.choices_are_secret(before) and acting_before == {seat}:
            return "all secret choices are shown"
        if acting_after - acting_before:
            return "the turn has moved on"
        return rules.undo_barrier(before, state, seat, list(last.events))

    def next_moment(self, seat: Seat | None, action: Any) -> Moment:
        """The moment ``seat``'s action (or JSON, or an undo entry) leads to, without recording it.

        Raises:
            MalformedActionError: the action's JSON is malformed.
            IllegalActionError: the action, or taking back, is not allowed now; ``reason`` says why.
        """
        if is_undo(action):
            reason = self.undo_refusal(seat)
            if reason is not None:
                raise IllegalActionError(f"cannot take back a move: {reason}")
            assert seat is not None
            taken = self._live[-1]
            event = Event("undo", f"{self._name(seat)} took back a move.", {"seat": seat, "step": taken})
            return Moment(self.state_at(self._live[-2]), (event,), seat, taken)
        state, events = self.rules.apply(self.state, seat, action)
        return Moment(state, tuple(events), seat, None, action)

    def record(self, moment: Moment) -> None:
        """Add ``moment`` (from :meth:`next_moment` on this timeline as it is now)."""
        index = len(self._entries)
        if moment.undoes is None:
            source = self._live[-1]
            distance = self._entries[source].distance + 1
        else:
            source = self._live[-2]
            distance = self._entries[source].distance
        if distance >= KEEP_EVERY:
            distance = 0
        self._entries.append(_Entry(moment.events, moment.seat, moment.undoes, moment.action, source,
                                    tuple(self.rules.to_act(moment.state)), distance))
        with self._lock:
            if distance == 0:
                self._kept[index] = moment.state
            else:
                self._remember(index, moment.state)
        self._now = moment.state
        if moment.undoes is None:
            self._live.append(index)
        else:
            self._undone.add(self._live.pop())

    def play(self, seat: Seat | None, action: Any) -> Moment:
        """:meth:`next_moment`, then :meth:`record` it; returns the new moment."""
        moment = self.next_moment(seat, action)
        self.record(moment)
        return moment


def replay_timeline(rules: UndoRules, opening: Any,
                    log: Sequence[tuple[Seat | None, Mapping[str, Any]]],
                    names: Sequence[str] | None = None) -> Timeline:
    """The timeline of ``log`` from ``opening``.

    Raises:
        ReplayError: an entry is malformed or not allowed; its 1-based index is given.
    """
    timeline = Timeline(rules, opening, names)
    for index, (seat, data) in enumerate(log, start=1):
        try:
            timeline.play(seat, data)
        except (MalformedActionError, IllegalActionError) as error:
            raise ReplayError(index, error.reason) from error
    return timeline
