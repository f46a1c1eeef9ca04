"""What a player chose last, kept per account: small JSON values under short keys.

The new-game form remembers its last game, names, seats, decks and options
here, and settings (such as Wizbits' auto-pass) live here too. A served
account's preferences are its own; ``None`` is this machine's own player.
Everything read back is treated as hostile: a value that is not JSON text
within the size bound, or nests too deeply, reads as ``None``. Callers check
what the value means (a name with ``engine.core.text``, a deck against the
saved decks) before using it.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from engine.core.text import text_problem
from saves.errors import StoreError
from saves.store import SessionStore, utc_now

__all__ = ["MAX_KEY_LENGTH", "MAX_VALUE_BYTES", "get_preference", "set_preference"]

MAX_VALUE_BYTES = 16 * 1024
"""A value's JSON text may be at most this long (a whole new-game form is under 2 KiB)."""

MAX_KEY_LENGTH = 64
"""A key is 1-64 ASCII letters, digits, ``.``, ``_``, ``-`` or ``:``."""

_MAX_ACCOUNT_LENGTH = 64
_MAX_DEPTH = 16
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_MACHINE = ""  # the stored account of this machine's own player; a served account is never empty


def _account_column(account: str | None) -> str:
    """The stored form of ``account``; raise ValueError for one that cannot be an account."""
    if account is None:
        return _MACHINE
    if not isinstance(account, str) or not account or len(account) > _MAX_ACCOUNT_LENGTH:
        raise ValueError("an account is 1 to 64 characters, or None for this machine")
    problem = text_problem(account)
    if problem is not None:
        raise ValueError(f"an account must not contain {problem}")
    return account


def _check_key(key: str) -> str:
    if not isinstance(key, str) or len(key) > MAX_KEY_LENGTH or _KEY.fullmatch(key) is None:
        raise ValueError(f"a preference key is 1 to {MAX_KEY_LENGTH} ASCII letters, digits, '.', '_', '-' or ':'")
    return key


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (stopping once past the bound)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            if depth > _MAX_DEPTH:
                return depth
            deepest = max(deepest, depth)
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _encode(value: object) -> str:
    """``value`` as compact JSON text; raise ValueError when it is not storable."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise ValueError(f"a preference must be a JSON value: {error}") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_VALUE_BYTES:
        raise ValueError(f"a preference may be at most {MAX_VALUE_BYTES // 1024} KiB of JSON")
    if _depth(value) > _MAX_DEPTH:
        raise ValueError(f"a preference may nest at most {_MAX_DEPTH} levels")
    return text


def _decode(text: object) -> Any:
    """The JSON value stored as ``text``, or None when it is anything Coven would not have written."""
    if not isinstance(text, str) or len(text) > MAX_VALUE_BYTES:
        return None
    try:
        if len(text.encode("utf-8")) > MAX_VALUE_BYTES:
            return None
        value = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError, UnicodeError):
        return None
    return None if _depth(value) > _MAX_DEPTH else value


def get_preference(store: SessionStore, account: str | None, key: str, *, strict: bool = False) -> Any:
    """What ``account`` last stored under ``key``; None when nothing (usable) is stored.

    A damaged or hostile value, an unusable account or key, and a store that
    cannot be read all read as None: a preference is never worth a crash.
    The value is plain JSON (dict, list, str, int, float, bool or None); check
    what it means before using it.

    Args:
        strict: Raise instead when the store cannot be read, for a caller about to
            write back a value built on what it read (nothing stored is still None).

    Raises:
        StoreError: only with ``strict``, when the store could not be read.
    """
    try:
        column, key = _account_column(account), _check_key(key)
    except ValueError:
        return None
    try:
        with store._read() as conn:
            row = conn.execute(
                "SELECT CAST(value AS BLOB) FROM preferences WHERE account = ? AND key = ?", (column, key)
            ).fetchone()
    except StoreError:
        if strict:
            raise
        return None
    except (sqlite3.Error, UnicodeError) as error:
        if strict:
            raise StoreError(f"Cannot read a preference: {error}") from error
        return None
    if row is None or not isinstance(row[0], bytes) or len(row[0]) > MAX_VALUE_BYTES:
        return None
    try:
        text = row[0].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _decode(text)


def set_preference(store: SessionStore, account: str | None, key: str, value: object) -> None:
    """Store ``value`` (JSON) under ``key`` for ``account`` (None: this machine), replacing what was there.

    Raises:
        ValueError: the account, key or value is unusable (not JSON, too large, too deep); nothing was stored.
        StoreError: the database could not be written.
    """
    column, key = _account_column(account), _check_key(key)
    text = _encode(value)
    with store._write() as conn:
        conn.execute(
            "INSERT INTO preferences (account, key, value, updated) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (account, key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
            (column, key, text, utc_now()),
        )
