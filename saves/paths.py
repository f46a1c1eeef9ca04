"""Where Coven keeps its files on disk, and keeping them private to their owner.

The data folder holds live games' secrets (hidden picks, hands, seat-token
hashes) and, under ``coven serve``, the host key and the log of who connected.
So it is made 0700 and every file Coven writes there 0600; a folder left
looser by an older Coven (or a umask) is tightened when the store opens it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from saves.errors import DataFolderError

DATA_DIR_ENV = "COVEN_DATA_DIR"
"""Environment variable that overrides the data directory (tests, portable installs)."""

DB_FILENAME = "coven.sqlite3"

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600

_COVEN_NAMES = frozenset({"presence", "exports", "serve.log"})
"""What Coven itself keeps in the data folder besides the database and its companions.

Only these (and whatever lies under the folders among them) are tightened:
``COVEN_DATA_DIR`` may point at a folder that also holds someone's other files.
The server's host key and password file are not among them on purpose: as
OpenSSH does, ``coven serve`` refuses them when others could read them, since
they may have been copied already; quietly tightening them would hide that.
"""


def data_dir() -> Path:
    """Return the data directory, creating it (mode 0700) if it does not exist yet.

    ``COVEN_DATA_DIR`` wins when set and non-empty; otherwise the platform's
    per-user data folder for "coven" is used. An existing folder is left as it
    is here; :func:`make_private` tightens it.

    Raises:
        DataFolderError: it does not exist and cannot be made (a read-only or full disk, say).
    """
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir("coven"))
    try:
        path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFolderError(f"Coven's data folder {path} is a file, not a folder. "
                              f"Move it, or set {DATA_DIR_ENV} to another folder.") from None
    except OSError as error:
        why = "the disk is full" if error.errno == errno.ENOSPC else (error.strerror or str(error)).lower()
        raise DataFolderError(f"Coven's data folder {path} does not exist and cannot be made ({why}). "
                              f"Make it, or set {DATA_DIR_ENV} to a folder you can write.") from None
    return path


def can_write(path: Path) -> bool:
    """Whether this process may change ``path`` (a folder: make and remove files in it); a read-only disk says no.

    Asked of the system by name (``access``), so nothing is opened: root may
    write anything on a writable disk, and is told so.
    """
    mode = os.W_OK | os.X_OK if path.is_dir() else os.W_OK
    try:
        return os.access(path, mode)
    except (OSError, ValueError):
        return False


def db_path() -> Path:
    """Return the path of the session database inside :func:`data_dir`."""
    return data_dir() / DB_FILENAME


def _is_covens(name: str) -> bool:
    # The database, its -wal/-shm/-journal, and damaged copies moved aside all start with its name.
    return name.startswith(DB_FILENAME) or name in _COVEN_NAMES


def _tighten(path: Path, *, recurse: bool, changed: list[Path], failed: list[Path]) -> None:
    """Take group and other access off ``path`` (and, for a folder when ``recurse``, all below it)."""
    try:
        info = path.lstat()
    except OSError:
        return  # gone meanwhile
    if stat.S_ISLNK(info.st_mode) or not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
        return  # chmod would follow a link to somewhere that is not ours to change
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        try:
            os.chmod(path, mode & ~0o077)
            changed.append(path)
        except FileNotFoundError:
            pass  # a presence lock whose process just ended
        except OSError:
            failed.append(path)
    if recurse and stat.S_ISDIR(info.st_mode):
        with contextlib.suppress(OSError):
            for child in sorted(path.iterdir()):
                _tighten(child, recurse=True, changed=changed, failed=failed)


@dataclass(frozen=True)
class FolderNotice:
    """What :func:`make_private` has to tell: a sentence for the user, and whether it is a worry.

    Attributes:
        text: The sentence.
        exposed: Coven could not close something, so other users may still read its data (a warning);
            when False the folder was open and is now private, which is only news.
    """

    text: str
    exposed: bool = False

    def __str__(self) -> str:
        return self.text


def make_private(directory: Path) -> FolderNotice | None:
    """Create ``directory`` 0700 if missing, else take group and other access off it and Coven's files in it.

    A folder owned by another user, or a shared one with the sticky bit (such as
    ``/tmp``), is left alone: it is not ours to close, and the files Coven
    creates in it are 0600 anyway. A folder Coven creates here is private from
    the start, so there is nothing to tell about it.

    Returns:
        What to tell the user when the folder was open to others, else None.
    """
    directory.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    try:
        info = directory.stat()
    except OSError:
        return None
    if info.st_uid != os.geteuid() or info.st_mode & stat.S_ISVTX:
        return None  # another user's, or a shared sticky folder such as /tmp even when run as root
    changed: list[Path] = []
    failed: list[Path] = []
    _tighten(directory, recurse=False, changed=changed, failed=failed)
    # Behind a private folder a looser file was never reachable, so it is fixed without a word.
    exposed = bool(changed or failed)
    with contextlib.suppress(OSError):
        for child in sorted(directory.iterdir()):
            if _is_covens(child.name):
                _tighten(child, recurse=True, changed=changed, failed=failed)
    if not exposed:
        return None
    if failed:
        names = ", ".join(str(path) for path in failed[:3]) + (" and more" if len(failed) > 3 else "")
        return FolderNotice(f"Other users may be able to read Coven's data in {directory}: could not make {names} "
                            "private.", exposed=True)
    # Done, and nothing to do for the player: said plainly, once (the next start finds the folder private).
    return FolderNotice(f"Coven's data folder {directory} is now private to you; other users could read it before. "
                        "Nothing else changed.")


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 unless it exists; an existing one of ours loses group and other access.

    SQLite gives a database's -wal and -shm files the database file's own mode,
    so creating the file this way before SQLite opens it keeps all three private.
    An existing file is never opened: in a process that already has a connection
    to it, closing any descriptor of it would drop SQLite's locks (see
    :mod:`saves.sharing`), so its mode is changed by name. Errors are left for
    the caller's own open to report.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        with contextlib.suppress(OSError):
            # O_EXCL: a file that did not exist cannot be one this process has a connection to.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE_MODE))
        return
    except OSError:
        return
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid() and mode & 0o077:
        with contextlib.suppress(OSError):
            os.chmod(path, mode & ~0o077)
