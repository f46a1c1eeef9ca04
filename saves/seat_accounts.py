"""Whose a table's seat is: the signed-in account stored with it, for a notice that must reach its player.

The column is written by :class:`saves.tables.TableStore` when a signed-in
player takes (or hosts) a seat; a visit, a player at this machine and a bot
leave it NULL. What is read back is checked before use: a damaged row reads
as no account.
"""

from __future__ import annotations

import sqlite3

from engine.core.text import text_problem
from saves.errors import StoreError
from saves.store import SessionStore

MAX_ACCOUNT_LENGTH = 64


def seat_account(store: SessionStore, table_id: int, seat: int) -> str | None:
    """The signed-in account holding (or last holding) ``seat`` of table ``table_id``, or None.

    None too when the store cannot be read or the stored value is not a usable account name.
    """
    try:
        with store._read() as conn:
            row = conn.execute("SELECT account FROM table_seats WHERE table_id = ? AND seat = ?",
                               (table_id, seat)).fetchone()
    except (StoreError, sqlite3.Error):
        return None
    account = None if row is None else row[0]
    if not isinstance(account, str) or not account or len(account) > MAX_ACCOUNT_LENGTH:
        return None
    return account if text_problem(account) is None else None
