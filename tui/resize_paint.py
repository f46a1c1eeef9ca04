"""One full paint per terminal resize, however many Textual computes.

When the terminal changes size, Textual 8 lays out and paints the top screen,
then repaints it for its own new virtual size, for each screen under it and
again for every widget that re-lays itself out. Each of those paints is a
whole screen, so a resized Coven sent about four screens' worth of bytes,
which over SSH is what the player waits for. :class:`OnePaintResizeApp` holds
frames back from the first resize of a burst until the size has been still
for :data:`RESIZE_SETTLE_SECONDS` and the screen has caught up, then paints
the whole screen once. Served over SSH, the first screen is held the same
way for a few refreshes, since it too settles in several whole paints, and
until its last :data:`DRAWN_HELD_REFRESHES` refreshes it is not even drawn
(:func:`mend_held_drawing`): frames that no one sees cost a served player's
process about a tenth of its work on the way to the menu.
"""

from __future__ import annotations

from typing import Any, TypeVar

from rich.console import RenderableType
from textual import events
from textual.app import App
from textual.screen import Screen

from tui.alarm import Alarm, set_alarm

ReturnType = TypeVar("ReturnType")

START_REFRESHES = 4
"""Refresh cycles a held first screen is given to settle before its one paint (four take all of the menu's)."""

DRAWN_HELD_REFRESHES = 2
"""The held first screen's last refreshes that are drawn, and thrown away all the same: a draw works out what
only a draw does (an option list's lines), and what that changes settles before the one paint, not after it."""

RESIZE_SETTLE_SECONDS = 0.1
"""How long the size must stay unchanged before the one paint (window drags send bursts)."""

RESIZE_PASS_ON_SECONDS = 1 / 120
"""How long the app gathers a burst of terminal sizes before the screens hear the last one (Textual's own wait)."""


class OnePaintResizeApp(App[ReturnType]):
    """An app that paints once after a resize or a burst of resizes."""

    def __init__(self, *, hold_first_screen: bool = False) -> None:
        """Create the app.

        Args:
            hold_first_screen: Also paint the first screen once. It settles in a few whole-screen
                paints (it resumes, its lists learn their size, the notification rack hides), each
                of which an SSH link carries; holding them costs a few refreshes before the first
                frame, which a local terminal would rather show at once.
        """
        super().__init__()
        if hold_first_screen:
            mend_held_drawing()
        self._last_size: tuple[int, int] | None = None
        self._holding_frames = hold_first_screen
        self._start_refreshes = START_REFRESHES if hold_first_screen else 0
        """Refreshes the first screen is still held for; none once it is out, or when it is not held."""
        self._frames_held = False
        self._settle_timer: Alarm | None = None

    def on_mount(self) -> None:
        """Release a held first screen once it has settled."""
        if self._holding_frames:
            self.call_after_refresh(self._start_settling)

    def _start_settling(self) -> None:
        self._start_refreshes -= 1
        if self._start_refreshes > 0:
            self.call_after_refresh(self._start_settling)
        elif self._settle_timer is None:
            self._release_frames()

    def on_resize(self, event: events.Resize) -> None:
        """Hold frames back while the size moves, and pass the new size on to the screens after an alarm.

        This does the work of Textual's own ``App._on_resize``, which runs after it (Textual calls each
        class's handler, subclass first) and finds the size already taken. That one waits 1/120 s on a
        ``set_timer`` before the screens hear of the size, and a loop late for that timer dropped it,
        leaving ``_resize_timer`` set so that no later resize reached a screen either (:mod:`tui.alarm`).
        The event is not kept from Textual's handler with ``prevent_default``: the screens are posted this
        same event, and would then skip their own handlers. Behind the exact Textual pin, as
        :func:`mend_held_drawing` is.
        """
        event.stop()
        self._note_size(event)
        first = self._size is None
        changed = self._size != event.size
        self._resize_event = event
        self._size = event.size
        if first:
            self._check_resize()
        elif changed and self._resize_timer is None:
            alarm = set_alarm(self, RESIZE_PASS_ON_SECONDS, self._check_resize)
            self._resize_timer = alarm  # type: ignore[assignment]  # Textual only stops it, which an Alarm does

    def _note_size(self, event: events.Resize) -> None:
        size = (event.size.width, event.size.height)
        previous, self._last_size = self._last_size, size
        if previous is not None and previous != size:  # the first Resize is the start, not a change
            self._hold_frames()

    def _hold_frames(self) -> None:
        self._holding_frames = True
        if self._settle_timer is None:
            self._settle_timer = set_alarm(self, RESIZE_SETTLE_SECONDS, self._size_settled)
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

    def draws_held_frame(self, screen: Screen[Any]) -> bool:
        """Whether ``screen``'s frame is drawn now; only a held first screen's early frames are not."""
        return not (self._holding_frames and self._start_refreshes > DRAWN_HELD_REFRESHES and not self.is_inline
                    and screen is self.screen)

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        # Textual's one door to the terminal; a held frame is forgotten, as the repaint covers it.
        if self._holding_frames and renderable is not None:
            self._frames_held = True
            return
        super()._display(screen, renderable)


def mend_held_drawing() -> bool:
    """Let :meth:`OnePaintResizeApp.draws_held_frame` skip drawing a frame; True when it was mended now.

    Textual 8.2.8 draws each refresh of the top screen in
    ``Screen._compositor_refresh`` and only then hands the frame to
    ``App._display``, where a held frame is dropped. A frame it need not draw
    is skipped there instead: what changed stays marked in the compositor and
    is drawn with everything else when the frames are released.
    """
    current: Any = Screen._compositor_refresh
    if getattr(current, "coven_mended", False):
        return False

    def _compositor_refresh(self: Screen[Any]) -> None:
        app = self.app
        if isinstance(app, OnePaintResizeApp) and not app.draws_held_frame(self):
            self._dirty_widgets.clear()  # as a drawn frame does; their regions wait in the compositor
            app._frames_held = True  # so the release repaints the whole screen
            return
        current(self)

    _compositor_refresh.coven_mended = True  # type: ignore[attr-defined]
    Screen._compositor_refresh = _compositor_refresh  # type: ignore[method-assign]
    return True
