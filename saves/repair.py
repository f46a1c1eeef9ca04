"""``coven doctor --repair``: mend damage confined to some rows, and keep everything else.

Moving a whole database aside for one bad chat line would hide every session,
deck and setting from the app. Where :func:`saves.checkup.examine` finds the
damage confined (a chat line, a preference or a session that cannot be read, a
row that belongs to nothing, an index that disagrees with its table, or one of
the tables that hold only decks, preferences or chat gone), :func:`repair`:

1. holds the database alone (:func:`saves.sharing.sole_use`), so no Coven has it
   open while rows vanish under it;
2. copies every row it will remove, as JSON, into a private file beside the
   database (``coven.sqlite3.repair-<time>.json``, mode 0600), so nothing is
   lost that a person may want back;
3. removes those rows, rebuilds the indexes and recreates a missing table, all
   through SQLite in one transaction, and checks the result before committing.

Damage SQLite itself reports in a table's pages cannot be mended row by row;
then nothing is changed and moving aside stays the way out.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.core.words import plural
from saves.checkup import Checkup, examine
from saves.errors import StoreError
from saves.schema import MIGRATIONS, RECREATABLE_TABLES, missing_tables, recreate_tables
from saves.sharing import sole_use
from saves.table_chat import row_problem

_INDEX_DAMAGE = ("wrong # of entries in index", "missing from index", "non-unique entry in index")
"""Words of ``PRAGMA integrity_check`` lines about an index alone, which REINDEX rebuilds from its table."""

_ROW_DAMAGE = ("to no session or table", "table chat line")
"""Words of :func:`saves.checkup.examine` problems about rows that can be taken out one by one."""


class RepairError(StoreError):
    """The database could not be repaired in place; nothing was changed."""


@dataclass
class Repair:
    """What :func:`repair` did.

    Attributes:
        path: The database file.
        removed: Each kind of row taken out, as a sentence.
        recreated: Tables that were missing and were made again, empty.
        reindexed: Whether the indexes were rebuilt.
        kept_in: The file holding a copy of every removed row (None when no row was removed).
        left: Damage that cannot be mended in place; when not empty, nothing was changed.
    """

    path: Path
    removed: list[str] = field(default_factory=list)
    recreated: list[str] = field(default_factory=list)
    reindexed: bool = False
    kept_in: Path | None = None
    left: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether anything in the database was changed."""
        return bool(self.removed or self.recreated or self.reindexed)


def repair(path: Path, *, timeout: float = 5.0) -> Repair:
    """Mend the confined damage :func:`saves.checkup.examine` finds in the database at ``path``.

    Returns:
        What was done; :attr:`Repair.left` names damage that needs the file moved aside.

    Raises:
        saves.sharing.StoreInUseError: another Coven has the database open.
        RepairError: the copy of the removed rows could not be written, or SQLite refused a change;
            nothing was changed.
    """
    done = Repair(path)
    if not path.exists():
        return done
    with sole_use(path):
        checkup = examine(path, timeout=timeout)
        done.left = beyond_repair(checkup)
        if done.left:
            return done
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
        try:
            conn.text_factory = bytes  # rows are copied as they are stored, bad text and all
            conn.execute("PRAGMA foreign_keys=ON")
            # First the schema: a missing table hides the rows examine() would have looked at.
            _in_transaction(conn, lambda: _mend_schema(conn, checkup, done))
            if done.recreated or done.reindexed:
                checkup = examine(path, timeout=timeout)
                done.left = beyond_repair(checkup)
                if done.left:
                    return done
            _in_transaction(conn, lambda: _mend_rows(conn, checkup, done))
        except sqlite3.Error as error:
            raise RepairError(f"SQLite refused the repair of {path}: {error}. What it had not yet done was "
                              "left as it was.") from None
        finally:
            conn.close()
    return done


def _in_transaction(conn: sqlite3.Connection, change: Callable[[], None]) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        change()
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def beyond_repair(checkup: Checkup) -> list[str]:
    """The findings that cannot be mended in place: a newer file, damaged pages, a schema that is not Coven's."""
    if checkup.newer:
        return ["It was written by a newer Coven; upgrade Coven instead."]
    left = []
    for problem in checkup.problems:
        if problem.startswith("SQLite's full integrity check"):
            if not all(any(words in line for words in _INDEX_DAMAGE) for line in _integrity_lines(problem)):
                left.append(problem)  # a damaged table page: rows cannot be trusted one by one
        elif problem.startswith("The table ") and problem.endswith(" is missing."):
            if problem.removeprefix("The table ").removesuffix(" is missing.") not in RECREATABLE_TABLES:
                left.append(problem)
        elif problem.startswith("The index ") and problem.endswith(" is missing."):
            continue  # an index holds nothing its table does not: it is made again
        elif not any(words in problem for words in _ROW_DAMAGE):
            left.append(problem)
    return left


def _integrity_lines(problem: str) -> list[str]:
    _, _, quoted = problem.partition(": ")
    return [line for line in quoted.removesuffix(".").split("; ") if line]


def _mend_schema(conn: sqlite3.Connection, checkup: Checkup, done: Repair) -> None:
    """Make again a missing recreatable table and any missing index of Coven's; rebuild indexes that disagree.

    A session whose index hides some of its moves reads as damaged until the
    index is rebuilt, so this comes before any row is judged.
    """
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    done.recreated = missing_tables(conn, version)
    recreate_tables(conn, version, done.recreated)
    _recreate_indexes(conn, version)
    if any(problem.startswith("SQLite's full integrity check") for problem in checkup.problems):
        conn.execute("REINDEX")
        done.reindexed = True


