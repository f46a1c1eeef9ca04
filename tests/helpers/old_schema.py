"""Databases as an older Coven left them, for the tests of a migration: built by the first migrations only."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from saves import db_path
from saves.schema import MIGRATIONS

OLD_CODE = "KXMP"
"""The join code of the table :func:`old_lobby` leaves."""


def old_schema(version: int) -> sqlite3.Connection:
    """A new database at :func:`saves.db_path` made by the first ``version`` migrations, open for rows to add."""
    conn = sqlite3.connect(db_path())
    for statements in MIGRATIONS[:version]:
        for statement in statements:
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {int(version)}")
    return conn


def old_lobby(version: int, *, host_claim: str | None = "c") -> None:
    """A schema-``version`` database holding one Wizards Cup table in its lobby, :data:`OLD_CODE`.

    Hal hosts it (seat 1, at his terminal; ``host_claim`` None: he is not connected), seat 2 is open for a remote
    player and spectators are allowed: every column the tables had from their first schema.
    """
    conn = old_schema(version)
    now = datetime.now(UTC).isoformat()
    conn.execute("INSERT INTO tables (code, game_id, options, seed, status, host_claim, host_name, host_token_hash,"
                 " allow_spectators, created, updated) VALUES (?, 'wizards-cup', '{}', 3, 'lobby', ?, 'Hal',"
                 " 'x', 1, ?, ?)", (OLD_CODE, host_claim, now, now))
    conn.execute("INSERT INTO table_seats (table_id, seat, role, name) VALUES (1, 0, 'local', 'Hal')")
    conn.execute("INSERT INTO table_seats (table_id, seat, role, name) VALUES (1, 1, 'remote', 'Seat 2')")
    conn.commit()
    conn.close()
