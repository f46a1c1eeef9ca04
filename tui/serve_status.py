"""Telling ``coven serve`` what only the player's Coven knows about itself.

The server sees bytes, not screens: whether its player's Coven has come up,
and whether the player sits in a game, only the Coven knows. A full server
gives the place of an idle session to a newcomer, but never a seated
player's (:mod:`tui.server.admission`), so the Coven tells it, one word a
line, through a pipe the server opened for it and named in
:data:`STATUS_FD_VARIABLE`:

- ``ready``: the first screen (the main menu, or a table's seats for
  ``ssh CODE@host``) is up;
- ``seated`` / ``free``: a game or a table's lobby where the player holds a
  seat is open, or no longer.

A Coven not started by ``coven serve`` has no such pipe and says nothing.
Nothing here imports Textual: the screens hand in themselves and whether
they hold a seat (:func:`seat_screen_shown`, :func:`seat_screen_gone`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping

STATUS_FD_VARIABLE = "COVEN_SERVE_STATUS_FD"
"""The environment variable naming the inherited pipe's file descriptor."""
WORDS = frozenset({"ready", "seated", "free"})
"""Everything a Coven may say; the server ignores anything else."""


class ServeStatus:
    """The Coven's end of the status pipe, or nothing at all when not served."""

    def __init__(self, fd: int | None) -> None:
        """Talk through ``fd`` (None: say nothing)."""
        self._fd = fd
        self._seated: set[int] = set()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ServeStatus:
        """The pipe that ``coven serve`` named in the environment, if any (and it is open)."""
        value = (os.environ if environ is None else environ).get(STATUS_FD_VARIABLE, "")
        if not value.isdigit():
            return cls(None)
        fd = int(value)
        try:
            # Never handed on to anything this Coven might start, and never a reason to wait.
            os.set_inheritable(fd, False)
            os.set_blocking(fd, False)
        except OSError:
            return cls(None)
        return cls(fd)

    @property
    def talking(self) -> bool:
        """Whether a ``coven serve`` listens at the other end (as far as this end knows)."""
        return self._fd is not None

    def tell(self, word: str) -> None:
        """Say ``word`` to the server; a server gone (or a pipe full) only ends the telling."""
        if self._fd is None:
            return
        try:
            os.write(self._fd, f"{word}\n".encode())
        except OSError:  # BrokenPipeError: the server went; BlockingIOError: it stopped reading
            self.close()

    def screen_shown(self, screen: object, seated: bool) -> None:
        """A game or lobby ``screen`` opened; ``seated`` when it holds a seat for this player."""
        if seated and not self._seated:
            self.tell("seated")
        if seated:
            self._seated.add(id(screen))

    def screen_gone(self, screen: object) -> None:
        """A game or lobby ``screen`` closed."""
        if id(screen) in self._seated:
            self._seated.discard(id(screen))
            if not self._seated:
                self.tell("free")

    def close(self) -> None:
        """Close this end (once)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.close(fd)
            except OSError:
                pass


@functools.cache
def serve_status() -> ServeStatus:
    """This process's status pipe (one Coven process serves one connection), found once in the environment."""
    return ServeStatus.from_environment()


def seat_screen_shown(screen: object, seated: bool) -> None:
    """A game or lobby ``screen`` opened (``seated``: it holds a seat here): tell ``coven serve``, if it listens."""
    serve_status().screen_shown(screen, seated)


def seat_screen_gone(screen: object) -> None:
    """A game or lobby ``screen`` closed: tell ``coven serve``, if it listens."""
    serve_status().screen_gone(screen)
