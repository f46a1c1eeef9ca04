"""Opening the session database safely: checks, repair by moving aside, migrations.

The schema version lives in ``PRAGMA user_version``. Migrations ship in code
as :data:`MIGRATIONS`; a file newer than the code is refused untouched.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from saves.errors import NewerSchemaError, StoreError
from saves.paths import create_private_file
from saves.save_failures import failure_in_words
from saves.sharing import sole_use

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # Version 1: the initial schema.
    (
        """
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'finished')),
            progress TEXT NOT NULL DEFAULT '',
            result TEXT,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE seats (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat >= 0),
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
            bot_level TEXT,
            PRIMARY KEY (session_id, seat)
        )
        """,
        """
        CREATE TABLE actions (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            seat INTEGER,
            action TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (session_id, seq)
        )
        """,
        "CREATE INDEX sessions_by_updated ON sessions (updated)",
    ),
    # Version 2: saved deck lists, kept as the text a player wrote. Names are
    # unique per game whatever their letter case, so "Ember" and "ember" are one deck.
    (
        """
        CREATE TABLE decks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            name TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) > 0),
            text TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            UNIQUE (game_id, name)
        )
        """,
    ),
    # Version 3: tables shared between processes (issue 6). A join code is unique
    # only among tables that are not closed, so codes are reused over time. Only
    # hashes of tokens are stored; claims name presence lock files.
    (
        """
        CREATE TABLE tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            code TEXT NOT NULL,
            game_id TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
            host_claim TEXT,
            host_name TEXT NOT NULL,
            host_token_hash TEXT NOT NULL,
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            allow_spectators INTEGER NOT NULL DEFAULT 0 CHECK (allow_spectators IN (0, 1)),
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )
        """,
        "CREATE UNIQUE INDEX tables_live_code ON tables (code) WHERE status != 'closed'",
        "CREATE INDEX tables_by_session ON tables (session_id)",
        """
        CREATE TABLE table_seats (
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat >= 0),
            role TEXT NOT NULL CHECK (role IN ('remote', 'local', 'bot')),
            name TEXT NOT NULL,
            bot_level TEXT,
            claim TEXT,
            token_hash TEXT,
            dropped_at TEXT,
            PRIMARY KEY (table_id, seat)
        )
        """,
        # Under `coven serve` each account sees only its own sessions (NULL: made at this machine).
        "ALTER TABLE sessions ADD COLUMN owner TEXT",
    ),
    # Version 4: what a player chose last (the new-game form, settings), per served
    # account; '' is this machine's own. Values are JSON text, checked again on reading.
    (
        """
        CREATE TABLE preferences (
            account TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated TEXT NOT NULL,
            PRIMARY KEY (account, key)
        )
        """,
    ),
    # Version 5: the version of its game's rulings a session began under, so it replays under them
    # when a later Coven changes a ruling. NULL: begun before rulings had versions, that is version 1.
    ("ALTER TABLE sessions ADD COLUMN rules_version INTEGER",),
    # Version 6: table talk (issue 16). Lines said at a shared table, kept with its session for the replay
    # (after_seq: how many actions the log held when said; 0 in the lobby), who watches a table, and
    # whether the host lets spectators talk. Every text is checked again on reading.
    (
        """
        CREATE TABLE table_chat (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
            after_seq INTEGER NOT NULL DEFAULT 0,
            seat INTEGER,
            claim TEXT NOT NULL,
            name TEXT NOT NULL,
            line TEXT NOT NULL,
            said TEXT NOT NULL
        )
        """,
        "CREATE INDEX table_chat_by_table ON table_chat (table_id, id)",
        "CREATE INDEX table_chat_by_session ON table_chat (session_id, id)",
        """
        CREATE TABLE table_watchers (
            table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            claim TEXT NOT NULL,
            name TEXT NOT NULL,
            since TEXT NOT NULL,
            PRIMARY KEY (table_id, claim)
        )
        """,
        "ALTER TABLE tables ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 1",
    ),
    # Version 7: rematches and running series (issue 16). A rematch stores the id of its series' first
    # session (NULL: no rematch led to it); a finished session the seats that won it as a JSON list
    # ('[]': a draw; NULL: finished before this version), so a series is counted without replaying; a
    # table the rematch its players are being asked about (JSON, checked on reading; NULL: none).
    (
        "ALTER TABLE sessions ADD COLUMN series INTEGER",
        "ALTER TABLE sessions ADD COLUMN winners TEXT",
        "ALTER TABLE tables ADD COLUMN rematch TEXT",
    ),
    # Version 8: whether the host lets the seated players ask a game's coach during play (issue 17). Tables
    # from before never offered it, so they stay without.
    ("ALTER TABLE tables ADD COLUMN coach INTEGER NOT NULL DEFAULT 0 CHECK (coach IN (0, 1))",),
)
"""Schema migrations; entry ``i`` upgrades the database to version ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The newest schema this code knows."""

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


def open_database(path: Path, timeout: float,
                  recreated: list[str] | None = None) -> tuple[sqlite3.Connection, Path | None]:
    """Open (creating or repairing if needed) and migrate the database at ``path``.

    Args:
        path: The database file.
        timeout: Seconds to wait for another process's lock.
        recreated: Filled with the names of recreatable tables that were missing and were made again.

    Returns:
        The connection in autocommit mode, and where a damaged file was moved
        (None when nothing had to be moved).

    Raises:
        NewerSchemaError: the file's schema is newer than :data:`SCHEMA_VERSION`.
        StoreError: the file cannot be opened or repaired.
    """
    made = [] if recreated is None else recreated
    try:
        return _open_ready(path, timeout, made), None
    except _Damaged:
        moved_to = move_aside(path)
    try:
        return _open_ready(path, timeout, made), moved_to
    except _Damaged:
        raise StoreError(f"Could not start a fresh session database at {path}.") from None


def _open_ready(path: Path, timeout: float, recreated: list[str]) -> sqlite3.Connection:
    """Verify, connect, migrate and check that Coven's writes compile; raise :class:`_Damaged` on damage."""
    # The read-only probe stays open until the end: while it is, closing a
    # connection that met damage cannot fold the -wal into the file (the last
    # connection to close does that), so the file is moved aside as it was.
    probe = _probe(path, timeout) if path.exists() else None
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
            raise _cannot("prepare", path, error) from None
        except BaseException:
            conn.close()
            raise
        return conn
    finally:
        if probe is not None:
            probe.close()


