"""What a player chose last, kept per account: small JSON values under short keys.

The new-game form remembers its last game, names, seats, decks and options
here, and settings (such as Wizbits' auto-pass) live here too. A served
account's preferences are its own; ``None`` is this machine's own player.
Everything read back is treated as hostile: a value that is not JSON text
within the size bound, or nests too deeply, reads as ``None``, and
:func:`read_preference` and :func:`unreadable_preferences` say why, so a
dropped value is named rather than lost in silence. Callers check what the
value means (a name with ``engine.core.text``, a deck against the saved
decks) before using it.

An account nobody proved (``coven serve --auth none``, where anyone may type
any name) gets a visit account from :func:`begin_visit` instead: what it
chooses is kept in this process's memory for the visit only, never in the
database, and the keys it was given read the host machine's own values until
the visit chooses its own.
"""

from __future__ import annotations

import enum
import json
import math
import re
import secrets
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from engine.core.text import text_problem
from saves.errors import StoreError
from saves.store import SessionStore, utc_now

__all__ = [
    "MAX_KEY_LENGTH", "MAX_VALUE_BYTES", "PreferenceProblem", "PreferenceRead", "UnreadablePreference",
    "begin_visit", "get_preference", "is_visit", "read_preference", "set_preference", "unreadable_preferences",
]

MAX_VALUE_BYTES = 16 * 1024
"""A value's JSON text may be at most this long (a whole new-game form is under 2 KiB)."""

MAX_KEY_LENGTH = 64
"""A key is 1-64 ASCII letters, digits, ``.``, ``_``, ``-`` or ``:``."""

_MAX_ACCOUNT_LENGTH = 64
_MAX_DEPTH = 16
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_MACHINE = ""  # the stored account of this machine's own player; a served account is never empty
# One byte past the bound is enough to tell "too big" without loading a hostile giant into memory.
_STORED_VALUE = f"CAST(substr(CAST(value AS BLOB), 1, {MAX_VALUE_BYTES + 1}) AS BLOB)"


class PreferenceProblem(enum.Enum):
    """Why a stored value cannot be read; each value is how a report words it."""

    NOT_JSON = "not JSON"
    TOO_BIG = f"too big: over {MAX_VALUE_BYTES // 1024} KiB"
    TOO_DEEP = f"too deep: nested over {_MAX_DEPTH} levels"
    BAD_TEXT = "bad text: not UTF-8"
    NOT_A_NUMBER = "not a number: NaN, Infinity or too many digits"


@dataclass(frozen=True)
class PreferenceRead:
    """What one stored preference reads as.

    Attributes:
        value: The JSON value, or None when nothing usable is stored.
        problem: Why a stored value could not be read; None when it read (or nothing was stored).
    """

    value: Any = None
    problem: PreferenceProblem | None = None


@dataclass(frozen=True)
class UnreadablePreference:
    """A stored preference whose value cannot be read, with the row's key columns.

    Attributes:
        account: The stored account: ``""`` for this machine's own player, else a served account.
        key: The preference key (``setting.theme``...).
        problem: Why its value cannot be read.
        rowid: The row's SQLite rowid, which names it even when its account or key is not valid text
            (those are then shown with the bad bytes replaced).
    """

    account: str
    key: str
    problem: PreferenceProblem
    rowid: int

    @property
    def for_this_machine(self) -> bool:
        """True for this machine's own player's preference, False for a served account's."""
        return self.account == _MACHINE


@dataclass
class _Visit:
    """A visit account's preferences: JSON text by key, and the keys that read the machine's own until set."""

    seeded: frozenset[str]
    values: dict[str, bytes] = field(default_factory=dict)


_VISITS: dict[str, _Visit] = {}
"""This process's visit accounts (one per unproven SSH player, whose Coven is a process of its own)."""

VISIT_PREFIX = "~visit:"


def begin_visit(seeded: Collection[str] = ()) -> str:
    """A new visit account, whose preferences live in this process only and end with it.

    Args:
        seeded: Keys that read this machine's own value until the visit sets its own
            (the host's defaults, such as its theme); every other key starts empty.
    """
    account = VISIT_PREFIX + secrets.token_hex(12)  # random: no other player's visit, nor a stored account, has it
    _VISITS[account] = _Visit(frozenset(seeded))
    return account


def is_visit(account: str | None) -> bool:
    """Whether ``account`` is a visit account of this process (see :func:`begin_visit`)."""
    return account is not None and account in _VISITS


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


class _NotANumber(ValueError):
    """A NaN, an infinity or an integer Python will not read, met while parsing."""


