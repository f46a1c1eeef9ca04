"""Queries over many sessions at once: the sessions list, Continue, and who may see what.

:class:`SessionListing` is a base of :class:`saves.store.SessionStore`, kept
apart so the store's own file stays readable in one sitting.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from typing import Any

from engine.core.text import is_safe_text
from saves.errors import StoreError
from saves.integrity import (
    ACTIONS_INDEX,
    INDEX_UNREADABLE,
    LOG_UNREADABLE,
    SEATS_UNREADABLE,
    DamagedSession,
    fetch_or_none,
    gap_reason,
    index_reason,
    lenient_text,
    seats_from_rows,
    session_row_problem,
)
from saves.records import SeatInfo, SessionSummary, check_status
from saves.schema import is_damage

SessionListEntry = SessionSummary | DamagedSession
"""One row of the sessions list: a session that can be opened, or a damaged one with its reason."""

_VISIBLE = (
    "(? IS NULL OR s.owner = ? OR (s.status = 'finished'"
    " AND s.id IN (SELECT session_id FROM tables WHERE session_id IS NOT NULL)))"
)
"""SQL: session ``s`` may be seen by the owner bound twice (None sees all). A served account sees
its own sessions and every finished table's game, never another account's private games."""

DAMAGED_LIST_MESSAGE = (
    "Your saved sessions are damaged: SQLite cannot read the list of them in the session database. "
    "Run `coven doctor` to see what is wrong."
)


class DamagedListError(StoreError):
    """The sessions table itself sits in pages SQLite reports damaged, so no session can be listed."""

    def __init__(self) -> None:
        super().__init__(DAMAGED_LIST_MESSAGE)


class SessionListing:
    """The read-only queries over many sessions (see :class:`saves.store.SessionStore`)."""

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        """A read transaction on the store's connection (the store provides it)."""
        raise NotImplementedError

    def list_sessions(self, owner: str | None = None) -> list[SessionListEntry]:
        """Every session (or only those ``owner`` may see), most recently played first.

        A session whose stored values Coven never writes comes back as a
        :class:`DamagedSession` with the reason, and the others as usual. The
        list checks each session's row, its seats, the numbering of its log
        and the log's index; opening a session checks every action as well.
        Seats, logs or an index in damaged pages make the sessions they hold
        damaged, each with that reason.

        Raises:
            DamagedListError: the sessions table itself cannot be read.
        """
        entries: list[SessionListEntry] | None = None
        try:
            with self._read() as conn, lenient_text(conn):
                try:
                    entries = list_entries(conn, owner)
                except sqlite3.DatabaseError as error:
                    if is_damage(error):
                        raise DamagedListError() from error
                    raise
        except StoreError:
            if entries is None:
                raise
            # SQLite fails the COMMIT that ends a read which met damaged pages; everything was read by then.
        return entries

    def latest_unfinished(self, owner: str | None = None) -> int | None:
        """The id of the most recently played active session that no live table plays, or None.

        With ``owner``, only that account's own sessions count.
        """
        with self._read() as conn:
            # A live table's session is played through its table, never by Continue.
            row = conn.execute(
                "SELECT s.id FROM sessions s WHERE s.status = 'active' AND s.id NOT IN"
                " (SELECT session_id FROM tables WHERE status != 'closed' AND session_id IS NOT NULL)"
                " AND (? IS NULL OR s.owner = ?) ORDER BY s.updated DESC, s.id DESC LIMIT 1",
                (owner, owner),
            ).fetchone()
        return None if row is None else int(row[0])

    def visible_to(self, session_id: int, owner: str | None) -> bool:
        """True when ``owner`` (None: this machine's user, who sees all) may open ``session_id``."""
        with self._read() as conn:
            row = conn.execute(f"SELECT 1 FROM sessions s WHERE s.id = ? AND {_VISIBLE}",
                               (session_id, owner, owner)).fetchone()
        return row is not None

    def owned_by(self, session_id: int, owner: str | None) -> bool:
        """True when ``owner`` may delete ``session_id``: its own session (None, this machine, owns all)."""
        if owner is None:
            return True
        with self._read() as conn:
            row = conn.execute("SELECT 1 FROM sessions WHERE id = ? AND owner = ?", (session_id, owner)).fetchone()
        return row is not None


def _readable(value: object) -> bool:
    return isinstance(value, str) and is_safe_text(value)


