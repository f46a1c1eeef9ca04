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

The pipe is a socket pair, so the server speaks too, one line at a time:
``dropped N`` (:func:`dropped_line`), when it dropped N characters of a paste
too long to pass, which the Coven tells its player (:meth:`ServeStatus.listen`).
The browser door also says and hears a kept seat's lines (:mod:`tui.kept_seat`).

A Coven not started by ``coven serve`` has no such pipe and says nothing.
Nothing here imports Textual: the screens hand in themselves and whether
they hold a seat (:func:`seat_screen_shown`, :func:`seat_screen_gone`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Callable, Mapping

STATUS_FD_VARIABLE = "COVEN_SERVE_STATUS_FD"
"""The environment variable naming the inherited pipe's file descriptor."""
WORDS = frozenset({"ready", "seated", "free"})
"""Everything a Coven may say; the server ignores anything else."""
DROPPED = "dropped"
"""What the server says (``dropped N``) when it dropped N characters of its player's input."""
MAX_LINE = 64
"""The longest line either end reads; longer is cut (nothing that long is ever said)."""
_READ_SIZE = 4096


def dropped_line(characters: int) -> str:
    """The line the server says when it dropped ``characters`` characters of its player's input."""
    return f"{DROPPED} {characters}"


def dropped_notice(characters: int) -> str:
    """What the player is told when ``characters`` characters of their input were dropped."""
    what = "1 character was" if characters == 1 else f"{characters:,} characters were"
    return f"Pasted text too long: {what} dropped. Paste less at a time."


def dropped_count(line: str) -> int | None:
    """The characters a ``dropped N`` line says were dropped; None for any other line."""
    word, _, count = line.partition(" ")
    if word != DROPPED or not count.isascii() or not count.isdecimal() or len(count) > 18:
        return None
    return int(count)


class ServeStatus:
    """The Coven's end of the status pipe, or nothing at all when not served."""

    def __init__(self, fd: int | None) -> None:
        """Talk through ``fd`` (None: say nothing)."""
        self._fd = fd
        self._seated: set[int] = set()
        self._heard = bytearray()
        self._on_dropped: Callable[[int], None] | None = None
        self._on_line: Callable[[str], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

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

    def listen(self, on_dropped: Callable[[int], None], on_line: Callable[[str], None] | None = None) -> None:
        """Hear the server from now on, in the running event loop: ``on_dropped(N)`` for each ``dropped N``,
        ``on_line`` every other line (at most :data:`MAX_LINE` characters)."""
        if self._fd is None or self._loop is not None:
            return
        self._on_dropped = on_dropped
        self._on_line = on_line
        self._loop = asyncio.get_running_loop()
        try:
            self._loop.add_reader(self._fd, self._readable)
        except (OSError, ValueError):  # an old server's one-way pipe, or a descriptor gone: nothing to hear
            self._loop = None

    def _readable(self) -> None:
        """Read what the server said; a line at a time goes to the listener, anything else is ignored."""
        if self._fd is None:
            return
        try:
            data = os.read(self._fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the server's end is closed: it hears nothing more either
            self.close()
            return
        self._heard += data
        *lines, rest = self._heard.split(b"\n")
        self._heard = bytearray(rest[:MAX_LINE])
        for line in lines:
            text = line[:MAX_LINE].decode("ascii", "replace").strip()
            count = dropped_count(text)
            if count is not None and self._on_dropped is not None:
                self._on_dropped(count)
            elif count is None and self._on_line is not None:
                self._on_line(text)

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
            if self._loop is not None:
                loop, self._loop = self._loop, None
                with contextlib.suppress(RuntimeError, ValueError):  # the loop already closed
                    loop.remove_reader(fd)
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