def _mend_rows(conn: sqlite3.Connection, checkup: Checkup, done: Repair) -> None:
    """Copy, then take out, every damaged row; rebuild damaged indexes; check the result."""
    removed: list[dict[str, Any]] = []
    if "table_chat" in _present(conn):
        chat = [rowid for rowid, *row in conn.execute(
            "SELECT rowid, id, table_id, session_id, after_seq, seat, claim, name, line, said FROM table_chat")
            if row_problem(tuple(_as_text(value) for value in row)) is not None]
        if chat:
            removed += _take(conn, "table_chat", "rowid IN (%s)" % ",".join("?" * len(chat)), chat)
            done.removed.append(f"{plural(len(chat), 'damaged table chat line')}")
    if checkup.unreadable_preferences:
        rowids = [found.rowid for found in checkup.unreadable_preferences]
        removed += _take(conn, "preferences", "rowid IN (%s)" % ",".join("?" * len(rowids)), rowids)
        done.removed.append(f"{plural(len(rowids), 'unreadable stored preference')} (back to their defaults)")
    for entry in checkup.damaged_sessions:
        for table, column in (("table_chat", "session_id"), ("actions", "session_id"), ("seats", "session_id")):
            if table in _present(conn):
                removed += _copy(conn, table, f"{column} = ?", [entry.session_id])
        # A table whose game is gone is closed, so nobody is sent to a game that is not there.
        if "tables" in _present(conn):
            conn.execute("UPDATE tables SET status = 'closed' WHERE session_id = ?", (entry.session_id,))
        removed += _take(conn, "sessions", "id = ?", [entry.session_id])  # its seats, actions and talk go with it
        done.removed.append(f"session {entry.session_id}, which cannot be opened ({entry.reason})")
    orphans = conn.execute("PRAGMA foreign_key_check").fetchall()
    for table, rowid, _, _ in orphans:
        name = table.decode() if isinstance(table, bytes) else str(table)
        removed += _take(conn, name, "rowid = ?", [rowid])
    if orphans:
        done.removed.append(f"{plural(len(orphans), 'row')} that belonged to no session or table")
    still = [str(row[0], "utf-8", "replace") if isinstance(row[0], bytes) else str(row[0])
             for row in conn.execute("PRAGMA integrity_check")]
    if still != ["ok"]:
        raise sqlite3.DatabaseError("the database still fails its integrity check: " + "; ".join(still[:5]))
    if removed:
        done.kept_in = _keep_copy(done.path, removed)  # before the commit: no row goes without its copy


def _recreate_indexes(conn: sqlite3.Connection, version: int) -> None:
    """Make again any index of Coven's that is missing (they hold nothing a table does not)."""
    memory = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                memory.execute(statement)
        expected = memory.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        wanted = {str(name): str(sql) for name, sql in expected}
    finally:
        memory.close()
    present = {_decoded(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    for name, sql in wanted.items():
        if name not in present:
            conn.execute(sql)


def _present(conn: sqlite3.Connection) -> set[str]:
    return {_decoded(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _decoded(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _as_text(value: object) -> object:
    """A stored value as the app reads it: text that decodes is a string; bytes that do not stay bytes."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value
    return value


def _copy(conn: sqlite3.Connection, table: str, where: str, arguments: list[Any]) -> list[dict[str, Any]]:
    """The rows of ``table`` matching ``where``, each as a JSON-ready record."""
    cursor = conn.execute(f'SELECT rowid, * FROM "{table}" WHERE {where}', arguments)
    names = [str(column[0]) for column in cursor.description]
    return [{"table": table, "rowid": row[0], "columns": {name: _json_value(value)
                                                          for name, value in zip(names[1:], row[1:], strict=True)}}
            for row in cursor.fetchall()]


def _take(conn: sqlite3.Connection, table: str, where: str, arguments: list[Any]) -> list[dict[str, Any]]:
    """Copy, then delete, the rows of ``table`` matching ``where``."""
    rows = _copy(conn, table, where, arguments)
    conn.execute(f'DELETE FROM "{table}" WHERE {where}', arguments)
    return rows


def _json_value(value: object) -> Any:
    """A stored value in JSON: numbers and text as they are; bad text, blobs and NaN spelled out."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return {"bytes_hex": value.hex()}
    if isinstance(value, float) and not math.isfinite(value):
        return {"real": repr(value)}
    return value


def _keep_copy(path: Path, rows: list[dict[str, Any]]) -> Path:
    """Write ``rows`` to a new private file beside the database; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    document = {"coven_repair": 1, "database": str(path), "when": datetime.now(UTC).isoformat(), "rows": rows}
    data = json.dumps(document, ensure_ascii=True, indent=1).encode("ascii")
    for counter in range(1, 1000):
        target = path.with_name(f"{path.name}.repair-{stamp}{'' if counter == 1 else f'-{counter}'}.json")
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0),
                         0o600)
        except FileExistsError:
            continue
        except OSError as error:
            raise RepairError(f"Could not write the removed rows to {target}: {error.strerror}; nothing was "
                              "changed.") from None
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
        except OSError as error:
            raise RepairError(f"Could not write the removed rows to {target}: {error.strerror}; nothing was "
                              "changed.") from None
        return target
    raise RepairError(f"Could not find a free name beside {path} for the removed rows; nothing was changed.")
