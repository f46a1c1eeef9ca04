"""Sharing one database among many Coven processes without ever breaking SQLite's locks.

SQLite's locks on the database, its ``-wal`` and its ``-shm`` are POSIX record
locks, and those belong to a *process*: closing any descriptor of one of those
files, or unlocking any byte range of it, in a process that has a connection
silently drops that connection's locks. The next process to close its own
connection then takes itself for the last one, folds the log into the database
and deletes ``-wal`` and ``-shm`` while others still write into them. So Coven
never opens, locks or closes those files itself (SQLite's "How To Corrupt An
SQLite Database File", section 2). Three things here keep to that:

- **Who has it open.** Every open store holds a shared lock on a file of
  Coven's own, ``<database>.lock``, which SQLite never touches. A process keeps
  one descriptor of it while any of its stores is open, and never opens a
  second, so these locks cannot be dropped by accident either. "Is another
  Coven using it?" (:func:`in_use`) and "let me alone move it" (:func:`sole_use`)
  ask for an exclusive lock on that same descriptor: POSIX locks of one process
  never conflict, so only other processes are seen.
- **Files Coven must not open.** A path someone types (a deck list, an export,
  a session file) might name the database or a companion; :func:`refused_file`
  tells :mod:`engine.core.textfile` so before anything is opened.
- **Noticing damage done anyway.** :class:`JournalWatch` remembers which files
  the connection opened and sees, by name only, when one was unlinked or
  replaced under it (by an older Coven, or another program).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from engine.core import textfile
from saves.errors import NotWritableError, StoreError
from saves.paths import can_write

LOCK_SUFFIX = ".lock"
"""The lock file is the database's name with this added: ``coven.sqlite3.lock``."""

COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database, named by adding these."""

_RETRY_SECONDS = 0.02
"""How long to wait between tries while another process holds the lock exclusively (a move aside)."""

_OPEN_FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
"""A lock file planted as a link is refused rather than followed."""


class StoreInUseError(StoreError):
    """Another Coven has the database open, so it cannot be moved or repaired now."""


class JournalLostError(StoreError):
    """The files the connection writes were unlinked or replaced under it; nothing more is written there."""


def lock_path(database: Path) -> Path:
    """The lock file of the database at ``database``."""
    return Path(f"{database}{LOCK_SUFFIX}")


class _Holding:
    """This process's one descriptor of a lock file: how many of its stores hold it, and whether it is held alone."""

    def __init__(self, fd: int, key: tuple[int, int]) -> None:
        self.fd = fd
        self.key = key
        self.count = 0
        self.exclusive = False
        self.pid = os.getpid()


_guard = threading.Lock()
_holdings: dict[tuple[int, int], _Holding] = {}


