"""Checking what the store reads back: rows Coven never writes, and logs an index would cut short.

The database is outside data: a row that passed SQLite's ``quick_check`` may
still hold a status of ``weird``, a blank name, a text seed or JSON that does
not parse. Each check here returns the problem in words, so one damaged
session is shown (and refused) as damaged while the others keep working.

A session's log is read from the ``actions`` table itself (``NOT INDEXED``),
never only through its ``(session_id, seq)`` index: ``quick_check`` does not
compare an index with its table, and a damaged index would silently drop
moves. The index's own count is then compared with what the table holds.
Pages SQLite reports as damaged (``quick_check`` passes many an index page it
cannot read) make the session damaged in words too, never a failed query.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.core.text import text_problem
from engine.core.words import plural
from saves.errors import DamagedSessionError, SessionNotFoundError, damaged_message
from saves.records import STATUSES, LogEntry, SeatInfo, SessionRecord, check_status
from saves.schema import is_damage

ACTIONS_INDEX = "sqlite_autoindex_actions_1"
"""SQLite's name for the index behind ``UNIQUE (session_id, seq)`` on ``actions``."""

MAX_RULES_VERSION = 1_000_000
"""A rules version above this is no version any Coven writes (they count up from 1): the row is damaged."""

ROW_UNREADABLE = "its row cannot be read, as the database is damaged where it is kept"
SEATS_UNREADABLE = "its seats cannot be read, as the database is damaged where they are kept"
LOG_UNREADABLE = "its log cannot be read, as the database is damaged where it is kept"
INDEX_UNREADABLE = "the index of its log cannot be read, so the index is damaged"
"""Reasons for a session whose rows sit in pages SQLite reports as damaged (the list and opening agree)."""

_SHOWN = 40
"""How much of a stored value a reason quotes: enough to recognise it, never a screenful."""


@dataclass(frozen=True)
class DamagedSession:
    """A row of the sessions list whose stored values Coven never writes; it cannot be opened.

    Attributes:
        session_id: Database id.
        reason: What is wrong, in words, e.g. "its status is 'weird', which Coven never writes".
        game_id: The stored game id when it is readable text, else "".
        updated: The stored time of the last change when it is readable text, else "".
    """

    session_id: int
    reason: str
    game_id: str = ""
    updated: str = ""

    @property
    def message(self) -> str:
        """A sentence for the user: which session, that it cannot be opened, and why."""
        return damaged_message(self.session_id, self.reason)


def shown(value: object) -> str:
    """A stored value quoted for a reason: its repr, cut short (repr also spells out control characters)."""
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _lenient(raw: bytes) -> str:
    # Bytes that are not UTF-8 become lone surrogates, which the checks below refuse by name.
    return raw.decode("utf-8", "surrogateescape")


@contextmanager
def lenient_text(conn: sqlite3.Connection) -> Iterator[None]:
    """Read text that is not valid UTF-8 without failing the whole query (the caller holds the lock)."""
    previous = conn.text_factory
    conn.text_factory = _lenient
    try:
        yield
    finally:
        conn.text_factory = previous


def _text_problem(value: object, what: str, *, blank_ok: bool = True) -> str | None:
    """What is wrong with stored text, the subject ``what`` first (e.g. "its progress"), or None."""
    if not isinstance(value, str):
        return f"{what} is {shown(value)}, not text"
    if not blank_ok and not value.strip():
        return f"{what} is blank"
    problem = text_problem(value)
    if problem is not None:
        return f"{what} holds {problem}"
    return None


def _time_problem(value: object, what: str) -> str | None:
    # Only shown (as written when it is not a date), so any safe text will do.
    return _text_problem(value, f"{what} time")


