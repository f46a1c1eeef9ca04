"""Opening the session database safely: checks, repair by moving aside, migrations.

The schema version lives in ``PRAGMA user_version``. Migrations ship in code
as :data:`saves.migrations.MIGRATIONS` (re-exported here); a file newer than
the code is refused untouched.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from saves.errors import NewerSchemaError, StoreError
from saves.migrations import MIGRATIONS as MIGRATIONS  # re-exported: the schema is read from here too
from saves.migrations import SCHEMA_VERSION as SCHEMA_VERSION
from saves.paths import create_private_file
from saves.save_failures import failure_in_words
from saves.sharing import sole_use

# Errors that say nothing about the file's contents; any other error while opening it is damage.
_PASSING_CODES = frozenset({
    sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_INTERRUPT, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PROTOCOL, sqlite3.SQLITE_AUTH, sqlite3.SQLITE_NOLFS,
    # A schema changed by another process meanwhile, or a mistake in Coven's own SQL: not the file's fault.
    sqlite3.SQLITE_SCHEMA, sqlite3.SQLITE_MISUSE, sqlite3.SQLITE_RANGE,
})
_COMPANIONS = ("-wal", "-shm", "-journal")


def _cannot(doing: str, path: Path, error: BaseException) -> StoreError:
    """Why the database could not be opened or prepared: a full disk or unwritable folder in words, else SQLite's."""
    return (failure_in_words(error, path, outcome=f"Coven cannot {doing} its session database")
            or StoreError(f"Could not {doing} the session database {path}: {error}"))


class _Damaged(Exception):
    """The file is not a usable Coven database."""


def is_damage(error: BaseException) -> bool:
    """True when ``error`` says the file's contents are damaged; False when it is busy, locked, forbidden or the disk is.

    A schema SQLite cannot parse ("malformed database schema", an unknown
    collation or column), a page that is not what it should be, and an error
    whose own text is not UTF-8 (SQLite quoting a damaged schema) are damage.
    """
    if isinstance(error, UnicodeDecodeError):
        return True
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:  # raised by Python itself, such as "Could not decode to UTF-8 column 'name'"
        return "decode" in str(error)
    return (int(code) & 0xFF) not in _PASSING_CODES


def open_database(path: Path, timeout: float, recreated: list[str] | None = None, *,
                  every_page: bool = True) -> tuple[sqlite3.Connection, Path | None]:
    """Open (creating or repairing if needed) and migrate the database at ``path``.

    Args:
        path: The database file.
        timeout: Seconds to wait for another process's lock.
        recreated: Filled with the names of recreatable tables that were missing and were made again.
        every_page: Also read every page (SQLite's ``quick_check``), which takes time in proportion to the file:
            about 0.1 s for 80 MB. Off only where another process checked the file once for many (``coven
            serve`` as it starts, for the players it forks); the header, the schema and the writes are still
            checked.

    Returns:
        The connection in autocommit mode, and where a damaged file was moved
        (None when nothing had to be moved).

    Raises:
        NewerSchemaError: the file's schema is newer than :data:`SCHEMA_VERSION`.
        StoreError: the file cannot be opened or repaired.
    """
    made = [] if recreated is None else recreated
    try:
        return _open_ready_patiently(path, timeout, made, every_page), None
    except _Damaged:
        moved_to = move_aside(path)
    try:
        return _open_ready_patiently(path, timeout, made, every_page), moved_to
    except _Damaged:
        raise StoreError(f"Could not start a fresh session database at {path}.") from None