def _refuse_constant(name: str) -> Any:
    raise _NotANumber(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: JSON text, but no number Coven would have written
        raise _NotANumber(f"{text[:20]} is out of range")
    return number


def _readable_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # more digits than Python converts
        raise _NotANumber("an integer with too many digits") from None


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


def _decode(stored: object) -> PreferenceRead:
    """What a stored value (its bytes, at most one past the bound) reads as, or why Coven would not have written it."""
    if not isinstance(stored, bytes):
        return PreferenceRead(problem=PreferenceProblem.NOT_JSON)  # NULL: no text at all
    if len(stored) > MAX_VALUE_BYTES:
        return PreferenceRead(problem=PreferenceProblem.TOO_BIG)
    try:
        text = stored.decode("utf-8")
    except UnicodeDecodeError:
        return PreferenceRead(problem=PreferenceProblem.BAD_TEXT)
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_readable_int)
    except _NotANumber:
        return PreferenceRead(problem=PreferenceProblem.NOT_A_NUMBER)
    except RecursionError:
        return PreferenceRead(problem=PreferenceProblem.TOO_DEEP)
    except ValueError:
        return PreferenceRead(problem=PreferenceProblem.NOT_JSON)
    if _depth(value) > _MAX_DEPTH:
        return PreferenceRead(problem=PreferenceProblem.TOO_DEEP)
    if "\\u" in text and not _encodable(value):
        return PreferenceRead(problem=PreferenceProblem.BAD_TEXT)  # an escaped lone surrogate: no character at all
    return PreferenceRead(value)


def _encodable(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def get_preference(store: SessionStore, account: str | None, key: str, *, strict: bool = False) -> Any:
    """What ``account`` last stored under ``key``; None when nothing (usable) is stored.

    A damaged or hostile value, an unusable account or key, and a store that
    cannot be read all read as None: a preference is never worth a crash.
    The value is plain JSON (dict, list, str, int, float, bool or None); check
    what it means before using it. :func:`read_preference` also says why a
    stored value could not be read.

    Args:
        strict: Raise instead when the store cannot be read, for a caller about to
            write back a value built on what it read (nothing stored is still None).

    Raises:
        StoreError: only with ``strict``, when the store could not be read.
    """
    return read_preference(store, account, key, strict=strict).value


def read_preference(store: SessionStore, account: str | None, key: str, *, strict: bool = False) -> PreferenceRead:
    """What ``account`` stored under ``key``, and why it could not be read if it could not.

    As :func:`get_preference`, but a stored value that is damaged comes back
    with its :class:`PreferenceProblem` so the caller can name it. An unusable
    account or key, nothing stored, and (without ``strict``) a store that
    cannot be read have no problem: nothing was dropped.

    Raises:
        StoreError: only with ``strict``, when the store could not be read.
    """
    try:
        column, key = _account_column(account), _check_key(key)
    except ValueError:
        return PreferenceRead()
    visit = _VISITS.get(column)
    if visit is not None:
        if key in visit.values:
            return _decode(visit.values[key])
        return read_preference(store, None, key, strict=strict) if key in visit.seeded else PreferenceRead()
    try:
        with store._read() as conn:
            row = conn.execute(
                f"SELECT {_STORED_VALUE} FROM preferences WHERE account = ? AND key = ?", (column, key)
            ).fetchone()
    except StoreError:
        if strict:
            raise
        return PreferenceRead()
    except (sqlite3.Error, UnicodeError) as error:
        if strict:
            raise StoreError(f"Cannot read a preference: {error}") from error
        return PreferenceRead()
    return PreferenceRead() if row is None else _decode(row[0])


def unreadable_preferences(conn: sqlite3.Connection) -> list[UnreadablePreference]:
    """Every stored preference whose value cannot be read, of every account, in rowid order.

    Only reads: ``conn`` may be read-only (as ``coven doctor``'s is). The rows
    found can be removed by their rowid, or written over by their account and key.

    Raises:
        sqlite3.Error: the table cannot be read.
    """
    found = []
    rows = conn.execute(
        f"SELECT rowid, CAST(account AS BLOB), CAST(key AS BLOB), {_STORED_VALUE} FROM preferences ORDER BY rowid"
    )
    for rowid, account, key, stored in rows:
        problem = _decode(stored).problem
        if problem is not None:
            found.append(UnreadablePreference(_lenient(account), _lenient(key), problem, int(rowid)))
    return found


def _lenient(stored: object) -> str:
    """A key column as text, bad bytes replaced (it is only shown; the rowid names the row)."""
    return stored.decode("utf-8", "replace") if isinstance(stored, bytes) else ""


def set_preference(store: SessionStore, account: str | None, key: str, value: object) -> None:
    """Store ``value`` (JSON) under ``key`` for ``account`` (None: this machine), replacing what was there.

    Raises:
        ValueError: the account, key or value is unusable (not JSON, too large, too deep); nothing was stored.
        StoreError: the database could not be written.
    """
    column, key = _account_column(account), _check_key(key)
    text = _encode(value)
    visit = _VISITS.get(column)
    if visit is not None:
        visit.values[key] = text.encode("utf-8")  # for this visit only: nothing reaches the database
        return
    with store._write() as conn:
        conn.execute(
            "INSERT INTO preferences (account, key, value, updated) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (account, key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
            (column, key, text, utc_now()),
        )
