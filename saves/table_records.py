"""Plain records and errors of shared tables; :mod:`saves.tables` reads and writes them.

They live apart from :class:`saves.tables.TableStore` so that
:mod:`saves.store` can raise :class:`SeatClaimError` without an import cycle.
Join codes and seat indexes: seats count from 0, as in sessions; messages
number them from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from saves.clock_record import StoredClock
from saves.errors import StoreError

JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
"""Letters of join codes and seat tokens: no I, L or O, which read as 1 and 0."""

JOIN_CODE_LENGTH = 4

RECLAIM_WINDOW_SECONDS = 600.0
"""How long a dropped player's seat is kept for them before the host may give it to a bot."""

PACE_DAYS = (1, 3, 7)
"""The times per move a host may give a turn-based table, in days (0 stands for a live table)."""

TableStatus = Literal["lobby", "playing", "closed"]
SeatRole = Literal["remote", "local", "bot"]

SEAT_ROLES: tuple[SeatRole, ...] = ("remote", "local", "bot")


def normalise_code(text: str) -> str | None:
    """The join code in ``text`` (spaces dropped, upper case), or None if it is not one."""
    code = text.strip().upper() if isinstance(text, str) else ""
    if len(code) != JOIN_CODE_LENGTH or any(char not in JOIN_CODE_ALPHABET for char in code):
        return None
    return code


def parse_time(text: str) -> datetime:
    """Read a UTC ISO-8601 time as stored in the table rows."""
    return as_utc(datetime.fromisoformat(text))


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a time without a zone is taken to be UTC already."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class TableError(StoreError):
    """A table action was refused; the message says why in one line."""


class TableNotFoundError(TableError, LookupError):
    """No live table has the code."""

    def __init__(self, code: str) -> None:
        super().__init__(f"No open table has the code {code}.")
        self.code = code


class SeatTakenError(TableError):
    """The seat was taken (or is being kept for its player) before this request."""


class BadTokenError(TableError):
    """The token matches no seat (or the host) at the table."""


class StillConnectedError(TableError):
    """The seat's (or the host's) holder is still connected, so its token cannot take it yet."""


class ReclaimLimitError(TableError):
    """This connection tried too many wrong seat tokens; it may not try more."""


class SeatClaimError(TableError):
    """An action was offered for a seat this connection does not hold; nothing was stored."""


@dataclass(frozen=True)
class SeatPlan:
    """What the host chose for one seat.

    Attributes:
        role: ``"remote"`` (a player joining by code), ``"local"`` (played in the
            host's own terminal) or ``"bot"``.
        name: Local and bot seats: the name. Remote seats: a placeholder such as
            "Seat 2" until someone sits.
        bot_level: The bot's level for bot seats, else None.
    """

    role: SeatRole
    name: str
    bot_level: str | None = None


@dataclass(frozen=True)
class TableSeat:
    """One seat of a table as stored now.

    Attributes:
        seat: Index from 0, as in the session (messages number seats from 1).
        role: ``"remote"``, ``"local"`` or ``"bot"`` (a remote seat handed to a bot becomes one).
        name: Who sits there (a placeholder while a remote seat is open).
        bot_level: The bot's level, else None.
        claim: The presence claim holding it now; None when nobody is connected.
        dropped_at: UTC ISO time its holder left or was found gone; None while held or never held.
        has_token: Someone sat here before, so a token exists.
        left: Its player left by choice (Escape, Leave) rather than dropping; False while held.
        account: The signed-in account that sat here (None: a visit, a bot from the start, or never taken).
        timed_out_at: UTC ISO time its time per move ran out at a turn-based table and a bot took it; else None.
        clock_from: UTC ISO time its player took it back from the bot: its clock counts from then at the earliest.
    """

    seat: int
    role: SeatRole
    name: str
    bot_level: str | None
    claim: str | None
    dropped_at: str | None
    has_token: bool
    left: bool = False
    account: str | None = None
    timed_out_at: str | None = None
    clock_from: str | None = None

    @property
    def is_open(self) -> bool:
        """A remote seat nobody has ever taken, so anyone may take it."""
        return self.role == "remote" and self.claim is None and not self.has_token and self.account is None

    def reserved(self, now: datetime) -> bool:
        """A remote seat whose player dropped less than the reclaim window before ``now``.

        ``now`` should be aware; a naive time is taken as UTC.
        """
        if self.role != "remote" or self.claim is not None or not self.has_token or self.dropped_at is None:
            return False
        return as_utc(now) - parse_time(self.dropped_at) < timedelta(seconds=RECLAIM_WINDOW_SECONDS)