class _Busy(Exception):
    """Another process's lock stopped the preparation, possibly without waiting at all (see below)."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


_BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _open_ready_patiently(path: Path, timeout: float, recreated: list[str],
                          every_page: bool = True) -> sqlite3.Connection:
    """:func:`_open_ready`, tried again while another process's lock is in the way, for up to ``timeout``.

    SQLite's busy timeout covers most waits, but not all: two processes
    preparing a new database at once (several players of ``coven serve``
    starting together) can each hold a read lock the other's write needs, and
    SQLite then answers "database is locked" at once rather than deadlock.
    Closing the connection lets the other go first; this one then tries again.
    """
    deadline = time.monotonic() + timeout
    pause = 0.02
    while True:
        try:
            return _open_ready(path, timeout, recreated, every_page)
        except _Busy as busy:
            if time.monotonic() + pause > deadline:
                raise _cannot("prepare", path, busy.error) from None
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def _open_ready(path: Path, timeout: float, recreated: list[str], every_page: bool = True) -> sqlite3.Connection:
    """Verify, connect, migrate and check that Coven's writes compile; raise :class:`_Damaged` on damage."""
    # The read-only probe stays open until the end: while it is, closing a
    # connection that met damage cannot fold the -wal into the file (the last
    # connection to close does that), so the file is moved aside as it was.
    probe = _probe(path, timeout, every_page) if path.exists() else None
    try:
        create_private_file(path)  # before SQLite creates it: its -wal and -shm copy its mode
        try:
            # Autocommit mode: transactions are explicit, so every commit point is visible.
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            raise _cannot("open", path, error) from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            recreated[:] = _recreate_missing(conn)
            _migrate(conn)
            _compile_writes(conn, SCHEMA_VERSION)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            conn.close()
            if is_damage(error):
                raise _Damaged from None
            if isinstance(error, sqlite3.OperationalError) and getattr(error, "sqlite_errorcode", 0) & 0xFF in _BUSY_CODES:
                raise _Busy(error) from None
            raise _cannot("prepare", path, error) from None
        except BaseException:
            conn.close()
            raise
        return conn
    finally:
        if probe is not None:
            probe.close()


def _probe(path: Path, timeout: float, every_page: bool = True) -> sqlite3.Connection:
    """A read-only connection to the existing file at ``path``, verified (see :func:`_verify`)."""
    # Read-only, so neither a refused newer database nor a damaged one (or its WAL) is altered.
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
    except (sqlite3.Error, UnicodeDecodeError) as error:
        if is_damage(error):
            raise _Damaged from None
        raise _cannot("open", path, error) from None
    try:
        _verify(probe, path, every_page)
    except BaseException:
        probe.close()
        raise
    return probe


def _compile_writes(conn: sqlite3.Connection, version: int) -> None:
    """Compile (never run) an insert into each of Coven's tables.

    A read-write connection resolves each table's CHECKs, collations and
    constraints only when it writes, so damage there would fail every save.
    """
    for table, columns in _expected_tables(version).items():
        names = sorted(columns)
        conn.execute(f"EXPLAIN INSERT INTO \"{table}\" ({', '.join(names)}) VALUES "
                     f"({', '.join('NULL' for _ in names)})").fetchall()


def _verify(conn: sqlite3.Connection, path: Path, every_page: bool = True) -> None:
    """Raise unless ``conn`` is a healthy Coven database this code can use."""
    try:
        # One read transaction: another Coven creating the schema meanwhile is seen either not at all or
        # whole. Read apart, "version 0" and then its new tables would look like another program's file.
        conn.execute("BEGIN")
        try:
            _verify_snapshot(conn, every_page)
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
        if is_damage(error):
            raise _Damaged from None
        # Busy, locked or permission errors are not damage: never move a healthy file.
        raise _cannot("open", path, error) from None


