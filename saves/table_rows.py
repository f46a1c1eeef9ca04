"""SQL over the ``tables`` and ``table_seats`` rows, run inside the store's transactions.

:class:`saves.store.SessionStore` calls :func:`check_seat_claim` and
:func:`close_table_of`; :class:`saves.tables.TableStore` the rest. Nothing
here opens a transaction of its own.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Sequence
from typing import cast

from engine.core.text import UnsafeTextError, check_name
from saves.clock_record import StoredClock, parse_clock
from saves.records import MAX_NAME_LENGTH, SeatInfo
from saves.table_records import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    PACE_DAYS,
    SEAT_ROLES,
    SeatClaimError,
    SeatPlan,
    SeatRole,
    TableError,
    TableInfo,
    TableSeat,
    TableStatus,
    TableWatcher,
)

LIVE = (
    "t.status = 'lobby' OR (t.status = 'playing' AND EXISTS"
    " (SELECT 1 FROM sessions s WHERE s.id = t.session_id AND s.status = 'active'))"
)
"""SQL for a live table ``t``: waiting, or playing a game that has not finished."""

_TABLE_COLUMNS = (
    "t.id, t.code, t.game_id, t.options, t.seed, t.status, t.host_claim, t.host_name,"
    " t.session_id, t.allow_spectators, t.created, t.spectator_chat, t.coach, t.listed, t.rated,"
    " t.pace_days, t.timeout_bot, t.clock"
)


def seat_label(seat: int) -> str:
    """"Seat 2" for seat index 1: people count seats from 1."""
    return f"Seat {seat + 1}"


def clean_name(name: str, what: str) -> str:
    """``name`` without surrounding spaces, checked as a session seat's name is.

    Raises:
        TableError: blank, too long or unsafe to show (:func:`engine.core.text.check_name`);
            ``what`` names it.
    """
    try:
        return check_name(name, f"{what[:1].upper()}{what[1:]}", max_length=MAX_NAME_LENGTH)
    except UnsafeTextError as error:
        raise TableError(f"{error.reason}.") from None


def planned_seats(plan: Sequence[SeatPlan]) -> list[TableSeat]:
    """The host's seat plan checked and cleaned, as seats nobody holds yet.

    Raises:
        TableError: an unknown role or an unusable name.
    """
    seats = []
    for index, seat in enumerate(plan):
        if seat.role not in SEAT_ROLES:
            raise TableError(f"{seat_label(index)} has an unknown role {seat.role!r}.")
        name = clean_name(seat.name, f"the name of {seat_label(index).lower()}")
        level = seat.bot_level if seat.role == "bot" else None
        seats.append(TableSeat(index, seat.role, name, level, claim=None, dropped_at=None, has_token=False))
    return seats


def session_seats(seats: Sequence[TableSeat]) -> list[SeatInfo]:
    """The session seats a table's seats become: bots stay bots, everyone else plays as a human."""
    return [SeatInfo(s.name, "bot" if s.role == "bot" else "human", s.bot_level) for s in seats]


