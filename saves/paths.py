"""Where Coven keeps its files on disk."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

DATA_DIR_ENV = "COVEN_DATA_DIR"
"""Environment variable that overrides the data directory (tests, portable installs)."""

DB_FILENAME = "coven.sqlite3"


def data_dir() -> Path:
    """Return the data directory, creating it if it does not exist yet.

    ``COVEN_DATA_DIR`` wins when set and non-empty; otherwise the platform's
    per-user data folder for "coven" is used.
    """
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir("coven"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def db_path() -> Path:
    """Return the path of the session database inside :func:`data_dir`."""
    return data_dir() / DB_FILENAME