def list_entries(conn: sqlite3.Connection, owner: str | None = None) -> list[SessionListEntry]:
    """The sessions list read on ``conn`` inside the caller's read transaction (see :meth:`SessionListing.list_sessions`).

    Raises:
        sqlite3.DatabaseError: the sessions table itself cannot be read.
    """
    # NOT INDEXED throughout: a damaged index could hide rows, the tables themselves cannot.
    rows = conn.execute(
        "SELECT s.id, s.game_id, s.status, s.progress, s.result, s.created, s.updated, s.seed,"
        " CASE WHEN typeof(s.options) = 'text' AND json_valid(s.options)"
        " THEN json_type(s.options) = 'object' ELSE 0 END, s.rules_version"
        f" FROM sessions s NOT INDEXED WHERE {_VISIBLE} ORDER BY s.updated DESC, s.id DESC",
        (owner, owner),
    ).fetchall()
    # The queries below each read one table (or the log's index) whole; where SQLite finds its pages
    # damaged, every session it holds is listed as damaged, as opening one would find.
    seat_rows: dict[int, list[tuple[Any, ...]]] | None = None
    found_seats = fetch_or_none(conn, "SELECT session_id, seat, name, kind, bot_level FROM seats NOT INDEXED")
    if found_seats is not None:
        seat_rows = {}
        for session_id, *seat in found_seats:
            seat_rows.setdefault(session_id, []).append(tuple(seat))
    # Numbers only: parsing every move's JSON would cost more than the rest of the list
    # together on a large file; opening a session (and `coven doctor`) checks each move.
    found_logs = fetch_or_none(
        conn,
        "SELECT session_id, count(*), min(seq), max(seq), sum(typeof(seq) != 'integer')"
        " FROM actions NOT INDEXED GROUP BY session_id",
    )
    logs = None if found_logs is None else {row[0]: row[1:] for row in found_logs}
    index_problems = {} if logs is None else _index_problems(
        conn, {row[0]: int(logs.get(row[0], (0,))[0]) for row in rows}
    )
    entries: list[SessionListEntry] = []
    for session_id, game_id, status, progress, result, created, updated, seed, options_ok, rules_version in rows:
        seats: tuple[SeatInfo, ...] = ()
        problem: str | None = SEATS_UNREADABLE
        if seat_rows is not None:
            seats, problem = seats_from_rows(seat_rows.get(session_id, []))
        count, lowest, highest, odd = (logs or {}).get(session_id, (0, None, None, 0))
        problem = session_row_problem(game_id, status, progress, result, created, updated, seed,
                                      bool(options_ok), rules_version) or problem
        if problem is None and logs is None:
            problem = LOG_UNREADABLE
        if problem is None and odd:
            problem = "an action's number is not a whole number"
        if problem is None and count and (lowest != 1 or highest != count):
            problem = gap_reason(count, count, highest)
        # A number used twice shows here: the unique index holds one of them only.
        if problem is None:
            problem = index_problems.get(session_id)
        if problem is not None:
            entries.append(DamagedSession(
                session_id, problem, game_id if _readable(game_id) else "", updated if _readable(updated) else ""
            ))
            continue
        entries.append(SessionSummary(
            session_id=session_id, game_id=game_id, seats=seats, status=check_status(status),
            progress=progress, result=result, actions=int(count), created=created, updated=updated,
        ))
    return entries


def _index_problems(conn: sqlite3.Connection, counts: dict[int, int]) -> dict[int, str]:
    """The sessions whose log's index disagrees with their log (``counts``: each one's actions), with the reason.

    One pass over the whole index first. A session it miscounts, or every one
    when SQLite finds part of the index damaged, is counted again alone, as
    opening it does, so the list never calls damaged a session that opens.
    """
    whole = fetch_or_none(conn, f"SELECT session_id, count(*) FROM actions INDEXED BY {ACTIONS_INDEX} GROUP BY session_id")
    indexed = {} if whole is None else dict(whole)
    problems = {}
    for session_id, count in counts.items():
        if whole is not None and indexed.get(session_id, 0) == count:
            continue
        alone = fetch_or_none(
            conn, f"SELECT count(*) FROM actions INDEXED BY {ACTIONS_INDEX} WHERE session_id = ?", (session_id,)
        )
        if alone is None:
            problems[session_id] = INDEX_UNREADABLE
        elif int(alone[0][0]) != count:
            problems[session_id] = index_reason(int(alone[0][0]), count)
    return problems
