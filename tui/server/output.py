"""A session's output budget: a client that stops reading holds its own Coven back, then is let go.

What the server holds for one client is the session channel's send buffer
(filled once the client's SSH window is used up) plus the connection's
transport buffer (filled once the TCP window is full; asyncssh writes to the
transport whatever the SSH window allows, and a client may announce a window
of gigabytes). Past the budget the session stops reading its child's pty, so
the child blocks on its terminal and stops drawing; the server's memory for
that client stays near the budget, and the child's is bounded by its own
writer queue. A client that makes no progress for the stall timeout is
disconnected, with a log line saying how much was pending and for how long.

Before either buffer fills, the kernel takes what TCP cannot send yet into
the socket's send buffer, which Linux grows by itself up to ``tcp_wmem``'s
maximum (4 MiB by default): a stalled client held that much more, and over
loopback a whole short game could vanish into it before the budget was
reached. :func:`cap_send_buffer` fixes each connection's send buffer instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable

POLL_SECONDS = 0.25
"""How often a held session looks whether its client read some more (asyncssh does not say)."""
LOW_WATER_SHARE = 4
"""A session held over budget draws again once its pending output fell to a quarter of the budget."""

BUDGET = "budget"
WINDOW = "window"

SEND_BUFFER_BYTES = 128 * 1024
"""The send buffer asked for on each client's socket (Linux doubles it for its own bookkeeping). A terminal's
frames are a few to some tens of kB, so this still fills a link of 1 MB/s at 250 ms round trips."""


def cap_send_buffer(sock: socket.socket | None) -> None:
    """Fix ``sock``'s send buffer at :data:`SEND_BUFFER_BYTES`, turning off the kernel's growing of it.

    A socket the platform will not set (or none at all, for a transport without one) is left as it is.
    """
    if sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)


class OutputHold:
    """Holds one session's output back while its client is behind, and reports a client that stalled.

    ``pending`` counts the bytes the server holds for the client; ``pause`` and
    ``resume`` stop and restart reading the child; ``stalled`` is called once
    with the bytes pending and the seconds without progress when the client
    read nothing for ``stall_timeout`` seconds while held.
    """

    def __init__(self, budget: int, stall_timeout: float, pending: Callable[[], int], pause: Callable[[], None],
                 resume: Callable[[], None], stalled: Callable[[int, float], None], *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """A hold not in force, for a client allowed ``budget`` bytes behind; ``clock`` is replaced by tests."""
        self.budget = budget
        self.stall_timeout = stall_timeout
        self._pending = pending
        self._pause = pause
        self._resume = resume
        self._stalled = stalled
        self._clock = clock
        self.reasons: set[str] = set()
        self._poll: asyncio.TimerHandle | None = None
        self._lowest = 0
        self._progress_at = 0.0
        self._closed = False

    @property
    def held(self) -> bool:
        """Whether the child's output is being held back."""
        return bool(self.reasons)

    def wrote(self) -> None:
        """Output was just queued for the client: hold the child back if that went past the budget."""
        if BUDGET not in self.reasons and self._pending() > self.budget:
            self._hold(BUDGET)

    def channel_full(self) -> None:
        """asyncssh's channel buffer is full (the client's SSH window is used up)."""
        self._hold(WINDOW)

    def channel_drained(self) -> None:
        """asyncssh's channel buffer has room again."""
        self._release(WINDOW)

    def close(self) -> None:
        """The session ended: stop looking."""
        self._closed = True
        self.reasons.clear()
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def _hold(self, reason: str) -> None:
        """Add ``reason`` to hold the output; the first one pauses the child and starts the stall clock."""
        if self._closed or reason in self.reasons:
            return
        first = not self.reasons
        self.reasons.add(reason)
        if first:
            self._pause()
            self._lowest = self._pending()
            self._progress_at = self._clock()
            self._poll = asyncio.get_running_loop().call_later(POLL_SECONDS, self.look)

    def _release(self, reason: str) -> None:
        """Drop ``reason``; once none is left the child draws again and the stall is forgotten."""
        if reason not in self.reasons:
            return
        self.reasons.discard(reason)
        if not self.reasons and not self._closed:
            if self._poll is not None:
                self._poll.cancel()
                self._poll = None
            self._resume()

    def look(self) -> None:
        """See (every :data:`POLL_SECONDS` while held) whether the client read some more; release the budget's hold, or give up on a stalled client."""
        self._poll = None
        if self._closed or not self.reasons:
            return
        pending = self._pending()
        now = self._clock()
        if pending < self._lowest:  # the client read something: the stall clock starts again
            self._lowest = pending
            self._progress_at = now
        if BUDGET in self.reasons and pending <= self.budget // LOW_WATER_SHARE:
            self._release(BUDGET)
            if not self.reasons:
                return
        stalled_for = now - self._progress_at
        if stalled_for >= self.stall_timeout:
            self.close()
            self._stalled(pending, stalled_for)
            return
        self._poll = asyncio.get_running_loop().call_later(POLL_SECONDS, self.look)
