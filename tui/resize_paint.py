"""One full paint per terminal resize, however many Textual computes.

When the terminal changes size, Textual 8 lays out and paints the top screen,
then repaints it for its own new virtual size, for each screen under it (the
default screen always sits under Coven's menu) and again for every widget that
re-lays itself out. Each of those paints is a whole screen, so a resized Coven
sent about four screens' worth of bytes, which over SSH is what the player
waits for. :class:`OnePaintResizeApp` holds frames back from the first resize
of a burst until the size has been still for
:data:`RESIZE_SETTLE_SECONDS` and the screen has caught up, then paints the
whole screen once.
"""

from __future__ import annotations

from typing import TypeVar

from rich.console import RenderableType
from textual import events
from textual.app import App
from textual.screen import Screen
from textual.timer import Timer

ReturnType = TypeVar("ReturnType")

RESIZE_SETTLE_SECONDS = 0.1
"""How long the size must stay unchanged before the one paint (window drags send bursts)."""


class OnePaintResizeApp(App[ReturnType]):
    """An app that paints once after a resize or a burst of resizes."""

    def __init__(self) -> None:
        super().__init__()
        self._last_size: tuple[int, int] | None = None
        # The first screen is not held: its first frame would come a tenth of a second later,
        # and start-up time is what a player waits for; later settling frames are small.
        self._holding_frames = False
        self._frames_held = False
        self._settle_timer: Timer | None = None

    def on_resize(self, event: events.Resize) -> None:
        """Hold frames back while the size moves."""
        size = (event.size.width, event.size.height)
        previous, self._last_size = self._last_size, size
        if previous is not None and previous != size:  # the first Resize is the start, not a change
            self._hold_frames()

    def _hold_frames(self) -> None:
        self._holding_frames = True
        if self._settle_timer is None:
            self._settle_timer = self.set_timer(RESIZE_SETTLE_SECONDS, self._size_settled)
        else:
            self._settle_timer.reset()

    def _size_settled(self) -> None:
        # Screens lay out in their own time; release once the current one has refreshed.
        self._settle_timer = None
        self.call_after_refresh(self._release_frames)

    def _release_frames(self) -> None:
        if self._settle_timer is not None:  # another resize came meanwhile: its timer releases
            return
        self._holding_frames = False
        if self._frames_held and self.screen_stack:
            self._frames_held = False
            self.screen.refresh()  # the held frames' changes, and everything else, in one paint

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        # Textual's one door to the terminal; a held frame is forgotten, as the repaint covers it.
        if self._holding_frames and renderable is not None:
            self._frames_held = True
            return
        super()._display(screen, renderable)
