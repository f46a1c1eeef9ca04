"""How many notices went to each player lately, shared by every Coven process of one data folder.

A notice to a player who is away may be sent by any process at their table
(the host's, or another player's), so the count is kept on disk: a folder
per player under ``notices/`` in the data folder (named by a hash of the
player's key, so an account name never becomes a path), holding one empty
*ticket* file per notice, named by its send time and a random tail.

No lock is taken (only :mod:`saves.sharing` and :mod:`saves.presence` lock
files). A process first creates its ticket, then lists the folder: its
notice may go when at most ``most`` tickets within the window are there,
its own included; otherwise it removes its ticket again. Of two processes
racing for the last place, the one that lists second always sees the
first's ticket, so they never both take it (at worst both step back, and
the player gets one notice fewer). A name that is not a ticket, or a time
ahead of the clock, counts as nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from saves.paths import data_dir

_TICKET = re.compile(r"(\d{13}\.\d{6})-[0-9a-f]{8}")
"""A ticket's name: UNIX seconds (fixed width), then a random tail so two tickets never share a name."""

_AHEAD = 1.0
"""Seconds a ticket may seem to be ahead of this process's clock (another's read it a moment later)."""


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
            OSError: the count could not be kept (the caller decides what then).
        """
        base = self._directory if self._directory is not None else data_dir() / "notices"
        folder = base / hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        now = self._clock()
        mine = f"{now:020.6f}-{secrets.token_hex(4)}"
        os.close(os.open(folder / mine, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        others = 0
        for name in os.listdir(folder):
            ticket = _TICKET.fullmatch(name)
            if ticket is None or name == mine:
                continue  # not Coven's, which counts as nothing; or this notice's own
            sent = float(ticket.group(1))
            if sent <= now - self.window:
                with contextlib.suppress(OSError):
                    (folder / name).unlink()  # an old ticket: its hour is over
            elif sent <= now + _AHEAD:
                others += 1
        if others >= self.most:
            with contextlib.suppress(OSError):
                (folder / mine).unlink()
            return False
        return True
