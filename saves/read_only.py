"""Reading a session database whose folder cannot be written: a read-only disk, or another user's folder.

SQLite reads a database in WAL mode through an index in its ``-shm`` file,
which it creates beside the database if missing; in a folder that cannot be
written it cannot, and every read fails with "unable to open database file".
So :func:`read_only_uri` picks how to read instead:

- A ``-wal`` that holds something needs its ``-shm``. When both exist (a
  Coven that ended without closing, or one writing from an account that may)
  SQLite reads them read-only (``mode=ro``). Without the ``-shm`` the moves
  kept in the ``-wal`` cannot be read at all, and that is said.
- With no ``-wal`` (or an empty one) everything is in the database file, and
  no one can start writing it: a writer must create the ``-wal`` in this same
  folder. So it is opened ``immutable``, which needs no ``-shm`` and takes no
  lock. (Immutable reading would ignore a ``-wal`` that holds moves, which is
  why it is never used when one does.)

Nothing here opens those files: only their names are looked at (``os.stat``),
as :mod:`saves.sharing` requires.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from saves.errors import NotWritableError, StoreError
from saves.paths import can_write
from saves.schema import SCHEMA_VERSION, _creation_sql, _Damaged, _migrate, _verify, missing_tables


def _size(path: Path) -> int | None:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def read_only_uri(path: Path) -> str:
    """The SQLite URI that reads the database at ``path`` without writing anything, in its folder or beside it.

    Raises:
        StoreError: its folder cannot be written and its ``-wal`` holds moves whose ``-shm`` is missing.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if can_write(path.parent):
        return uri  # SQLite makes the -shm it needs
    log_size = _size(Path(f"{path}-wal"))
    if not log_size:
        return f"{uri}&immutable=1"  # no writer can start here, and nothing is kept outside the database file
    if _size(Path(f"{path}-shm")) is None:
        raise StoreError(
            f"Coven cannot read {path}: its folder cannot be written, and the latest moves kept in {path.name}-wal "
            f"can only be read with its index {path.name}-shm, which is missing. Open the folder once where it "
            "can be written (Coven then folds the moves into the database)."
        )
    return uri


def open_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection that reads the database at ``path`` (its folder cannot be written) and never writes.

    A missing database reads as an empty one: a connection to a fresh schema in
    memory, which refuses writes as the file would.

    Raises:
        NewerSchemaError: the file was written by a newer Coven.
        StoreError: it cannot be read, is damaged (and cannot be moved aside
            here), or was written by an older Coven and needs an upgrade that
            cannot be written.
    """
    if not path.exists():
        return _empty()
    uri = read_only_uri(path)
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise StoreError(f"Could not open the session database {path}: {error}") from None
    try:
        _verify(conn, path)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except _Damaged:
        conn.close()
        raise StoreError(
            f"The session database {path} is damaged, and its folder cannot be written, so it cannot be moved "
            "aside. Run `coven doctor` to see what is wrong."
        ) from None
    except BaseException:
        conn.close()
        raise
    if version == 0:  # an empty file (checked: no other program's tables)
        conn.close()
        return _empty()
    if version < SCHEMA_VERSION:
        conn.close()
        raise NotWritableError(path.parent, outcome="this Coven cannot bring its older session database up to date")
    for name in missing_tables(conn, version):
        # Where it can be written, the store makes a lost table again; here it reads as empty, for this connection.
        conn.execute(_creation_sql(version)[name][0].replace("CREATE TABLE", "CREATE TEMP TABLE", 1))
    return conn


def _empty() -> sqlite3.Connection:
    """An empty database of the current schema, in memory, that refuses every write."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _migrate(conn)
    conn.execute("PRAGMA query_only = ON")
    return conn