@dataclass(frozen=True)
class TableWatcher:
    """Someone watching a table without a seat.

    Attributes:
        name: The name they go by.
        claim: Their connection's presence claim.
        since: UTC ISO time they started watching.
    """

    name: str
    claim: str
    since: str


@dataclass(frozen=True)
class TableInfo:
    """A table as stored now.

    Attributes:
        table_id: Database id.
        code: The four-letter join code.
        game_id: Registry id of the game.
        options: Resolved game options.
        seed: The game's seed.
        status: ``"lobby"`` (waiting), ``"playing"`` or ``"closed"``.
        host_claim: The host's presence claim; None while the host is gone.
        host_name: The host's name.
        session_id: The game's session once started, else None.
        allow_spectators: Whether a join with no free seat may watch.
        seats: Every seat, in seat order.
        created: Creation time, UTC ISO-8601.
        watchers: Who watches without a seat, longest watching first.
        spectator_chat: Whether the host lets spectators talk at the table.
        coach: Whether the host lets the seated players ask a game's coach during play.
        listed: Whether the table is on the open-table list (else reachable by its code only).
        rated: Whether the host marked the table rated: a game there between signed-in players moves their
            ratings (:mod:`saves.ratings`).
        pace_days: 0 at a live table; at a turn-based one, the days each seat has for each move.
        timeout_bot: At a turn-based table or one with a clock, the bot level the host chose to take a seat whose
            time runs out (None: the game's usual level).
        clock: The table's Fischer clock (:mod:`saves.clock_record`), or None for a table without one.
    """

    table_id: int
    code: str
    game_id: str
    options: dict[str, Any]
    seed: int
    status: TableStatus
    host_claim: str | None
    host_name: str
    session_id: int | None
    allow_spectators: bool
    seats: tuple[TableSeat, ...]
    created: str
    watchers: tuple[TableWatcher, ...] = ()
    spectator_chat: bool = True
    coach: bool = False
    listed: bool = False
    rated: bool = False
    pace_days: int = 0
    timeout_bot: str | None = None
    clock: StoredClock | None = field(default=None, compare=False)

    @property
    def turn_based(self) -> bool:
        """Whether the table is played over days, a move at a time, rather than live."""
        return self.pace_days > 0

    def open_seats(self) -> list[int]:
        """The remote seats anyone may take now."""
        return [seat.seat for seat in self.seats if seat.is_open]

    def seats_of(self, claim: str) -> list[int]:
        """The seats ``claim`` holds."""
        return [seat.seat for seat in self.seats if seat.claim is not None and seat.claim == claim]

    @property
    def ready(self) -> bool:
        """Every remote seat is held, so the lobby can start.

        At a turn-based table a seat is held once a signed-in player took it, connected now or not.
        """
        if self.turn_based:
            return all(seat.account is not None for seat in self.seats if seat.role == "remote")
        return all(seat.claim is not None for seat in self.seats if seat.role == "remote")


@dataclass(frozen=True)
class Hosted:
    """A newly hosted table.

    Attributes:
        info: The table.
        token: The host's token (shown once): it reclaims the host role and the local seats.
    """

    info: TableInfo
    token: str