def read_table(conn: sqlite3.Connection, where: str, params: Sequence[object]) -> TableInfo | None:
    """The first table ``t`` matching the SQL condition ``where``, with its seats, or None."""
    row = conn.execute(f"SELECT {_TABLE_COLUMNS} FROM tables t WHERE {where} LIMIT 1", tuple(params)).fetchone()
    if row is None:
        return None
    (table_id, code, game_id, options, seed, status, host_claim, host_name, session_id, spectators, created,
     spectator_chat, coach, listed, rated, pace_days, timeout_bot, clock) = row
    seats = tuple(
        TableSeat(
            seat=int(seat),
            role=cast(SeatRole, role),
            name=str(name),
            bot_level=level,
            claim=claim,
            dropped_at=dropped,
            has_token=token is not None,
            left=claim is None and bool(left),
            account=account if isinstance(account, str) else None,
            timed_out_at=timed_out if isinstance(timed_out, str) else None,
            clock_from=clock_from if isinstance(clock_from, str) else None,
        )
        for seat, role, name, level, claim, token, dropped, left, account, timed_out, clock_from in conn.execute(
            "SELECT seat, role, name, bot_level, claim, token_hash, dropped_at, chose_to_leave, account,"
            " timed_out_at, clock_from FROM table_seats"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
    )
    watchers = tuple(
        TableWatcher(str(name), str(claim), str(since))
        for claim, name, since in conn.execute(
            "SELECT claim, name, since FROM table_watchers WHERE table_id = ? ORDER BY since, claim", (table_id,)
        )
    )
    try:
        loaded = json.loads(options)
    except ValueError:
        loaded = None
    if not isinstance(loaded, dict):
        raise TableError(f"Table {code} has unreadable options; the database may be damaged.")
    return TableInfo(
        table_id=int(table_id),
        code=str(code),
        game_id=str(game_id),
        options=loaded,
        seed=int(seed),
        status=cast(TableStatus, status),
        host_claim=host_claim,
        host_name=str(host_name),
        session_id=None if session_id is None else int(session_id),
        allow_spectators=bool(spectators),
        seats=seats,
        created=str(created),
        watchers=watchers,
        spectator_chat=bool(spectator_chat),
        coach=bool(coach),
        listed=bool(listed),
        rated=rated == 1,
        pace_days=pace_days if pace_days in PACE_DAYS else 0,
        timeout_bot=timeout_bot if isinstance(timeout_bot, str) else None,
        clock=_clock(str(code), clock, len(seats)),
    )


def _clock(code: str, text: object, seats: int) -> StoredClock | None:
    """Table ``code``'s stored clock (None: none).

    Raises:
        TableError: unreadable (the database may be damaged).
    """
    try:
        return parse_clock(text, seats)
    except ValueError:
        raise TableError(f"Table {code} has an unreadable clock; the database may be damaged.") from None


def random_code() -> str:
    """Four random letters of the join-code alphabet."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def free_code(conn: sqlite3.Connection) -> str:
    """A random join code no table that is not closed uses (inside a write transaction).

    Raises:
        TableError: no free code was found (practically impossible: there are 279,841).
    """
    for _ in range(1000):
        code = random_code()
        if conn.execute("SELECT 1 FROM tables WHERE code = ? AND status != 'closed'", (code,)).fetchone() is None:
            return code
    raise TableError("Could not find a free join code; close some old tables and try again.")


def check_seat_claim(conn: sqlite3.Connection, session_id: int, seat: int | None, claim: str | None) -> None:
    """Refuse an action for a live table's seat that ``claim`` does not hold.

    Runs inside the store's write transaction, so a seat cannot change hands
    between this check and the insert. Sessions no open table plays are not checked.

    Raises:
        SeatClaimError: the seat (or, for table steps and bots, the host role) is not ``claim``'s.
    """
    table = conn.execute(
        "SELECT id, host_claim FROM tables WHERE session_id = ? AND status != 'closed'", (session_id,)
    ).fetchone()
    if table is None:
        return
    table_id, host_claim = table
    if seat is None:
        if claim is None or claim != host_claim:
            raise SeatClaimError("The table's automatic steps are played from the host's connection only.")
        return
    row = conn.execute(
        "SELECT role, claim FROM table_seats WHERE table_id = ? AND seat = ?", (table_id, seat)
    ).fetchone()
    if row is None:
        raise SeatClaimError(f"{seat_label(seat)} is not a seat at this table.")
    role, holder = row
    # A bot has no connection of its own: the host's process plays it.
    expected = host_claim if role == "bot" else holder
    if claim is None or claim != expected:
        raise SeatClaimError(f"{seat_label(seat)} is not played from this connection.")


def close_table_of(conn: sqlite3.Connection, session_id: int, now: str) -> None:
    """Close the table playing ``session_id`` (its game finished), freeing its join code."""
    conn.execute(
        "UPDATE tables SET status = 'closed', updated = ? WHERE session_id = ? AND status != 'closed'",
        (now, session_id),
    )
