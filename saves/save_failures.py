"""Saves that fail for a reason that may pass: a full disk, a folder that cannot be written, a held lock.

The store wraps SQLite's errors in :class:`StoreError`. A failure of the disk
or of the data folder itself becomes :class:`DiskFullError` or
:class:`NotWritableError` (:func:`failure_in_words`), naming the folder, since
SQLite's own words ("attempt to write a readonly database", "unable to open
database file") say neither what nor where. A player needs the reason in
words, and the game screen needs to know that trying again later may work, so
:class:`LiveSession` turns such failures into :class:`SaveFailedError`.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from saves.errors import DiskFullError, NotWritableError, StoreError
from saves.paths import can_write
from saves.sharing import JournalLostError

DISK_FULL = "the disk is full"
FOLDER_READ_ONLY = "Coven's data folder cannot be written"
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

_FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
_REFUSED_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})

_LOW_SPACE = 1 << 20
"""Below this much free space, an I/O error in a write is taken for the disk filling up (SQLite says
"disk I/O error" when growing its -shm fails for want of room, where a write of the -wal says "full")."""


class SaveFailedError(StoreError):
    """An action was not saved for a reason that may pass; nothing was stored, so it may be tried again.

    Attributes:
        reason: The cause in words, e.g. "the disk is full".
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"Not saved: {reason}.")
        self.reason = reason


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, then its cause or context, and theirs, each once."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        yield current
        seen.add(id(current))
        current = current.__cause__ or current.__context__


def _sqlite_error_in(error: BaseException) -> sqlite3.OperationalError | None:
    """The SQLite operational error behind ``error`` (itself, its cause or its context), if any."""
    return next((link for link in _chain(error) if isinstance(link, sqlite3.OperationalError)), None)


def _primary_code(error: sqlite3.Error | None) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _no_room(folder: Path) -> bool:
    """True when the file system holding ``folder`` has (almost) no space left for this user."""
    try:
        info = os.statvfs(folder)
    except OSError:
        return False
    free = info.f_bfree if os.geteuid() == 0 else info.f_bavail  # root may use the blocks kept for it
    return free * info.f_frsize < _LOW_SPACE


def failure_in_words(error: BaseException, database: Path, *, outcome: str = "nothing was saved") -> StoreError | None:
    """The failure of the disk or of the data folder behind ``error``, naming the folder; None for any other.

    A full disk is :class:`DiskFullError`, whatever SQLite called it. A folder
    (or database file) that cannot be written is :class:`NotWritableError`:
    SQLite says "readonly" or "unable to open", the system EROFS or EACCES,
    and which it is, is asked of the folder itself, so a refusal for another
    reason keeps SQLite's words.

    Args:
        error: What was raised (an ``sqlite3.Error`` or ``OSError``, or one with such a cause).
        database: The database file.
        outcome: What came of it, for the message ("nothing was saved").
    """
    folder = database.parent
    sqlite = _sqlite_error_in(error)
    code = _primary_code(sqlite)
    if code is None and sqlite is not None and "disk is full" in str(sqlite).lower():
        code = _SQLITE_FULL  # a test's stand-in, or an older SQLite, says it only in words
    number = next((link.errno for link in _chain(error) if isinstance(link, OSError) and link.errno), None)
    if code == _SQLITE_FULL or number in _FULL_ERRNOS or (code == _SQLITE_IOERR and _no_room(folder)):
        return DiskFullError(folder, outcome=outcome)
    if code in (_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_PERM) or number in _REFUSED_ERRNOS:
        if not can_write(folder):
            return NotWritableError(folder, outcome=outcome)
        if code == _SQLITE_READONLY and database.exists() and not can_write(database):
            return NotWritableError(folder, database, outcome=outcome)
    return None


def passing_reason(error: BaseException) -> str | None:
    """The words for a failure that trying again later may cure, or None for any other failure.

    Conflicts, refused seats and constraint failures are not passing: they
    are answers, and asking again gets the same one.
    """
    if isinstance(error, JournalLostError):
        return JOURNAL_LOST  # the game waits with the move unsaved, and the banner says why once
    if isinstance(error, DiskFullError):
        return DISK_FULL
    if isinstance(error, NotWritableError):  # the banner names no folder: a served player never sees the host's paths
        return FOLDER_READ_ONLY if error.database is None else READ_ONLY
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
