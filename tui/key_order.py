"""Every key press counts: keys are handled one at a time, in the order typed, by the screen on top.

Textual hands a key to the focused widget's queue and goes straight on to the
next one. Typed quickly (a paste, a fast typist, a burst over SSH), the keys
after one that changes screens were handed to the old screen (and lost when
they bubbled back to an app showing a new one), or reached the new screen
before it had mounted and focused its field, so they went nowhere.

:class:`OrderedKeys` holds each key until the one before it has been handled
all the way up (a :class:`KeyHandled` marker, posted behind the key to the same
widget, bubbles to the app after it) and the screen on top has settled:
mounted, no message queued for it or its widgets, no after-refresh work (such
as the focus a game table gives its decision pane) pending and no worker
thread of its own (a bot thinking before the player's pane opens) running.
Then the key goes to whatever is focused now. A key never waits longer than
:attr:`OrderedKeys.KEY_WAIT_LIMIT` for either, so a marker lost with a
removed widget cannot stall typing.
"""

from __future__ import annotations

from collections import deque
from time import monotonic
from typing import Any

from textual import events, on
from textual.app import App, ReturnType
from textual.message import Message

from tui.alarm import Alarm, set_alarm

__all__ = ["KeyHandled", "OrderedKeys"]


class KeyHandled(Message):
    """Posted behind a key to the widget it went to; it reaches the app once the key has bubbled past.

    Attributes:
        ticket: Which key it follows.
    """

    def __init__(self, ticket: int) -> None:
        super().__init__()
        self.ticket = ticket


class OrderedKeys(App[ReturnType]):
    """An app that handles typed keys strictly one after another, each on the screen settled on top."""

    KEY_WAIT_LIMIT = 2.0
    """Seconds a typed key waits at most for the key before it and for the screen to settle."""

    _RETRY = 0.005

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._typed: deque[events.Key] = deque()
        self._ticket = 0
        self._handling: int | None = None
        """The ticket of the key still on its way, or None."""
        self._waiting_since = 0.0
        self._retry: Alarm | None = None

    async def on_event(self, event: events.Event) -> None:
        """Queue each typed key; hand it on when its turn comes."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            self._typed.append(event)
            if len(self._typed) == 1 and self._handling is None:
                self._waiting_since = monotonic()
            await self._hand_on_keys()
            return
        await super().on_event(event)

    @on(KeyHandled)
    def _key_handled(self, message: KeyHandled) -> None:
        """The key with this ticket has been handled; the next may go once the screen settles."""
        message.stop()
        if message.ticket == self._handling:
            self._handling = None
            self._waiting_since = monotonic()
            # After whatever that key queued for the app (a focus change, say), not before it.
            self.call_later(self._hand_on_keys)

    def _screen_settled(self) -> bool:
        """Whether the screen on top is mounted and quiet: no message queued (for the app, the screen or any
        of its widgets) and no after-refresh work pending, such as the focus a game table gives its pane."""
        try:
            screen = self.screen
        except Exception:  # no screen yet (starting) or any more (closing)
            return False
        if not screen.is_mounted or screen._callbacks or not self._message_queue.empty():
            return False
        nodes = screen.walk_children(with_self=True)
        if not all(node._message_queue.empty() for node in nodes):
            return False
        # A bot still thinking for this screen (a worker thread): the pane the next key is meant for comes after
        # its move. Async workers (the command palette's search) do not hold keys: typing must stay quick.
        busy = {id(worker.node) for worker in self.workers if worker._thread_worker and not worker.is_finished}
        return not busy.intersection(id(node) for node in nodes)

    def _may_hand_on(self) -> bool:
        if monotonic() - self._waiting_since >= self.KEY_WAIT_LIMIT:
            self._handling = None  # its marker went with a removed widget, or the screen never settles
            return True
        return self._handling is None and self._screen_settled()

    async def _hand_on_keys(self) -> None:
        """Hand the next typed key to the focused widget (or the screen), if its turn has come."""
        if not self._typed:
            return
        if not self._may_hand_on():
            if self._retry is None:
                self._retry = set_alarm(self, self._RETRY, self._retry_later)
            return
        key = self._typed.popleft()
        self._ticket += 1
        self._handling = self._ticket
        self._waiting_since = monotonic()
        await super().on_event(key)  # priority bindings, then the focused widget or the screen
        try:
            target = self.focused or self.screen
        except Exception:
            self._handling = None
            return
        target.post_message(KeyHandled(self._ticket))

    def _retry_later(self) -> None:
        # Timers call back outside the app's task; the keys are handed on from the app's own queue.
        self._retry = None
        self.call_later(self._hand_on_keys)