def json_object(text: object) -> dict[str, Any] | None:
    """``text`` parsed when it is UTF-8 text holding a JSON object, else None."""
    if not isinstance(text, str):
        return None
    try:
        text.encode("utf-8")  # lone surrogates: bytes that were never UTF-8
        value = json.loads(text)
    except (ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return None
    return value if isinstance(value, dict) else None


def fetch_or_none(conn: sqlite3.Connection, sql: str, params: Sequence[object] = ()) -> list[Any] | None:
    """Every row ``sql`` returns, or None when SQLite finds the pages holding them damaged.

    Other failures (busy, locked, a full disk) are raised as they are: they say nothing about the file.
    """
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as error:
        if is_damage(error):
            return None
        raise


def _fetch_checked(conn: sqlite3.Connection, session_id: int, reason: str, sql: str,
                   params: Sequence[object]) -> list[Any]:
    """:func:`fetch_or_none`, raising :class:`DamagedSessionError` with ``reason`` on damage."""
    rows = fetch_or_none(conn, sql, params)
    if rows is None:
        raise DamagedSessionError(session_id, reason)
    return rows


def session_row_problem(
    game_id: object, status: object, progress: object, result: object, created: object, updated: object,
    seed: object = 0, options_ok: bool = True, rules_version: object = None,
) -> str | None:  # fmt: skip
    """What is wrong with a ``sessions`` row, in words, or None when Coven could have written it.

    A rules version newer than this Coven knows is no damage (a newer Coven wrote it): opening the session
    says so. NULL is a session begun before rulings had versions.
    """
    problem = _text_problem(game_id, "its game id", blank_ok=False)
    if problem is not None:
        return problem
    if not isinstance(status, str) or status not in STATUSES:
        return f"its status is {shown(status)}, which Coven never writes"
    if type(seed) is not int:
        return f"its seed is {shown(seed)}, not a whole number"
    if not options_ok:
        return "its options are not a JSON object"
    if rules_version is not None and (type(rules_version) is not int or not 1 <= rules_version <= MAX_RULES_VERSION):
        return f"its rules version is {shown(rules_version)}, which Coven never writes"
    problem = _text_problem(progress, "its progress")
    if problem is None and result is not None:
        problem = _text_problem(result, "its result")
    return problem or _time_problem(created, "its start") or _time_problem(updated, "its last played")


def seats_from_rows(rows: Sequence[Sequence[Any]]) -> tuple[tuple[SeatInfo, ...], str | None]:
    """Seats from ``(seat, name, kind, bot_level)`` rows in any order, and the problem with them or None."""
    if not rows:
        return (), "it has no seats"
    if any(type(row[0]) is not int for row in rows):
        return (), "a seat's number is not a whole number"
    ordered = sorted(rows, key=lambda row: int(row[0]))
    numbers = [int(row[0]) for row in ordered]
    if numbers != list(range(len(numbers))):
        return (), f"its seats are numbered {shown(numbers)}, not 0 to {len(numbers) - 1}"
    seats = []
    for number, name, kind, level in ordered:
        try:
            seats.append(SeatInfo(name=name, kind=kind, bot_level=level))
        except (ValueError, TypeError) as error:
            return (), f"seat {number + 1} is unreadable: {error}"
    return tuple(seats), None


def log_from_rows(session_id: int, rows: Sequence[Sequence[Any]], seats: int | None) -> list[LogEntry]:
    """Log entries from ``(seq, seat, action, created)`` rows, each checked.

    ``seats`` is the session's seat count when known (an action's seat must be one of them).

    Raises:
        DamagedSessionError: a row holds a value Coven never writes.
    """
    entries = []
    for seq, seat, text, created in rows:
        if type(seq) is not int or seq < 1:
            raise DamagedSessionError(session_id, f"an action's number is {shown(seq)}, not a whole number from 1")
        if seat is not None and (type(seat) is not int or seat < 0 or (seats is not None and seat >= seats)):
            raise DamagedSessionError(session_id, f"action {seq} names seat {shown(seat)}, which it does not have")
        action = json_object(text)
        if action is None:
            raise DamagedSessionError(session_id, f"action {seq} is not a JSON object")
        problem = _time_problem(created, f"action {seq}'s")
        if problem is not None:
            raise DamagedSessionError(session_id, problem)
        entries.append(LogEntry(seq=seq, seat=seat, action=action, created=created))
    return entries


def read_log(conn: sqlite3.Connection, session_id: int, seats: int) -> tuple[LogEntry, ...]:
    """A session's whole log read from the table itself, checked to be numbered 1..N with nothing the index lacks.

    Raises:
        DamagedSessionError: a bad row, a gap or repeat in the numbering, an index that disagrees, or pages
            SQLite reports damaged.
    """
    rows = _fetch_checked(conn, session_id, LOG_UNREADABLE,
                          "SELECT seq, seat, action, created FROM actions NOT INDEXED WHERE session_id = ?",
                          (session_id,))
    entries = sorted(log_from_rows(session_id, rows, seats), key=lambda entry: entry.seq)
    numbers = [entry.seq for entry in entries]
    if numbers != list(range(1, len(numbers) + 1)):
        raise DamagedSessionError(session_id, gap_reason(len(numbers), len(set(numbers)), numbers[-1]))
    indexed = int(_fetch_checked(
        conn, session_id, INDEX_UNREADABLE,
        f"SELECT count(*) FROM actions INDEXED BY {ACTIONS_INDEX} WHERE session_id = ?", (session_id,),
    )[0][0])
    if indexed != len(entries):
        raise DamagedSessionError(session_id, index_reason(indexed, len(entries)))
    return tuple(entries)


def read_record(conn: sqlite3.Connection, session_id: int) -> SessionRecord:
    """A whole session read and checked row by row, inside the caller's read transaction.

    Raises:
        SessionNotFoundError: no such session.
        DamagedSessionError: a row holds what Coven never writes, the log's numbering or index is wrong, or
            SQLite reports damage in the pages holding them.
    """
    found = _fetch_checked(
        conn, session_id, ROW_UNREADABLE,
        "SELECT game_id, options, seed, status, progress, result, created, updated, rules_version"
        " FROM sessions WHERE id = ?",
        (session_id,),
    )
    if not found:
        raise SessionNotFoundError(session_id)
    game_id, options_text, seed, status, progress, result, created, updated, rules_version = found[0]
    options = json_object(options_text)
    problem = session_row_problem(game_id, status, progress, result, created, updated, seed, options is not None,
                                  rules_version)
    seat_rows = fetch_or_none(
        conn, "SELECT seat, name, kind, bot_level FROM seats NOT INDEXED WHERE session_id = ?", (session_id,)
    )
    seats, seat_problem = seats_from_rows(seat_rows) if seat_rows is not None else ((), SEATS_UNREADABLE)
    if problem or seat_problem or options is None:
        raise DamagedSessionError(session_id, problem or seat_problem or "its options are not a JSON object")
    return SessionRecord(
        session_id=session_id, game_id=game_id, options=options, seed=seed, seats=seats,
        status=check_status(status), progress=progress, result=result, created=created, updated=updated,
        log=read_log(conn, session_id, len(seats)), rules_version=1 if rules_version is None else rules_version,
    )


def gap_reason(count: int, distinct: int, highest: object) -> str:
    """The reason for a log whose numbers are not exactly 1..count."""
    if distinct != count:
        return f"its log numbers an action twice ({plural(count, 'action')}, {plural(distinct, 'number')})"
    return f"its log has a gap ({plural(count, 'action')} numbered up to {shown(highest)})"


def index_reason(indexed: int, stored: int) -> str:
    """The reason for a log whose index and table disagree."""
    return (
        f"the index of its log lists {plural(indexed, 'action')} but the log itself holds {stored}, "
        "so the index is damaged"
    )
