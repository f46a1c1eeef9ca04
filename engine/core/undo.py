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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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
    """

    state: Any
    events: tuple[Event, ...] = ()
    seat: Seat | None = None
    undoes: int | None = None


class Timeline:
    """The moments a log passes through, one per entry, with taken-back actions accounted for.

    Moments are never removed: an undo adds a moment whose state is the one
    before the action it takes back, so ``moments`` lines up with the log
    entry for entry, and :attr:`undone` says which actions were taken back.
    """

    def __init__(self, rules: UndoRules, opening: Any, names: Sequence[str] | None = None) -> None:
        """Start at ``opening``; ``names`` are the seats' names, for the undo events' sentences."""
        self.rules = rules
        self.names = list(names or ())
        self.moments: list[Moment] = [Moment(opening)]
        self._live: list[int] = [0]
        self._undone: set[int] = set()
        self._refusals: dict[Seat | None, tuple[int, str | None]] = {}
        """Each seat's last answer, with the moment count it was given at: a screen asks at every redraw of its
        keys, and a Wizbits answer builds views of both states."""

    @property
    def state(self) -> Any:
        """The state now."""
        return self.moments[self._live[-1]].state

    @property
    def undone(self) -> frozenset[int]:
        """The moments whose actions were taken back."""
        return frozenset(self._undone)

    @property
    def undo_moments(self) -> frozenset[int]:
        """The moments that took a move back."""
        return frozenset(index for index, moment in enumerate(self.moments) if moment.undoes is not None)

    @property
    def last_mover(self) -> Seat | None:
        """The seat whose action is the latest still in force (None: the table's, or none yet)."""
        return self.moments[self._live[-1]].seat if len(self._live) > 1 else None

    def _name(self, seat: Seat) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def undo_refusal(self, seat: Seat | None) -> str | None:
        """Why ``seat`` may not take back a move now, in a few words (they fit a footer), or None when it may."""
        known = self._refusals.get(seat)
        if known is not None and known[0] == len(self.moments):  # moments are only ever added
            return known[1]
        refusal = self._undo_refusal(seat)
        self._refusals[seat] = (len(self.moments), refusal)
        return refusal

    def _undo_refusal(self, seat: Seat | None) -> str | None:
        rules, state = self.rules, self.state
        if seat is TABLE:
            return "the table's steps stay"
        if rules.result(state) is not None:
            return "the game is over"
        if len(self._live) < 2:
            return "nothing to take back"
        last = self.moments[self._live[-1]]
        if last.seat != seat:
            if last.seat is TABLE:
                return "the table has played since"
            if not any(self.moments[index].seat == seat for index in self._live[1:]):
                return "nothing of yours to take back"
            return f"{self._name(last.seat)} has moved since"
        before = self.moments[self._live[-2]].state
        acting_before, acting_after = set(rules.to_act(before)), set(rules.to_act(last.state))
        if rules.choices_are_secret(before) and acting_before == {seat}:
            return "all secret choices are shown"
        if acting_after - acting_before:
            return "the turn has moved on"
        return rules.undo_barrier(before, last.state, seat, list(last.events))

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
            return Moment(self.moments[self._live[-2]].state, (event,), seat, taken)
        state, events = self.rules.apply(self.state, seat, action)
        return Moment(state, tuple(events), seat)

    def record(self, moment: Moment) -> None:
        """Add ``moment`` (from :meth:`next_moment` on this timeline as it is now)."""
        self.moments.append(moment)
        if moment.undoes is None:
            self._live.append(len(self.moments) - 1)
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
