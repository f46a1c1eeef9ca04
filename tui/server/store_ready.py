"""A new server's session database made before the first player connects.

A player's Coven opens the database at start. On a new server the first one
would otherwise create it and its tables while its player waits (about four
times as long as opening a ready one), and several first players arriving
together would race to do it (SQLite then makes all but one back off and
try again). The server creates it once, before it listens.

A database that already exists is opened once, and every page of it read
(SQLite's ``quick_check``), before anyone plays: that read takes time in
proportion to the file (about 0.1 s for 80 MB), so a player's Coven skips
it and checks only the header, the schema and its writes. Damage found now
is moved aside before any player holds the file, and the log says where. One
from a newer Coven is left as it is: each player's Coven explains it.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

log = logging.getLogger("coven.serve")


def prepare_database(data_dir: Path) -> bool:
    """Create the session database in ``data_dir``, or check an existing one page by page, and close it.

    Returns:
        Whether a new database was made.
    """
    from saves import NewerSchemaError, SessionStore, StoreError
    from saves.paths import DB_FILENAME

    path = data_dir / DB_FILENAME
    if path.is_symlink():
        return False  # each player's Coven refuses it and says why; the server follows no link
    existed = path.exists()
    started = time.monotonic()
    try:
        store = SessionStore(path)
    except NewerSchemaError as error:
        log.warning("the session database is from a newer Coven (%s); each player's Coven will say so", error)
        return False
    except (StoreError, OSError, sqlite3.Error) as error:
        log.warning("the session database could not be %s (%s); each player's Coven will say why",
                    "checked" if existed else "made", error)
        return False
    try:
        if store.moved_to is not None:
            log.warning("the session database was damaged: it was moved to %s and a fresh one was started",
                        store.moved_to)
        elif existed:
            log.info("the session database was checked page by page in %.1f s", time.monotonic() - started)
    finally:
        store.close()
    return not existed
