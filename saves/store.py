"""The SQLite session store: sessions, their seats and their action logs.

Every write is its own short ``BEGIN IMMEDIATE`` transaction, committed before
the method returns, so a process killed at any moment loses at most the
action it had not yet been told was saved. Only JSON is stored; nothing read
back is ever unpickled or evaluated.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from engine.core.words import plural
from saves.errors import (
    DamagedSessionError,
    LogConflictError,
    NotWritableError,
    SessionNotFoundError,
    StoreError,
)
from saves.integrity import MAX_RULES_VERSION, lenient_text, log_from_rows, read_record, seats_from_rows
from saves.paths import can_write, db_path, make_private
from saves.read_only import open_read_only
from saves.records import LogEntry, SeatInfo, SessionRecord, SessionStatus
from saves.records import check_status as _check_status
from saves.save_failures import failure_in_words
from saves.schema import SCHEMA_VERSION, open_database
from saves.sharing import JournalWatch, StoreHold, abandon, protect
from saves.store_listing import SessionListing
from saves.table_rows import check_seat_claim, close_table_of

__all__ = ["SCHEMA_VERSION", "SessionStore", "utc_now"]


def utc_now() -> str:
    """The current time as a UTC ISO-8601 string with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dump(value: object) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"not storable as JSON: {error}") from None


def _winners_text(winners: Sequence[int] | None) -> str | None:
    if winners is None:
        return None
    if any(type(seat) is not int or seat < 0 for seat in winners):
        raise ValueError(f"not a list of seats: {list(winners)!r}")
    return _dump(sorted(set(winners)))


_LOST_WITH_TABLE = {"decks": "saved deck lists", "preferences": "settings", "table_chat": "table chat"}
"""What a player lost with each recreatable table, in words."""


