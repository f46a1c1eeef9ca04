"""One-shot timers that always ring, however late the event loop is.

Textual's ``set_timer`` skips a firing it is already late for, and a one-shot timer has only one: when
more than its delay passes between the timer task's first two clock readings (the process was
descheduled on a busy machine, or a worker thread held the GIL), the timer ends without calling back.
Coven's waits are short (a millisecond between automatic steps under Reduced motion, 5 ms before a typed
key is handed on again), so a dropped timer was a game that stopped for good, a key never handed on or a
screen that never painted again after a resize. An :class:`Alarm` runs on the event loop's own timer
instead, and so rings once, late or not.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable

from textual.message_pump import MessagePump


class Alarm:
    """Has ``pump`` call ``callback`` once, ``delay`` seconds from now, right after the message it is handling.

    Stopped by :meth:`stop`; started again by :meth:`reset`. A pump that is closing or has stopped by then,
    or an app that is exiting, is not called. The pump is held weakly; the callback (often one of the
    pump's own methods, which holds it) is let go once the alarm has rung or is stopped.
    """

    def __init__(self, pump: MessagePump, delay: float, callback: Callable[[], object]) -> None:
        """Set the alarm (from the event loop's thread, as Textual's own timers are set)."""
        self.delay = max(0.0, delay)
        self._pump = weakref.ref(pump)
        self._callback: Callable[[], object] | None = callback
        self._handle: asyncio.TimerHandle | None = None
        self.reset()

    @property
    def pending(self) -> bool:
        """Whether the alarm has yet to ring (and was not stopped)."""
        return self._handle is not None

    def reset(self) -> None:
        """Count ``delay`` again from now (an alarm that rang or was stopped stays silent)."""
        if self._callback is None:
            return
        if self._handle is not None:
            self._handle.cancel()
        self._handle = asyncio.get_running_loop().call_later(self.delay, self._ring)

    def stop(self) -> None:
        """Never ring."""
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self._callback = None

    def _ring(self) -> None:
        callback, self._callback, self._handle = self._callback, None, None
        pump = self._pump()
        if callback is None or pump is None or not pump.is_running:
            return
        # As Textual's timers: none rings for a pump that has begun to close, or once the app is exiting
        # (a bot's pause ended during quitting would start its thread as the app shuts down).
        if pump._closing or pump._closed or pump.app._exit:
            return
        pump.call_next(callback)


def set_alarm(pump: MessagePump, delay: float, callback: Callable[[], object]) -> Alarm:
    """An :class:`Alarm` on ``pump``: Coven's one-shot ``set_timer`` (which see, for why not Textual's)."""
    return Alarm(pump, delay, callback)
