"""Saved sessions: the SQLite store, live sessions and JSON export/import.

Nothing here imports Textual; the TUI builds on these classes.
"""

from saves.errors import (
    LogConflictError,
    NewerSchemaError,
    SessionFileError,
    SessionFileExistsError,
    SessionLoadError,
    SessionNotFoundError,
    StoreError,
)
from saves.paths import data_dir, db_path
from saves.records import LogEntry, SeatInfo, SessionRecord, SessionStatus, SessionSummary
from saves.schema import SCHEMA_VERSION
from saves.session import LiveSession, describe_result
from saves.store import SessionStore
from saves.transfer import export_session, import_session

__all__ = [
    "SCHEMA_VERSION",
    "LiveSession",
    "LogConflictError",
    "LogEntry",
    "NewerSchemaError",
    "SeatInfo",
    "SessionFileError",
    "SessionFileExistsError",
    "SessionLoadError",
    "SessionNotFoundError",
    "SessionRecord",
    "SessionStatus",
    "SessionStore",
    "SessionSummary",
    "StoreError",
    "data_dir",
    "db_path",
    "describe_result",
    "export_session",
    "import_session",
]
