"""A new server's session database made before the first player connects.

A player's Coven opens the database at start. On a new server the first one
would otherwise create it and its tables while its player waits (about four
times as long as opening a ready one), and several first players arriving
together would race to do it (SQLite then makes all but one back off and
try again). The server creates it once, before it listens. A database that
already exists is left alone: one that is damaged or from a newer Coven is
each player's Coven's to explain, on its first screen, as before.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

log = logging.getLogger("coven.serve")


def prepare_database(data_dir: Path) -> bool:
    """Create the session database in ``data_dir`` if there is none yet, and close it; whether one was made."""
    from saves import SessionStore, StoreError
    from saves.paths import DB_FILENAME

    path = data_dir / DB_FILENAME
    if path.exists() or path.is_symlink():
        return False
    try:
        SessionStore(path).close()
    except (StoreError, OSError, sqlite3.Error) as error:
        log.warning("the session database could not be made (%s); each player's Coven will say why", error)
        return False
    return True
