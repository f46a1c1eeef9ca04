"""Who gets a place: the memory floor, what a player's Coven says of itself, and idle seats.

``--max-sessions`` counts sessions, but what runs out is memory: a newcomer
is refused ("This host is full right now") while the machine's available
memory, ``MemAvailable`` in ``/proc/meminfo``, is below ``--memory-floor``.
MemAvailable is the kernel's own estimate of what can be had without
swapping (free memory plus the caches it can drop); where there is no such
file (not Linux) the check is off.

A full server gives the place of an *idle seat* to a newcomer instead of
refusing them: a session admitted at least ``--idle-seat-grace`` ago whose
Coven has not reached its first screen, or whose player has pressed no key
for that long. Never one seated in a game: only the Coven knows that (and
whether it is up), and it tells the server through a pipe it inherits
(:class:`ChildStatus`, the other end :mod:`tui.serve_status`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from tui.serve_status import STATUS_FD_VARIABLE, WORDS

MEMINFO = Path("/proc/meminfo")
_READ_SIZE = 4096
SEAT_CHANGE_SECONDS = 5.0
"""A player who left a seat this recently still counts as seated: going from a table's lobby to its game
(or to a rematch) closes one screen before the next opens, and the moment between must not free the seat."""
MAX_STATUS_LINE = 64
"""Longer lines are no word of a Coven's: they are dropped, and the buffer stays small."""


def available_memory(meminfo: Path = MEMINFO) -> int | None:
    """``MemAvailable`` in bytes, or None where the file or the line is missing or unreadable."""
    try:
        text = meminfo.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == "MemAvailable":
            parts = rest.split()
            if not parts or not parts[0].isdigit():
                return None
            unit = parts[1].lower() if len(parts) > 1 else ""
            return int(parts[0]) * (1024 if unit == "kb" else 1)
    return None


def describe_size(size: int) -> str:
    """``size`` bytes for a log line: "212 MiB", "1.5 GiB"."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GiB"
    return f"{size / (1 << 20):.0f} MiB"


@dataclass(frozen=True)
class MemoryFloor:
    """The available memory below which newcomers are refused (``floor`` 0: never)."""

    floor: int
    meminfo: Path = MEMINFO

    @property
    def enabled(self) -> bool:
        """Whether the check runs: a floor is set and this system tells its available memory."""
        return self.floor > 0 and available_memory(self.meminfo) is not None

    def shortfall(self) -> int | None:
        """The available bytes when they are below the floor; None when there is room or the check is off."""
        if self.floor <= 0:
            return None
        available = available_memory(self.meminfo)
        if available is None or available >= self.floor:
            return None
        return available


class ChildStatus:
    """The server's end of a player's status pipe (a socket pair): whether its Coven is up and seated; :meth:`say` answers.

    Made before the Coven starts; :attr:`child_fd` goes to the child (and
    :meth:`environment` tells it which descriptor that is), then
    :meth:`listen` closes the server's copy of it and reads what comes.
    """

    def __init__(self, on_change: Callable[[str], None] | None = None,
                 on_other: Callable[[str], None] | None = None) -> None:
        """A fresh pipe; nothing said yet. ``on_change`` hears each word that changes what is known; ``on_other``
        every other line (the browser door's kept seat, :mod:`tui.kept_seat`), which is otherwise ignored."""
        self._on_change = on_change
        self._on_other = on_other
        self.ready = False
        self._seated = False
        self._left_seat_at = -SEAT_CHANGE_SECONDS
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)  # both ways: see :meth:`say`
        # Neither end is inherited unless handed on by name; kept as plain descriptors, as a pipe's would be.
        self._fd: int | None = ours.detach()
        self.child_fd = theirs.detach()
        os.set_blocking(self._fd, False)
        self._buffer = bytearray()
        self._listening = False

    @property
    def seated(self) -> bool:
        """Whether the child is seated in a game, or left its seat less than :data:`SEAT_CHANGE_SECONDS` ago."""
        return self._seated or time.monotonic() - self._left_seat_at < SEAT_CHANGE_SECONDS

    @property
    def closed(self) -> bool:
        """Whether the pipe is closed: the child ended (everything it said was heard), or the session did."""
        return self._fd is None

    def environment(self) -> dict[str, str]:
        """What the child's environment needs to find its end of the pipe."""
        return {STATUS_FD_VARIABLE: str(self.child_fd)}

    def listen(self) -> None:
        """The child started (with its copy of :attr:`child_fd`): close ours and read what it says."""
        self._close_child_end()
        if self._fd is not None and not self._listening:
            asyncio.get_running_loop().add_reader(self._fd, self._readable)
            self._listening = True

    def _readable(self) -> None:
        """Read the words that came; the child's exit (end of file) closes the pipe."""
        if self._fd is None:
            return
        try:
            data = os.read(self._fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self._buffer += data
        *lines, rest = self._buffer.split(b"\n")
        self._buffer = bytearray(rest[:MAX_STATUS_LINE])
        for line in lines:
            self.hear(line.decode("ascii", "replace").strip())

    def hear(self, word: str) -> None:
        """Take in one word from the child; anything but :data:`tui.serve_status.WORDS` goes to ``on_other``."""
        if word not in WORDS:
            if self._on_other is not None:
                self._on_other(word)
            return
        before = (self.ready, self._seated)
        if word == "ready":
            self.ready = True
        else:
            if self._seated and word == "free":
                self._left_seat_at = time.monotonic()
            self._seated = word == "seated"
        if (self.ready, self._seated) != before and self._on_change is not None:
            self._on_change(word)

    def say(self, line: str) -> bool:
        """Say ``line`` to the child (see :mod:`tui.serve_status`); False when it could not hear it now.

        Never waits: a child that reads nothing (its buffer full) or has gone simply misses the line.
        """
        if self._fd is None:
            return False
        try:
            return os.write(self._fd, f"{line}\n".encode()) > 0
        except OSError:  # BlockingIOError: not reading; BrokenPipeError: gone
            return False

    def _close_child_end(self) -> None:
        if self.child_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.child_fd)
            self.child_fd = -1

    def close(self) -> None:
        """Close both ends that the server still holds (once); what was heard is kept."""
        self._close_child_end()
        if self._fd is not None:
            fd, self._fd = self._fd, None
            if self._listening:
                with contextlib.suppress(RuntimeError):  # no loop any more: nothing to remove
                    asyncio.get_running_loop().remove_reader(fd)
            with contextlib.suppress(OSError):
                os.close(fd)