def _probe(path: Path, timeout: float) -> sqlite3.Connection:
    """A read-only connection to the existing file at ``path``, verified (see :func:`_verify`)."""
    # Read-only, so neither a refused newer database nor a damaged one (or its WAL) is altered.
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
    except (sqlite3.Error, UnicodeDecodeError) as error:
        if is_damage(error):
            raise _Damaged from None
        raise _cannot("open", path, error) from None
    try:
        _verify(probe, path)
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


def _verify(conn: sqlite3.Connection, path: Path) -> None:
    """Raise unless ``conn`` is a healthy Coven database this code can use."""
    try:
        # One read transaction: another Coven creating the schema meanwhile is seen either not at all or
        # whole. Read apart, "version 0" and then its new tables would look like another program's file.
        conn.execute("BEGIN")
        try:
            _verify_snapshot(conn)
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
        if is_damage(error):
            raise _Damaged from None
        # Busy, locked or permission errors are not damage: never move a healthy file.
        raise _cannot("open", path, error) from None


def _verify_snapshot(conn: sqlite3.Connection) -> None:
    """:func:`_verify`'s checks, inside its read transaction."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(version, SCHEMA_VERSION)
    if version < 0:
        raise _Damaged  # no Coven writes a negative schema number: a flipped bit in the header
    if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
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
