"""A live session: a game's current state kept in step with its stored log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from engine import Event, GameRules, GameSpec, Result, Seat, get_game, state_digest
from engine.core import ActionError, InvalidOptionsError, UnknownGameError
from engine.core.undo import History, Timeline, replay_timeline, undo_entry
from saves.errors import SessionLoadError, StoreError
from saves.records import LogEntry, SeatInfo, SessionStatus
from saves.save_failures import SaveFailedError, passing_reason
from saves.store import SessionStore


class Step(NamedTuple):
    """One point of a session's history: the state after a logged action and that action's events."""

    state: Any
    """The state after the action (the opening state for step 0). Treat it as read-only."""
    events: tuple[Event, ...]
    """The events the action produced (none for step 0)."""


def describe_result(result: Result, seats: Sequence[SeatInfo]) -> str:
    """A sentence for the sessions list, e.g. "Alice won. Reached 10 first."."""
    names = [seats[seat].name if 0 <= seat < len(seats) else f"Seat {seat + 1}" for seat in result.winners]
    if not names:
        head = "Draw."
    elif len(names) == 1:
        head = f"{names[0]} won."
    else:
        head = f"{', '.join(names[:-1])} and {names[-1]} won."
    return f"{head} {result.reason}".strip()


def status_of(rules: GameRules[Any, Any, Any], state: Any, seats: Sequence[SeatInfo]) -> tuple[SessionStatus, str, str | None]:
    """The ``(status, progress, result_text)`` to store for ``state``."""
    result = rules.result(state)
    progress = rules.progress(state)
    if result is None:
        return "active", progress, None
    return "finished", progress, describe_result(result, seats)


def winners_of(rules: GameRules[Any, Any, Any], state: Any) -> list[int] | None:
    """The seats that won the game ``state`` ends ([] for a draw), or None while it runs."""
    result = rules.result(state)
    return None if result is None else list(result.winners)


def check_bot_levels(spec: GameSpec, seats: Sequence[SeatInfo]) -> None:
    """Check that every bot seat plays one of ``spec``'s bot levels.

    Raises:
        InvalidOptionsError: a bot seat has an unknown level, or none; the
            message names the seat, e.g. "seat 2 (Merlin) has unknown bot
            level 'godlike'; Wizards Cup has easy, normal".
    """
    levels = spec.bot_levels
    offered = f"{spec.title} has {', '.join(levels)}" if levels else f"{spec.title} has no bots"
    for number, seat in enumerate(seats, start=1):
        if not seat.is_bot or seat.bot_level in levels:
            continue
        if seat.bot_level is None:
            raise InvalidOptionsError(f"seat {number} ({seat.name}) is a bot with no level; {offered}")
        raise InvalidOptionsError(f"seat {number} ({seat.name}) has unknown bot level {seat.bot_level!r}; {offered}")


class LiveSession:
    """One game being played (or replayed), backed by a :class:`SessionStore`.

    Create with :meth:`create` or :meth:`load`, never directly. Each
    :meth:`apply` is committed to the database before the in-memory state
    changes, so what the screen shows has always been saved.
    """

    def __init__(
        self,
        store: SessionStore,
        session_id: int,
        spec: GameSpec,
        options: Mapping[str, Any],
        seed: int,
        seats: Sequence[SeatInfo],
        timeline: Timeline,
        log: Sequence[LogEntry],
        claim: str | None = None,
        rules_version: int = 1,
    ) -> None:
        self.store = store
        self.session_id = session_id
        self._spec = spec
        self.options: dict[str, Any] = dict(options)
        self.seed = seed
        self._seats = tuple(seats)
        self._log = list(log)
        self._timeline = timeline
        self.claim = claim
        """This connection's presence claim, checked by the store for a table's session."""
        self.rules_version = rules_version
        """The version of the game's rulings this session is played under (see :attr:`GameRules.rules_version`)."""

    @classmethod
    def create(
        cls,
        store: SessionStore,
        game_id: str,
        options: Mapping[str, Any] | None,
        seed: int,
        seats: Sequence[SeatInfo],
        claim: str | None = None,
        owner: str | None = None,
        series: int | None = None,
    ) -> LiveSession:
        """Start and store a new session.

        ``claim`` is the presence claim sent with every action (see :meth:`apply`);
        ``owner`` is the ``coven serve`` account that starts it (None at this machine);
        ``series`` the first session of the series a rematch continues (see :mod:`saves.series`).

        Raises:
            UnknownGameError: no game has ``game_id``.
            InvalidOptionsError: bad options, seat count or bot level.
        """
        spec = get_game(game_id)
        resolved = spec.resolve_options(options)
        state = spec.new_state(resolved, seed, len(seats), [seat.name for seat in seats])
        check_bot_levels(spec, seats)
        status, progress, result_text = status_of(spec.rules, state, seats)
        session_id = store.create_session(
            game_id, resolved, seed, seats, status=status, progress=progress, result_text=result_text, owner=owner,
            rules_version=spec.rules.rules_version, series=series,
        )
        timeline = Timeline(spec.rules, state, [seat.name for seat in seats])
        return cls(store, session_id, spec, resolved, seed, seats, timeline, [], claim,
                   spec.rules.rules_version)

    @classmethod
    def load(cls, store: SessionStore, session_id: int, claim: str | None = None) -> LiveSession:
        """Rebuild a stored session by replaying its log.

        ``claim`` is this connection's presence claim when the session is a table's.

        Raises:
            SessionNotFoundError: no such session.
            SessionLoadError: its game is unknown or its log no longer replays.
        """
        record = store.load(session_id)
        try:
            spec = get_game(record.game_id)
            options = spec.resolve_options(record.options)
            if len(record.seats) not in spec.seat_counts:
                raise ValueError(f"{spec.title} cannot be played with {len(record.seats)} seats")
            names = [seat.name for seat in record.seats]
            timeline = _replay(spec, options, record.seed, names, record.log, record.rules_version)
        except UnknownGameError:
            raise SessionLoadError(
                f"Session {session_id} is a game of {record.game_id!r}, which this Coven does not know."
            ) from None
        except ValueError as error:  # ReplayError, InvalidOptionsError and UnknownRulesVersionError included
            raise SessionLoadError(f"Session {session_id} cannot be resumed: {error}") from None
        status, progress, result_text = status_of(spec.rules, timeline.state, record.seats)
        # A crash between older writes could leave the list row stale; the log is the truth. A store that
        # only reads (its folder cannot be written) keeps the stale row: the game still opens to be looked at.
        if (status, progress, result_text) != (record.status, record.progress, record.result) and not store.read_only:
            store.update_status(session_id, status, progress, result_text, winners_of(spec.rules, timeline.state))
        return cls(store, session_id, spec, options, record.seed, record.seats, timeline, record.log, claim,
                   record.rules_version)

    # -- read-only views ------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        """The game's registry entry."""
        return self._spec

    @property
    def rules(self) -> GameRules[Any, Any, Any]:
        """The game's rules."""
        return self._spec.rules

    @property
    def state(self) -> Any:
        """The current state. Treat it as read-only."""
        return self._timeline.state

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Seat descriptions in seat order."""
        return self._seats

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every committed action, in order."""
        return tuple(self._log)

    @property
    def result(self) -> Result | None:
        """The game's result, or None while it runs."""
        return self.rules.result(self.state)

    @property
    def finished(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """Seats that must act now."""
        return self.rules.to_act(self.state)

    @property
    def table_action(self) -> Any:
        """The automatic step waiting for the table, or None."""
        return self.rules.table_action(self.state)

    @property
    def progress(self) -> str:
        """The rules' progress phrase for the current state."""
        return self.rules.progress(self.state)

    @property
    def digest(self) -> str:
        """SHA-256 of the current state, equal for equal states."""
        return state_digest(self.rules, self.state)

    # -- playing ----------------------------------------------------------------

    def apply(self, seat: Seat | None, action: Any) -> list[Event]:
        """Play ``seat``'s action (None for the table), save it, then update.

        ``action`` is the game's action value, as its table, bot or rules give it; its JSON
        form is written here, once, and read back only where the log is (:meth:`load`, :meth:`sync`).

        Raises:
            MalformedActionError, IllegalActionError: rejected; nothing is stored.
            LogConflictError: another process saved this position first;
                nothing changed here; :meth:`sync`, then decide again.
            SeatClaimError: a table's seat this connection does not hold; nothing is stored.
            SaveFailedError: not saved for a reason that may pass (disk full, read-only,
                locked); nothing changed here, so the same action may be tried again.
        """
        if isinstance(action, Mapping):  # JSON is read where it comes in (the log, a file), never here
            raise TypeError("LiveSession.apply takes the game's action, not its JSON form")
        return self._commit(seat, action, self.rules.action_to_json(action))

    def undo_refusal(self, seat: Seat | None) -> str | None:
        """Why ``seat`` may not take back a move now, in words, or None when it may (see :mod:`engine.core.undo`)."""
        return self._timeline.undo_refusal(seat)

    @property
    def last_mover(self) -> Seat | None:
        """The seat whose action is the latest still in force (None: the table's, or none yet)."""
        return self._timeline.last_mover

    def undo(self, seat: Seat) -> list[Event]:
        """Take back ``seat``'s most recent action: save an undo entry, then return to the state before it.

        Raises:
            IllegalActionError: taking back is not allowed now; ``reason`` says why. Nothing is stored.
            LogConflictError, SeatClaimError, SaveFailedError: as for :meth:`apply`.
        """
        entry = undo_entry()
        return self._commit(seat, entry, entry)

    def _commit(self, seat: Seat | None, action: Any, action_json: Mapping[str, Any]) -> list[Event]:
        moment = self._timeline.next_moment(seat, action)
        status, progress, result_text = status_of(self.rules, moment.state, self._seats)
        try:
            entry = self.store.append_action(
                self.session_id,
                len(self._log) + 1,
                seat,
                action_json,
                status=status,
                progress=progress,
                result_text=result_text,
                claim=self.claim,
                winners=winners_of(self.rules, moment.state),
            )
        except StoreError as error:
            reason = passing_reason(error)
            if reason is None:
                raise
            raise SaveFailedError(reason) from error
        # Only now that the entry is committed does the game move on.
        self._log.append(entry)
        self._timeline.record(moment)
        return list(moment.events)

    def sync(self) -> list[list[Event]]:
        """Catch up with actions other processes stored after this one's log, and reload the seats.

        Returns:
            The events of each new log entry, in log order ([] when nothing is new).

        Raises:
            SessionLoadError: a new entry does not apply (the log was tampered with).
        """
        self._seats = self.store.seats_of(self.session_id) or self._seats
        new_events: list[list[Event]] = []
        for entry in self.store.actions_after(self.session_id, len(self._log)):
            if entry.seq != len(self._log) + 1:
                raise SessionLoadError(f"Session {self.session_id} has a gap in its action log at {entry.seq}.")
            try:
                moment = self._timeline.next_moment(entry.seat, entry.action)
            except ActionError as error:
                raise SessionLoadError(
                    f"Session {self.session_id} cannot continue: action {entry.seq} is illegal: {error}"
                ) from None
            self._log.append(entry)
            self._timeline.record(moment)
            new_events.append(list(moment.events))
        return new_events

    def play_table(self) -> list[Event]:
        """Play the waiting automatic step, or return [] when there is none."""
        pending = self.table_action
        if pending is None:
            return []
        return self.apply(None, pending)

    # -- replaying ----------------------------------------------------------------

    def history(self) -> Sequence[Step]:
        """Every step so far: the opening (step 0), then one per logged action.

        The result is a snapshot; later actions do not lengthen it. A step's
        state the timeline did not keep is worked out again when read (reading
        in order costs one action a step; see :data:`~engine.core.undo.KEEP_EVERY`).
        """
        timeline = self._timeline
        return History(len(timeline), lambda index: Step(timeline.state_at(index), timeline.events_at(index)))

    def states(self) -> Sequence[Any]:
        """The state after each step of :meth:`history`, each worked out only when read."""
        timeline = self._timeline
        return History(len(timeline), timeline.state_at)

    def events_history(self) -> list[tuple[Event, ...]]:
        """The events of each step of :meth:`history`, without working any state out."""
        timeline = self._timeline
        return [timeline.events_at(index) for index in range(len(timeline))]

    def to_act_history(self) -> list[tuple[Seat, ...]]:
        """The seats to act after each step of :meth:`history`, without working any state out."""
        timeline = self._timeline
        return [timeline.to_act_at(index) for index in range(len(timeline))]

    @property
    def undone(self) -> frozenset[int]:
        """The history steps whose actions were taken back (a replay may strike them through)."""
        return self._timeline.undone

    @property
    def undo_steps(self) -> frozenset[int]:
        """The history steps that took a move back."""
        return self._timeline.undo_moments


def _replay(spec: GameSpec, options: Mapping[str, Any], seed: int, names: Sequence[str],
            log: Sequence[LogEntry], rules_version: int) -> Timeline:
    """Every moment of ``log`` from the opening state, under rules version ``rules_version``, in one pass.

    Raises:
        ReplayError: an entry is malformed or illegal; its index is given.
        UnknownRulesVersionError: this Coven cannot play ``rules_version``.
    """
    state = spec.new_state(options, seed, len(names), names, rules_version)
    return replay_timeline(spec.rules, state, [(entry.seat, entry.action) for entry in log], names)
