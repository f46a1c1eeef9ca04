"""Ways to damage a scratch session database as a crash, a disk or a hostile program might."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from saves import SeatInfo, SessionStore, db_path

SEATS = [SeatInfo("Alice"), SeatInfo("Bot Bob", "bot", "easy")]


def two_sessions() -> tuple[int, int]:
    """A good session and one about to be damaged, each with a short log."""
    with SessionStore() as store:
        good = store.create_session("count-to-ten", {"target": 10}, 1, SEATS, log=[(0, {"add": 1})])
        bad = store.create_session("count-to-ten", {"target": 10}, 2, SEATS, log=[(0, {"add": 1}), (1, {"add": 2})])
    return good, bad


def newer_coven_database() -> bytes:
    """Leave the database as a newer Coven would (schema 99, a table this one does not know); return its bytes."""
    conn = sqlite3.connect(db_path())
    conn.execute("CREATE TABLE future (x)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    return db_path().read_bytes()


def write_damage(sql: str, *params: object) -> None:
    """Write what Coven never would, past the schema's CHECKs, as a hostile or broken program might."""
    conn = sqlite3.connect(db_path(), isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute(sql, params)
    conn.close()


def rows(table: str, session_id: int) -> list[tuple[object, ...]]:
    """A session's rows of ``table`` exactly as stored (bytes for text), read without any index."""
    conn = sqlite3.connect(db_path())
    conn.text_factory = bytes
    try:
        return conn.execute(f"SELECT * FROM {table} NOT INDEXED WHERE session_id = ?", (session_id,)).fetchall()
    finally:
        conn.close()


def hide_moves_from_the_index(session_id: int, keep: int) -> None:
    """Damage the ``(session_id, seq)`` index so it lists only ``keep`` of the session's moves.

    A shadow table gets an index holding the same entries minus the hidden
    ones, then the two indexes swap their root pages in the schema. Every page
    is still in use and well formed, so ``quick_check`` passes; only a full
    ``integrity_check`` compares the index with its table.
    """
    conn = sqlite3.connect(db_path(), isolation_level=None)
    conn.execute("CREATE TABLE shadow (session_id, seq, UNIQUE (session_id, seq))")
    conn.execute(
        "INSERT INTO shadow (rowid, session_id, seq) SELECT rowid, session_id, seq FROM actions"
        " WHERE NOT (session_id = ? AND seq > ?)", (session_id, keep),
    )
    roots = dict(conn.execute(
        "SELECT name, rootpage FROM sqlite_master WHERE name IN ('sqlite_autoindex_actions_1', 'sqlite_autoindex_shadow_1')"
    ).fetchall())
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("BEGIN")
    conn.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'sqlite_autoindex_actions_1'",
                 (roots["sqlite_autoindex_shadow_1"],))
    conn.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'sqlite_autoindex_shadow_1'",
                 (roots["sqlite_autoindex_actions_1"],))
    conn.execute("COMMIT")
    conn.close()
    conn = sqlite3.connect(db_path(), isolation_level=None)
    conn.execute("DROP TABLE shadow")  # frees the pages of the full index, now the shadow's
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    assert conn.execute("SELECT count(*) FROM actions WHERE session_id = ?", (session_id,)).fetchone()[0] == keep
    conn.close()


def damaged_copy_with_companions(schema_damage: str) -> bytes:
    """Damage the schema through the write-ahead log and leave the database, -wal and -shm as a crash would."""
    with SessionStore() as store:
        store.create_session("count-to-ten", {}, 1, SEATS)
    source = db_path()
    scratch = source.with_name("scratch.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{scratch}{suffix}")
    writer = sqlite3.connect(scratch, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")  # keep the damage in the -wal
    writer.execute("PRAGMA writable_schema = ON")
    writer.execute(schema_damage)
    for suffix in ("", "-wal", "-shm"):  # copied while open: the -wal is not folded back
        shutil.copy(f"{scratch}{suffix}", f"{source}{suffix}")
    writer.close()
    return Path(f"{source}-wal").read_bytes()


def damage_an_index_page(path: Path) -> None:
    """Overwrite the root page of the sessions' index: only a read of every page (SQLite's quick_check) finds it.

    The header, the schema and the tables' own pages are untouched, so a check of those alone opens the file.
    """
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name = 'sessions_by_updated'"
                        ).fetchone()[0]
    conn.close()
    with path.open("r+b") as file:  # no connection is open in this process
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
