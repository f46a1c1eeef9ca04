"""Saves that fail for a reason that may pass: a full disk, a read-only file, a held lock.

The store wraps SQLite's errors in :class:`StoreError` with SQLite's own
wording ("database or disk is full"). A player needs the reason in words,
and the game screen needs to know that trying again later may work, so
:class:`LiveSession` turns such failures into :class:`SaveFailedError`.
"""

from __future__ import annotations

import sqlite3

from saves.errors import StoreError
from saves.sharing import JournalLostError

DISK_FULL = "the disk is full"
READ_ONLY = "the database file is read-only"
LOCKED = "another program holds the database locked"
IO_ERROR = "the disk could not be written"
CANNOT_OPEN = "the database file cannot be opened"
NO_PERMISSION = "Coven may not write the database file"
JOURNAL_LOST = ("another program removed Coven's save files while it wrote to them; every move shown so far "
                "is saved, so quit Coven and start it again to go on")

# SQLite's primary result codes (the low byte of an extended code), from sqlite3.h.
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 13, 14

_BY_CODE = {
    _SQLITE_FULL: DISK_FULL,
    _SQLITE_READONLY: READ_ONLY,
    _SQLITE_BUSY: LOCKED,
    _SQLITE_LOCKED: LOCKED,
    _SQLITE_IOERR: IO_ERROR,
    _SQLITE_CANTOPEN: CANNOT_OPEN,
    _SQLITE_PERM: NO_PERMISSION,
}

# An error raised without a code (an older SQLite, or a test's stand-in) still says what happened.
_BY_TEXT = (
    ("disk is full", DISK_FULL),
    ("readonly", READ_ONLY),
    ("read-only", READ_ONLY),
    ("locked", LOCKED),
    ("busy", LOCKED),
    ("disk i/o error", IO_ERROR),
    ("unable to open", CANNOT_OPEN),
)


class SaveFailedError(StoreError):
    """An action was not saved for a reason that may pass; nothing was stored, so it may be tried again.

    Attributes:
        reason: The cause in words, e.g. "the disk is full".
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"Not saved: {reason}.")
        self.reason = reason


def _sqlite_error_in(error: BaseException) -> sqlite3.OperationalError | None:
    """The SQLite operational error behind ``error`` (itself, its cause or its context), if any."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, sqlite3.OperationalError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def passing_reason(error: BaseException) -> str | None:
    """The words for a failure that trying again later may cure, or None for any other failure.

    Conflicts, refused seats and constraint failures are not passing: they
    are answers, and asking again gets the same one.
    """
    if isinstance(error, JournalLostError):
        return JOURNAL_LOST  # the game waits with the move unsaved, and the banner says why once
    cause = _sqlite_error_in(error)
    if cause is None:
        return None
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _BY_CODE:
        return _BY_CODE[code & 0xFF]
    text = str(cause).lower()
    for words, reason in _BY_TEXT:
        if words in text:
            return reason
    return None