class SessionStore(SessionListing):
    """Saved sessions in one SQLite file.

    Opening repairs what it safely can: an unreadable or foreign file is moved
    aside (never deleted) and a fresh database is started, with :attr:`notice`
    explaining what happened. A database from a newer Coven is refused. In a
    folder that cannot be written the store only reads (see
    :mod:`saves.read_only`), and every write raises :class:`NotWritableError`.

    Attributes:
        path: The database file.
        notice: A warning for the user when the database had to be replaced, or its folder could not be made
            private, else None.
        folder_notice: What :func:`~saves.paths.make_private` had to tell about the folder, else None: a
            folder found open to others and made private is told here only, not in :attr:`notice`.
        moved_to: Where the unreadable file was moved, else None.
        read_only: Its folder cannot be written, so it only reads.

    Raises:
        NewerSchemaError: the file's schema is newer than :data:`saves.schema.SCHEMA_VERSION`.
        StoreError: the file cannot be opened at all (permissions, locked).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 5.0,
                 every_page: bool = True) -> None:
        """Open the store at ``path`` (the data folder's by default); ``every_page``: see :func:`open_database`."""
        self.path = Path(path) if path is not None else db_path()
        # Hidden hands and token hashes live here: the folder 0700, the database and its -wal/-shm 0600.
        self.folder_notice = make_private(self.path.parent)
        # Only a folder Coven could not close is a worry; one it just made private is news (folder_notice).
        self.notice: str | None = self.folder_notice.text if self.folder_notice and self.folder_notice.exposed \
            else None
        # A Textual worker thread may save while the UI thread reads, so the
        # connection is shared across threads behind this lock.
        self._lock = threading.RLock()
        self._timeout = timeout
        # Held from before connecting until after closing, so "is a Coven using it?" never misses this one.
        self._hold = StoreHold(self.path, timeout)
        self.read_only = not can_write(self.path.parent)
        recreated: list[str] = []
        try:
            conn, self.moved_to = (open_read_only(self.path, timeout), None) if self.read_only else \
                open_database(self.path, timeout, recreated, every_page=every_page)
        except BaseException:
            self._hold.release()
            raise
        self._conn: sqlite3.Connection | None = conn
        protect(self.path)
        self._journal = JournalWatch(self.path)
        if self.moved_to is not None:
            self.notice = " ".join(filter(None, (
                f"Your session database was unreadable; it was moved to {self.moved_to} "
                "and a fresh one was started.", self.notice)))
        if recreated:
            lost = ", ".join(_LOST_WITH_TABLE.get(name, name) for name in recreated)
            self.notice = " ".join(filter(None, (
                f"Part of your session database was missing ({lost}); it was made again, empty, and "
                "everything else was kept.", self.notice)))

    # -- lifecycle -----------------------------------------------------------

    def close(self) -> None:
        """Fold the write-ahead log back into the database (when no one else is reading), then close. Safe twice."""
        with self._lock:
            if self._conn is not None:
                if self._journal.lost is None:
                    self.checkpoint()
                    self._conn.close()
                else:
                    abandon(self._conn)  # closing would fold a log no one else can see into their database
                self._conn = None
                self._hold.release()

    def checkpoint(self) -> bool:
        """Copy the write-ahead log into the database and truncate it to 0 bytes, if that can be done now.

        Another process reading at this moment keeps the log as it is (it is
        then folded back later); that is not an error, so this never raises.

        Returns:
            True when the -wal file was emptied.
        """
        with self._lock:
            if self._conn is None or self._conn.in_transaction or self._journal.lost is not None:
                return False
            try:
                # A short wait only: a reader elsewhere must not hold up quitting.
                self._conn.execute("PRAGMA busy_timeout = 200")
                try:
                    busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                finally:
                    self._conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
            except sqlite3.Error:
                return False
            return int(busy) == 0

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._conn is None:
                raise StoreError("The session store is closed.")
            conn = self._conn
            try:
                conn.execute(begin)
            except sqlite3.Error as error:
                raise self._failure(error, "is unavailable", begin) from error
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException as error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise self._failure(error, "failed", begin) from error
                if isinstance(error, UnicodeDecodeError):  # SQLite's own message quoted bytes of a damaged schema
                    raise StoreError(
                        "The session database failed with an unreadable error; it may be damaged. "
                        "Run `coven doctor` to check it."
                    ) from None
                raise

    def _failure(self, error: sqlite3.Error, what: str, begin: str) -> StoreError:
        """``error`` in words: a full disk or a folder that cannot be written named as such, else SQLite's own."""
        outcome = "Coven cannot read its session database" if begin == "BEGIN" else "nothing was saved"
        return failure_in_words(error, self.path, outcome=outcome) or StoreError(f"The session database {what}: {error}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        # Checked before and after: a commit that went into a journal unlinked meanwhile is not saved
        # for anyone else, so the caller hears it failed and never shows it as kept.
        with self._lock:
            if self._conn is not None:  # a closed store says so, whatever became of its files since
                if self.read_only:
                    raise NotWritableError(self.path.parent)
                self._journal.check()
            with self._transaction("BEGIN IMMEDIATE") as conn:
                yield conn
            self._journal.check()

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        # A deferred transaction gives one consistent snapshot across queries.
        return self._transaction("BEGIN")

    # -- sessions ------------------------------------------------------------

    def create_session(
        self,
        game_id: str,
        options: Mapping[str, Any],
        seed: int,
        seats: Sequence[SeatInfo],
        *,
        status: SessionStatus = "active",
        progress: str = "",
        result_text: str | None = None,
        log: Sequence[tuple[int | None, Mapping[str, Any]]] = (),
        owner: str | None = None,
        rules_version: int = 1,
        series: int | None = None,
    ) -> int:
        """Store a new session, with an optional initial log, in one transaction.

        Args:
            game_id: Registry id of the game.
            options: Resolved options (JSON values).
            seed: The game's seed.
            seats: One :class:`SeatInfo` per seat, in seat order.
            status: Initial status; imports of finished games pass ``"finished"``.
            progress: Progress phrase.
            result_text: Outcome sentence for finished sessions.
            log: ``(seat, action)`` pairs stored as actions 1, 2, ...
            owner: The ``coven serve`` account that made it; None at this machine.
            rules_version: The version of the game's rulings it is played under (the game's
                ``rules.rules_version`` for a new game).
            series: The id of the first session of the series a rematch continues (None: not a rematch).

        Returns:
            The new session's id.
        """
        with self._write() as conn:
            session_id = self._insert_session(conn, game_id, options, seed, seats, status=status, progress=progress,
                                              result_text=result_text, log=log, owner=owner,
                                              rules_version=rules_version, series=series)
        if log:  # an import: its whole log went through the -wal file, which would otherwise keep that size
            self.checkpoint()
        return session_id

    def _insert_session(
        self, conn: sqlite3.Connection, game_id: str, options: Mapping[str, Any], seed: int,
        seats: Sequence[SeatInfo], *, status: SessionStatus = "active", progress: str = "",
        result_text: str | None = None, log: Sequence[tuple[int | None, Mapping[str, Any]]] = (),
        owner: str | None = None, rules_version: int = 1, series: int | None = None,
    ) -> int:  # fmt: skip
        # Inside the caller's write transaction, so a table can link its session atomically.
        _check_status(status)
        if type(rules_version) is not int or not 1 <= rules_version <= MAX_RULES_VERSION:
            raise ValueError(f"not a rules version: {rules_version!r}")
        if not seats:
            raise ValueError("a session needs at least one seat")
        options_text = _dump(dict(options))
        log_rows = [(seat, _dump(dict(action))) for seat, action in log]
        now = utc_now()
        cursor = conn.execute(
            "INSERT INTO sessions (game_id, options, seed, status, progress, result, created, updated, owner,"
            " rules_version, series) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, options_text, seed, status, progress, result_text, now, now, owner, rules_version, series),
        )
        session_id = cursor.lastrowid
        assert session_id is not None
        conn.executemany(
            "INSERT INTO seats (session_id, seat, name, kind, bot_level) VALUES (?, ?, ?, ?, ?)",
            [(session_id, index, s.name, s.kind, s.bot_level) for index, s in enumerate(seats)],
        )
        conn.executemany(
            "INSERT INTO actions (session_id, seq, seat, action, created) VALUES (?, ?, ?, ?, ?)",
            [(session_id, seq, seat, text, now) for seq, (seat, text) in enumerate(log_rows, start=1)],
        )
        return session_id

    def append_action(
        self,
        session_id: int,
        seq: int,
        seat: int | None,
        action: Mapping[str, Any],
        *,
        status: SessionStatus | None = None,
        progress: str | None = None,
        result_text: str | None = None,
        claim: str | None = None,
        winners: Sequence[int] | None = None,
    ) -> LogEntry:
        """Append action ``seq`` to a session's log and commit before returning.

        ``seq`` must be exactly one more than the last stored action, so two
        processes playing the same session can never fork its log. Status,
        progress and result (when given) are updated in the same transaction.

        When the session is a live table's, the action is stored only if
        ``claim`` (the caller's presence claim) holds the seat: a human seat
        by its own claim, table steps and bot seats by the host's. ``winners``
        (the seats that won, given with the move that ends the game) is kept for series.

        Raises:
            LogConflictError: ``seq`` is not the next position in the log.
            SessionNotFoundError: no such session.
            SeatClaimError: a table's seat not held by ``claim``; nothing was stored.
        """
        if status is not None:
            _check_status(status)
        action_dict = dict(action)
        text = _dump(action_dict)
        now = utc_now()
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise SessionNotFoundError(session_id)
            check_seat_claim(conn, session_id, seat, claim)
            last = int(
                conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?", (session_id,)).fetchone()[0]
            )
            if seq != last + 1:
                raise LogConflictError(
                    f"Session {session_id} already has {plural(last, 'action')}, so action {seq} cannot be saved "
                    "(is it open somewhere else?)."
                )
            try:
                conn.execute(
                    "INSERT INTO actions (session_id, seq, seat, action, created) VALUES (?, ?, ?, ?, ?)",
                    (session_id, seq, seat, text, now),
                )
            except sqlite3.IntegrityError:
                raise LogConflictError(f"Action {seq} of session {session_id} was already saved elsewhere.") from None
            conn.execute(
                "UPDATE sessions SET updated = ?, status = COALESCE(?, status), progress = COALESCE(?, progress),"
                " result = COALESCE(?, result), winners = COALESCE(?, winners) WHERE id = ?",
                (now, status, progress, result_text, _winners_text(winners), session_id),
            )
            if status == "finished":
                close_table_of(conn, session_id, now)
        return LogEntry(seq=seq, seat=seat, action=action_dict, created=now)

    def update_status(
        self, session_id: int, status: SessionStatus, progress: str, result_text: str | None = None,
        winners: Sequence[int] | None = None,
    ) -> None:
        """Set a session's status, progress and result sentence (and, for a finished game, its winners).

        Raises:
            SessionNotFoundError: no such session.
        """
        _check_status(status)
        with self._write() as conn:
            cursor = conn.execute(
                "UPDATE sessions SET status = ?, progress = ?, result = ?, updated = ?,"
                " winners = COALESCE(?, winners) WHERE id = ?",
                (status, progress, result_text, utc_now(), _winners_text(winners), session_id),
            )
            if cursor.rowcount == 0:
                raise SessionNotFoundError(session_id)
            if status == "finished":
                close_table_of(conn, session_id, utc_now())

    def delete(self, session_id: int) -> None:
        """Delete a session with its seats and log.

        Raises:
            SessionNotFoundError: no such session.
        """
        with self._write() as conn:
            if conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise SessionNotFoundError(session_id)

    def load(self, session_id: int) -> SessionRecord:
        """Read a whole session, log included, checking every row (see :mod:`saves.integrity`).

        Raises:
            SessionNotFoundError: no such session.
            DamagedSessionError: a row holds what Coven never writes, or the log's
                numbering or index is wrong; the reason says which.
        """
        with self._read() as conn, lenient_text(conn):
            return read_record(conn, session_id)

    def log_length(self, session_id: int) -> int:
        """How many actions a session's log holds (0 for an unknown session)."""
        with self._read() as conn:
            row = conn.execute("SELECT COUNT(*) FROM actions WHERE session_id = ?", (session_id,)).fetchone()
        return int(row[0])

    def actions_after(self, session_id: int, seq: int) -> list[LogEntry]:
        """The log entries of a session after action ``seq``, in order ([] for an unknown session).

        Raises:
            DamagedSessionError: one of them holds what Coven never writes.
        """
        with self._read() as conn, lenient_text(conn):
            rows = conn.execute(
                "SELECT seq, seat, action, created FROM actions WHERE session_id = ? AND seq > ? ORDER BY seq",
                (session_id, seq),
            ).fetchall()
        return log_from_rows(session_id, rows, None)

    def seats_of(self, session_id: int) -> tuple[SeatInfo, ...]:
        """A session's seats as stored now (a table may have handed a seat to a bot).

        Raises:
            DamagedSessionError: a seat holds what Coven never writes.
        """
        with self._read() as conn, lenient_text(conn):
            rows = conn.execute(
                "SELECT seat, name, kind, bot_level FROM seats NOT INDEXED WHERE session_id = ?", (session_id,)
            ).fetchall()
        if not rows:
            return ()
        seats, problem = seats_from_rows(rows)
        if problem is not None:
            raise DamagedSessionError(session_id, problem)
        return seats

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version``: it changes when another connection commits, not on our own commits."""
        with self._lock:
            if self._conn is None:
                raise StoreError("The session store is closed.")
            try:
                return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error as error:
                raise StoreError(f"The session database is unavailable: {error}") from None

