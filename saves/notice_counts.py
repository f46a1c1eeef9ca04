"""How many notices went to each player lately, shared by every Coven process of one data folder.

A notice to a player who is away may be sent by any process at their table
(the host's, or another player's), so the count is kept in a small file per
player under ``notices/`` in the data folder, read and rewritten under an
exclusive ``flock``: two processes counting at once cannot both take the
last place. The file is named by a hash of the player's key (an account
name never becomes a path) and holds the send times (UNIX seconds), one a
line; anything unreadable in it counts as nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from saves.paths import data_dir

_MAX_BYTES = 4096
"""A count file is read up to this size; a longer one is damaged, and counts as empty."""


class NoticeCounts:
    """At most ``most`` notices to one player in any ``window`` seconds, counted across processes."""

    def __init__(self, most: int, window: float, directory: Path | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        """Count in ``directory`` (``data_dir()/"notices"`` when None, found when first used)."""
        self.most = most
        self.window = window
        self._directory = directory
        self._clock = clock

    def allow(self, player: str) -> bool:
        """Whether one more notice may go to ``player`` now; counts it if so.

        Raises:
            OSError: the count file could not be used (the caller decides what then).
        """
        directory = self._directory if self._directory is not None else data_dir() / "notices"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        fd = os.open(directory / name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # held for one short read and write
            now = self._clock()
            times = [sent for sent in _times(os.read(fd, _MAX_BYTES + 1))
                     if now - self.window < sent <= now + 1.0]  # a time ahead of the clock is damage
            allowed = len(times) < self.most
            if allowed:
                times.append(now)
                text = "".join(f"{sent:.3f}\n" for sent in times[-self.most:]).encode("ascii")
                os.lseek(fd, 0, os.SEEK_SET)
                os.ftruncate(fd, 0)
                os.write(fd, text)
            return allowed
        finally:
            os.close(fd)  # closing releases the lock


def _times(data: bytes) -> list[float]:
    """The send times in a count file's bytes; a damaged file reads as none."""
    if len(data) > _MAX_BYTES:
        return []
    found = []
    for line in data.decode("ascii", "replace").splitlines():
        try:
            sent = float(line)
        except ValueError:
            continue
        if sent == sent and abs(sent) != float("inf"):  # not NaN, not infinite
            found.append(sent)
    return found
