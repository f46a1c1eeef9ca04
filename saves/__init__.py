"""Saved sessions: the SQLite store, live sessions, shared tables and JSON export/import.

Nothing here imports Textual; the TUI builds on these classes.
"""

from saves.errors import (
    DamagedSessionError,
    LogConflictError,
    NewerSchemaError,
    SessionFileError,
    SessionFileExistsError,
    SessionLoadError,
    SessionNotFoundError,
    StoreError,
)
from saves.integrity import DamagedSession
from saves.paths import data_dir, db_path
from saves.presence import Presence
from saves.records import LogEntry, SeatInfo, SessionRecord, SessionStatus, SessionSummary
from saves.schema import SCHEMA_VERSION
from saves.session import LiveSession, describe_result
from saves.store import SessionStore
from saves.store_listing import SessionListEntry
from saves.tables import (
    JOIN_CODE_ALPHABET,
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    Hosted,
    SeatClaimError,
    SeatPlan,
    SeatTakenError,
    TableError,
    TableInfo,
    TableNotFoundError,
    TableSeat,
    TableStore,
    normalise_code,
)
from saves.transfer import export_session, import_session

__all__ = [
    "JOIN_CODE_ALPHABET",
    "RECLAIM_WINDOW_SECONDS",
    "SCHEMA_VERSION",
    "BadTokenError",
    "DamagedSession",
    "DamagedSessionError",
    "Hosted",
    "LiveSession",
    "LogConflictError",
    "LogEntry",
    "NewerSchemaError",
    "Presence",
    "SeatClaimError",
    "SeatInfo",
    "SeatPlan",
    "SeatTakenError",
    "SessionFileError",
    "SessionFileExistsError",
    "SessionListEntry",
    "SessionLoadError",
    "SessionNotFoundError",
    "SessionRecord",
    "SessionStatus",
    "SessionStore",
    "SessionSummary",
    "StoreError",
    "TableError",
    "TableInfo",
    "TableNotFoundError",
    "TableSeat",
    "TableStore",
    "data_dir",
    "db_path",
    "describe_result",
    "export_session",
    "import_session",
    "normalise_code",
]
