"""Typed errors raised by :mod:`saves`, each with a message fit for a person."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """The session database could not be used; the message says why."""


class NotWritableError(StoreError):
    """Coven's data folder, or the database file in it, cannot be written; what is saved can still be read.

    Attributes:
        folder: The data folder.
        database: The database file when only it is read-only (its folder can be written), else None.
    """

    def __init__(self, folder: Path, database: Path | None = None, *, outcome: str = "nothing was saved") -> None:
        if database is None:
            text = (f"Coven's data folder {folder} cannot be written, so {outcome}. "
                    "Make it writable, or set COVEN_DATA_DIR to a folder you can write.")
        else:
            text = (f"The session database {database} is read-only, so {outcome}. "
                    "Make it writable, or set COVEN_DATA_DIR to another folder.")
        super().__init__(text)
        self.folder = folder
        self.database = database


class DiskFullError(StoreError):
    """The disk that holds Coven's data folder is full.

    Attributes:
        folder: The data folder.
    """

    def __init__(self, folder: Path, *, outcome: str = "nothing was saved") -> None:
        super().__init__(f"The disk holding {folder} is full, so {outcome}. Free some space on it, then try again.")
        self.folder = folder


class DataFolderError(StoreError, OSError):
    """Coven's data folder does not exist and cannot be made (an ``OSError`` too, as before)."""


class NewerSchemaError(StoreError, ValueError):
    """The database was written by a newer Coven and is left untouched."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"This database was written by a newer Coven (schema {found}; this Coven knows up to {known}). "
            "Upgrade Coven, or set COVEN_DATA_DIR to use another folder."
        )
        self.found = found
        self.known = known


class LogConflictError(StoreError, ValueError):
    """An append would fork a session's log (another process got there first)."""


class SessionNotFoundError(StoreError, LookupError):
    """No session has the requested id."""

    def __init__(self, session_id: int) -> None:
        super().__init__(f"There is no saved session {session_id}.")
        self.session_id = session_id


class SessionLoadError(StoreError, ValueError):
    """A stored session exists but cannot be rebuilt (unknown game, bad log)."""


class DamagedSessionError(SessionLoadError):
    """A stored session holds values Coven never writes (or its log's index disagrees); it is not opened.

    Attributes:
        session_id: The session.
        reason: What is wrong, in words, without the session's number.
    """

    def __init__(self, session_id: int, reason: str) -> None:
        super().__init__(damaged_message(session_id, reason))
        self.session_id = session_id
        self.reason = reason


def damaged_message(session_id: int, reason: str) -> str:
    """"Session 3 is damaged and cannot be opened: <reason>. Run `coven doctor` ..."."""
    return (
        f"Session {session_id} is damaged and cannot be opened: {reason}. "
        "Run `coven doctor` to check the whole database."
    )


class SessionFileError(ValueError):
    """An exported session file is unreadable or invalid; nothing was imported."""


class SessionFileExistsError(SessionFileError):
    """An export would replace an existing file, and replacing was not allowed."""

    def __init__(self, path: object) -> None:
        super().__init__(f"{path} already exists; choose another name or allow replacing it.")
        self.path = path
