"""Damaging stored preferences as a disk, a crash or a hostile program might, past every check Coven makes."""

from __future__ import annotations

import sqlite3

from saves import db_path


def allow_null_values() -> None:
    """Rebuild the preferences table's schema without ``NOT NULL`` on its value, as a hostile program can."""
    conn = sqlite3.connect(db_path())
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, 'value TEXT NOT NULL', 'value') WHERE name = 'preferences'")
    conn.commit()
    conn.close()


def plant(account: str, key: str, stored: bytes | str | None, *, as_text: bool = True) -> None:
    """Store ``stored`` as the row's value exactly, bytes as TEXT (even when not UTF-8) or as a BLOB."""
    with Planter() as planter:
        planter.plant(account, key, stored, as_text=as_text)


class Planter:
    """One connection for planting many values in a row, each committed at once (without waiting for the disk)."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(db_path(), isolation_level=None)
        self.conn.execute("PRAGMA synchronous = OFF")  # a scratch database: no need to wait for the disk

    def __enter__(self) -> Planter:
        return self

    def __exit__(self, *_: object) -> None:
        self.conn.close()

    def plant(self, account: str, key: str, stored: bytes | str | None, *, as_text: bool = True) -> None:
        """As :func:`plant`."""
        cast = "CAST(? AS TEXT)" if as_text and isinstance(stored, bytes) else "?"
        self.conn.execute(f"INSERT OR REPLACE INTO preferences VALUES (?, ?, {cast}, 'then')", (account, key, stored))


def stored_bytes(account: str, key: str) -> bytes:
    """The row's value exactly as stored."""
    conn = sqlite3.connect(db_path())
    try:
        row = conn.execute("SELECT CAST(value AS BLOB) FROM preferences WHERE account = ? AND key = ?",
                           (account, key)).fetchone()
    finally:
        conn.close()
    assert row is not None and isinstance(row[0], bytes)
    return row[0]


def flip(data: bytes, bit: int) -> bytes:
    """``data`` with one bit flipped (bit 0 is the low bit of the first byte)."""
    flipped = bytearray(data)
    flipped[bit // 8] ^= 1 << (bit % 8)
    return bytes(flipped)