def _verify_snapshot(conn: sqlite3.Connection, every_page: bool = True) -> None:
    """:func:`_verify`'s checks, inside its read transaction."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(version, SCHEMA_VERSION)
    if version < 0:
        raise _Damaged  # no Coven writes a negative schema number: a flipped bit in the header
    if every_page and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise _Damaged
    if version == 0:
        foreign = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1"
        ).fetchone()
        if foreign is not None:
            # Someone else's database: keep it intact by moving it aside like damage.
            raise _Damaged
    else:
        # A dropped table or column is damage too, or every command would fail
        # with "no such table". Extra tables and columns are left alone.
        found = _tables(conn)
        for table, columns in _expected_tables(version).items():
            if table in RECREATABLE_TABLES and table not in found:
                continue  # made again, empty, once connected: losing it costs only what it held
            if not columns <= found.get(table, frozenset()):
                raise _Damaged


RECREATABLE_TABLES = ("decks", "preferences", "table_chat")
"""Tables whose loss costs only what they held, so a missing one is made again empty instead of moving the file."""


def missing_tables(conn: sqlite3.Connection, version: int) -> list[str]:
    """The recreatable tables a database at schema ``version`` should hold and does not."""
    names = conn.execute("SELECT CAST(name AS BLOB) FROM sqlite_master WHERE type = 'table'").fetchall()
    present = {bytes(row[0]).decode("utf-8", "replace") for row in names}  # whatever the text factory
    return [name for name in RECREATABLE_TABLES if name in _creation_sql(version) and name not in present]


def recreate_tables(conn: sqlite3.Connection, version: int, names: list[str]) -> None:
    """Create ``names`` empty with their indexes, as the migrations up to ``version`` define them."""
    for name in names:
        for statement in _creation_sql(version)[name]:
            conn.execute(statement)


def _recreate_missing(conn: sqlite3.Connection) -> list[str]:
    """Make again, empty, each recreatable table that is gone (checked again under the write lock); their names."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if not 0 < version <= SCHEMA_VERSION or not missing_tables(conn, version):
        return []
    conn.execute("BEGIN IMMEDIATE")
    try:
        gone = missing_tables(conn, version)
        recreate_tables(conn, version, gone)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return gone


@functools.cache
def _creation_sql(version: int) -> dict[str, tuple[str, ...]]:
    """For each recreatable table at schema ``version``: the statements that make it and its indexes."""
    memory = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                memory.execute(statement)
        found: dict[str, list[str]] = {}
        for _, table, sql in memory.execute(
            "SELECT type, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') "
            "ORDER BY type = 'index', rowid"
        ):
            if table in RECREATABLE_TABLES:
                found.setdefault(str(table), []).append(str(sql))
        return {table: tuple(statements) for table, statements in found.items()}
    finally:
        memory.close()


def _tables(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Each ordinary table's name with its column names."""
    names = [
        str(row[0])
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]
    return {
        name: frozenset(str(row[0]) for row in conn.execute("SELECT name FROM pragma_table_info(?)", (name,)))
        for name in names
    }


@functools.cache
def _expected_tables(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns a database at schema ``version`` has, from :data:`MIGRATIONS`."""
    conn = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                conn.execute(statement)
        return _tables(conn)
    finally:
        conn.close()


def learn_schema() -> None:
    """Work out now what every open checks against (the tables, columns and creation SQL of this version).

    Both come from migrating a throwaway in-memory database, which costs a few
    MB the first time in each process; a parent that forks many processes
    (``coven serve``'s warm parent) calls this once, so they share the answer.
    """
    _expected_tables(SCHEMA_VERSION)
    _creation_sql(SCHEMA_VERSION)


def move_aside(path: Path) -> Path:
    """Rename the damaged file and its -wal, -shm and -journal beside it; never delete anything.

    Returns:
        The new name of the file.

    Raises:
        StoreInUseError: another Coven has it open.
        StoreError: it could not be moved.
    """
    with sole_use(path):  # never from under another Coven's feet, and none opens it meanwhile
        return _rename_aside(path)


def _rename_aside(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = path.with_name(f"{path.name}.corrupt-{stamp}")
    target = base
    counter = 2
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", *_COMPANIONS)):
        target = base.with_name(f"{base.name}-{counter}")
        counter += 1
    try:
        os.replace(path, target)
        for suffix in _COMPANIONS:
            companion = Path(f"{path}{suffix}")
            if companion.exists():
                os.replace(companion, f"{target}{suffix}")
    except OSError as error:
        raise (failure_in_words(error, path, outcome=f"{path.name} could not be moved aside")
               or StoreError(f"The session database {path} is unreadable and could not be moved aside: {error}")) from None
    return target


def _migrate(conn: sqlite3.Connection) -> None:
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Re-read under the write lock: another process may have migrated meanwhile.
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise NewerSchemaError(version, SCHEMA_VERSION)
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target - 1]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {int(target)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
