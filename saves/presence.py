"""Process liveness through advisory file locks.

Each Coven process that hosts or sits at a table holds an exclusive ``flock``
on ``presence/<claim>.lock`` for its whole life. The operating system drops
the lock when the process ends in any way (exit, crash, SIGKILL, a hung-up
SSH connection), so another process can tell a live holder from a gone one
without timeouts or heartbeats.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
from pathlib import Path
from types import TracebackType

from saves.paths import data_dir

_CLAIM_PATTERN = re.compile(r"[0-9a-f]{16}")
"""What :func:`secrets.token_hex` (8 bytes) gives; anything else never names a file."""


class Presence:
    """This process's liveness marker: a lock held on ``<directory>/<claim>.lock``.

    Attributes:
        directory: Where the lock files live (``data_dir()/"presence"`` by default).
        claim: This process's random claim, stored in the table rows it holds.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else data_dir() / "presence"
        # Lock names are claims, which the tables store: not for other users to list.
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.claim = secrets.token_hex(8)
        self._path = self.directory / f"{self.claim}.lock"
        # Lock a private file first, then rename it into place: a file under the
        # final name is then always locked, so no other process can ever find it
        # unlocked, take it for a dead claim and delete it.
        staging = self.directory / f".{self.claim}.new"
        fd = os.open(staging, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(staging, self._path)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                staging.unlink()
            raise
        self._fd: int | None = fd
        self._sweep()

    def _sweep(self) -> None:
        # Lock files of processes that died unnoticed would otherwise pile up;
        # alive() removes each one it finds unlocked.
        for path in self.directory.glob("*.lock"):
            self.alive(path.stem)

    def alive(self, claim: str) -> bool:
        """True when ``claim`` is this process's own, or another process still holds it.

        A lock file found unlocked belongs to a process that is gone; it is removed.
        """
        if claim == self.claim:
            return self._fd is not None
        if not _CLAIM_PATTERN.fullmatch(claim):
            return False
        path = self.directory / f"{claim}.lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            # We got the lock, so its holder is gone; tidy up while still holding it.
            with contextlib.suppress(OSError):
                path.unlink()
            return False
        finally:
            os.close(fd)

    def close(self) -> None:
        """Give up the claim: remove the lock file, then release the lock. Safe to call twice."""
        if self._fd is None:
            return
        # Unlink before unlocking so nobody can open the file in between and misjudge it.
        with contextlib.suppress(OSError):
            self._path.unlink()
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> Presence:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
