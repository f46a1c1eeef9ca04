"""Plain records that :class:`saves.store.SessionStore` reads and writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core.text import text_problem

SessionStatus = Literal["active", "finished"]
SeatKind = Literal["human", "bot"]

STATUSES: tuple[SessionStatus, ...] = ("active", "finished")
SEAT_KINDS: tuple[SeatKind, ...] = ("human", "bot")
MAX_NAME_LENGTH = 64


def check_status(status: str) -> SessionStatus:
    """``status`` as a :data:`SessionStatus`.

    Raises:
        ValueError: it is neither ``"active"`` nor ``"finished"``.
    """
    for known in STATUSES:  # narrows the text to the Literal type
        if status == known:
            return known
    raise ValueError(f"status must be 'active' or 'finished', not {status!r}")


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in one seat.

    Attributes:
        name: Display name, non-blank, at most 64 characters, and safe to show
            (:func:`engine.core.text.text_problem` finds nothing in it).
        kind: ``"human"`` or ``"bot"``.
        bot_level: The bot's level (free text such as ``"easy"``); None for humans.
    """

    name: str
    kind: SeatKind = "human"
    bot_level: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("a seat's name must be non-blank text")
        if len(self.name) > MAX_NAME_LENGTH:
            raise ValueError(f"a seat's name must be at most {MAX_NAME_LENGTH} characters")
        problem = text_problem(self.name)
        if problem is not None:
            raise ValueError(f"a seat's name must not contain {problem}")
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"a seat's kind must be 'human' or 'bot', not {self.kind!r}")
        if self.bot_level is not None and not isinstance(self.bot_level, str):
            raise ValueError("a seat's bot_level must be text or null")
        level_problem = None if self.bot_level is None else text_problem(self.bot_level)
        if level_problem is not None:
            raise ValueError(f"a seat's bot_level must not contain {level_problem}")
        if self.kind == "human" and self.bot_level is not None:
            raise ValueError("a human seat cannot have a bot_level")

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.kind == "bot"

    def to_json(self) -> dict[str, Any]:
        """Return the seat as plain JSON values."""
        return {"name": self.name, "kind": self.kind, "bot_level": self.bot_level}

    @classmethod
    def from_json(cls, data: object) -> SeatInfo:
        """Build a seat from JSON values.

        Raises:
            ValueError: ``data`` is not a valid seat; the message says which field.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a seat must be an object with name, kind and bot_level")
        unknown = sorted(set(data) - {"name", "kind", "bot_level"})
        if unknown:
            raise ValueError(f"a seat has an unknown field {unknown[0]!r}")
        name = data.get("name")
        kind = data.get("kind", "human")
        if not isinstance(name, str):
            raise ValueError("a seat's name must be text")
        if kind not in SEAT_KINDS:
            raise ValueError(f"a seat's kind must be 'human' or 'bot', not {kind!r}")
        level = data.get("bot_level")
        return cls(name=name, kind=kind, bot_level=level)


@dataclass(frozen=True)
class LogEntry:
    """One committed action of a session's log.

    Attributes:
        seq: Position in the log, from 1 (so entry 17 is "action 17").
        seat: The acting seat, or None for an automatic table step.
        action: The action as JSON values.
        created: When it was committed, as a UTC ISO-8601 string.
    """

    seq: int
    seat: int | None
    action: dict[str, Any]
    created: str


@dataclass(frozen=True)
class SessionSummary:
    """One row of the saved-sessions list.

    Attributes:
        session_id: Database id.
        game_id: Registry id of the game, e.g. ``"wizards-cup"``.
        seats: Who sits where, in seat order.
        status: ``"active"`` or ``"finished"``.
        progress: Short phrase from the rules, e.g. "Round 2, duel 3".
        result: Outcome sentence when finished, else None.
        actions: Number of logged actions.
        created: Creation time, UTC ISO-8601.
        updated: Time of the last change, UTC ISO-8601.
    """

    session_id: int
    game_id: str
    seats: tuple[SeatInfo, ...]
    status: SessionStatus
    progress: str
    result: str | None
    actions: int
    created: str
    updated: str

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Names in seat order."""
        return tuple(seat.name for seat in self.seats)


@dataclass(frozen=True)
class SessionRecord:
    """Everything stored about one session, log included.

    Attributes:
        session_id: Database id.
        game_id: Registry id of the game.
        options: Resolved game options as JSON values.
        seed: The game's seed.
        seats: Seat descriptions in seat order.
        status: ``"active"`` or ``"finished"``.
        progress: Short progress phrase.
        result: Outcome sentence when finished, else None.
        created: Creation time, UTC ISO-8601.
        updated: Time of the last change, UTC ISO-8601.
        log: Committed actions in order; ``log[i].seq == i + 1``.
        rules_version: The version of the game's rulings the session began under (1 for sessions begun before
            rulings had versions); it replays under them.
    """

    session_id: int
    game_id: str
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatInfo, ...]
    status: SessionStatus
    progress: str
    result: str | None
    created: str
    updated: str
    log: tuple[LogEntry, ...] = field(default=())
    rules_version: int = 1