class SeatHolder(Protocol):
    """What picking an idle seat reads of a session (:class:`tui.server.connection.CovenSession`)."""

    @property
    def live(self) -> bool:
        """Whether the session holds a place now."""
        ...

    @property
    def admitted_at(self) -> float:
        """When it took its place (monotonic seconds)."""
        ...

    @property
    def last_input(self) -> float:
        """When its client last sent a byte (monotonic seconds)."""
        ...

    @property
    def ready(self) -> bool:
        """Whether its Coven said its first screen is up."""
        ...

    @property
    def seated(self) -> bool:
        """Whether its Coven said it is seated in a game."""
        ...


class Seat(SeatHolder, Protocol):
    """A place a full server may give to a newcomer: an SSH session, or a browser visit (:mod:`tui.web.door`)."""

    def close_idle_seat(self, newcomer: int) -> None:
        """Say why, and close, so connection ``newcomer`` takes the place."""
        ...


Holder = TypeVar("Holder", bound=SeatHolder)


def is_idle(holder: SeatHolder, now: float, grace: float) -> bool:
    """Whether ``holder`` has held its place for ``grace`` with its Coven not up, or with no key that long."""
    if not holder.live or now - holder.admitted_at < grace:
        return False
    return not holder.ready or now - holder.last_input >= grace


def is_idle_seat(holder: SeatHolder, now: float, grace: float) -> bool:
    """Whether ``holder``'s place may go to a newcomer: idle for ``grace``, and not seated in a game."""
    return is_idle(holder, now, grace) and not holder.seated


def idle_seat(holders: Iterable[Holder], now: float, grace: float) -> Holder | None:
    """The idle seat to close first: a Coven that never came up, else the longest without a key."""
    idle = [holder for holder in holders if is_idle_seat(holder, now, grace)]
    return min(idle, key=lambda holder: (holder.ready, holder.last_input), default=None)