def _key_of(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _holding_for(path: Path) -> _Holding | None:
    """This process's holding of the lock file at ``path``, made if need be; None where no lock file can be.

    An existing holding is found by name (``os.stat``), so a second descriptor
    of the file is never opened: closing it would drop the first one's locks.
    """
    with contextlib.suppress(OSError):
        holding = _holdings.get(_key_of(os.stat(path)))
        if holding is not None:
            if holding.pid == os.getpid():
                return holding
            _holdings.clear()  # a forked child inherits the table, never the locks: it starts afresh
    fd = _open_lock_file(path)
    if fd is None:
        return None
    holding = _Holding(fd, _key_of(os.fstat(fd)))
    _holdings[holding.key] = holding
    return holding


def _drop_if_unused(holding: _Holding) -> None:
    if holding.count == 0 and not holding.exclusive:
        # No lock of this process is left on the file, so closing its descriptor drops nothing.
        _holdings.pop(holding.key, None)
        with contextlib.suppress(OSError):
            fcntl.lockf(holding.fd, fcntl.LOCK_UN, 1, 0, os.SEEK_SET)
        os.close(holding.fd)


def _open_lock_file(path: Path) -> int | None:
    """A descriptor of the lock file, created 0600 if missing; None where it can be neither made nor read."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | _OPEN_FLAGS, 0o600)
    except OSError:
        pass
    try:
        return os.open(path, os.O_RDONLY | _OPEN_FLAGS)  # a read-only folder: a read lock needs no write access
    except OSError:
        return None


def _lock(fd: int, kind: int) -> bool:
    """Take a lock of ``kind`` (``LOCK_SH``/``LOCK_EX``/``LOCK_UN``) on byte 0 if no other process is in the way."""
    try:
        fcntl.lockf(fd, kind | fcntl.LOCK_NB, 1, 0, os.SEEK_SET)
    except OSError as error:
        if error.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return False
    return True


class StoreHold:
    """A shared hold on the database for as long as one store has it open.

    Taken before the store connects and given back after it closes, so a
    connection is never open without its hold. Where the folder allows no lock
    file at all (read-only, and none was made before), nothing is held: no
    Coven can write there anyway.

    Raises:
        StoreError: another Coven is moving the database aside and did not finish within ``timeout``.
    """

    def __init__(self, database: Path, timeout: float) -> None:
        self._holding: _Holding | None = None
        path = lock_path(database)
        deadline = time.monotonic() + timeout
        while True:
            with _guard:
                holding = _holding_for(path)
                if holding is None:
                    return
                if holding.count > 0 or holding.exclusive or _lock(holding.fd, fcntl.LOCK_SH):
                    holding.count += 1
                    self._holding = holding
                    return
                _drop_if_unused(holding)
            if time.monotonic() >= deadline:
                raise StoreError(f"Another Coven is moving {database} aside; try again in a moment.")
            time.sleep(_RETRY_SECONDS)

    def release(self) -> None:
        """Give the hold back (after the store's connection closed). Safe twice."""
        with _guard:
            holding, self._holding = self._holding, None
            if holding is None or holding.pid != os.getpid():
                return
            holding.count -= 1
            _drop_if_unused(holding)


@contextlib.contextmanager
def sole_use(database: Path) -> Iterator[None]:
    """Hold the database alone for the ``with`` block: no other Coven has it open, and none can open it meanwhile.

    A store of this very process may be open (the damaged one that asks to be
    moved aside): POSIX locks of one process never conflict, so it does not count.

    Raises:
        StoreInUseError: another process has it open.
    """
    with _guard:
        holding = _holding_for(lock_path(database))
        if holding is not None:
            if holding.exclusive:
                raise StoreInUseError(f"{database} is being moved or repaired already.")
            try:
                alone = _lock(holding.fd, fcntl.LOCK_EX)
            except OSError as error:  # a lock file that could only be opened for reading: a read-only folder
                _drop_if_unused(holding)
                if not can_write(database.parent):
                    raise NotWritableError(database.parent, outcome=f"{database.name} cannot be moved aside") from None
                raise StoreError(f"{database} cannot be changed: {error.strerror or error}.") from None
            if not alone:
                _drop_if_unused(holding)
                raise StoreInUseError(f"{database} is in use by another Coven; quit it first, then try again.")
            holding.exclusive = True
    if holding is None:
        yield  # no lock file can exist here, so no Coven holds one
        return
    try:
        yield
    finally:
        with _guard:
            holding.exclusive = False
            if holding.count > 0:
                # Back to shared for this process's own stores; the change is atomic, nothing slips in.
                fcntl.lockf(holding.fd, fcntl.LOCK_SH, 1, 0, os.SEEK_SET)
            _drop_if_unused(holding)


def in_use(database: Path) -> bool:
    """True when another process (another Coven) has the database at ``database`` open.

    Only Coven's own lock file is looked at; the database, ``-wal`` and ``-shm``
    are never opened, so no lock of SQLite's can be dropped by asking.
    """
    try:
        with sole_use(database):
            return False
    except StoreInUseError:
        return True


def _store_files(database: Path) -> list[Path]:
    return [database, lock_path(database), *(Path(f"{database}{suffix}") for suffix in COMPANION_SUFFIXES)]


_protected: dict[Path, str] = {}
"""The files of every database this process opened a store on (resolved names), with the database's path."""


def protect(database: Path) -> None:
    """Have :mod:`engine.core.textfile` refuse the database at ``database`` and its companions from now on."""
    for path in _store_files(database):
        with contextlib.suppress(OSError, RuntimeError):
            _protected[path.resolve()] = str(database)


def refused_file(path: Path, info: os.stat_result | None) -> str | None:
    """Why the file at ``path`` (``info``: its stat, None if new) must not be opened: it is a database's, else None.

    A file is matched by name, and by device and inode as the names stand now
    (a hard link, or another spelling of the folder), never by an inode
    remembered from before: a deleted ``-wal``'s number is soon another file's.
    """
    with contextlib.suppress(OSError, RuntimeError, ValueError):
        database = _protected.get(path.resolve())
        if database is not None:
            return f"part of Coven's session database ({database})"
    if info is None:
        return None
    key = _key_of(info)
    for name, database in _protected.items():
        with contextlib.suppress(OSError):
            if _key_of(os.stat(name)) == key:
                return f"part of Coven's session database ({database})"
    return None


textfile.refuse_with(refused_file)


class JournalWatch:
    """Notices when the files a connection writes were unlinked or replaced under it.

    SQLite keeps the ``-wal`` and ``-shm`` open for the connection's whole life,
    so while it is open each name must stay on the same file. Only names are
    looked at (``os.stat``), never the files opened.
    """

    def __init__(self, database: Path) -> None:
        self._database = database
        self._known: dict[Path, tuple[int, int]] = {}
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            with contextlib.suppress(OSError):
                self._known[path] = _key_of(os.stat(path))
        self.lost: str | None = None

    def check(self) -> None:
        """Raise :class:`JournalLostError` if a watched name is gone or names another file now (said once, kept).

        Raises:
            JournalLostError: the connection's files are not the ones on disk.
        """
        if self.lost is None:
            for path, key in self._known.items():
                try:
                    now: tuple[int, int] | None = _key_of(os.stat(path))
                except FileNotFoundError:
                    now = None
                except OSError:
                    continue  # cannot look (a folder gone unreadable): no evidence either way
                if now != key:
                    self.lost = path.name
                    break
            else:
                return
        raise JournalLostError(
            f"Coven stopped saving: {self.lost} in {self._database.parent} was removed or replaced by another "
            "program while this Coven was writing to it, so nothing more it writes could be read back. "
            "Everything saved before this is kept. Quit Coven and start it again."
        )


def abandon(conn: sqlite3.Connection) -> None:
    """Never close ``conn``: it writes into files others cannot see.

    Closing it would let SQLite fold its stale log into the database, which
    other processes have moved on from, and unlink a ``-wal`` that may now be
    another process's. So a reference is kept that nothing gives back, and the
    connection ends with the process, as if it had been killed: SQLite is made
    for that.
    """
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(conn))
