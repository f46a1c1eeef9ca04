"""One full paint per terminal resize, however many Textual computes.

When the terminal changes size, Textual 8 lays out and paints the top screen,
then repaints it for its own new virtual size, for each screen under it and
again for every widget that re-lays itself out. Each of those paints is a
whole screen, so a resized Coven sent about four screens' worth of bytes,
which over SSH is what the player waits for. :class:`OnePaintResizeApp` holds
frames back from the first resize of a burst until the size has been still
for :data:`RESIZE_SETTLE_SECONDS` and the screen has caught up, then paints
the whole screen once.

Served over SSH, the first screen is held the same way, since it too settles
in several whole paints:
- for :data:`START_REFRESHES` refreshes, then until every widget of it has
  handled what it was sent and asked for nothing more (a Footer still
  mounting its keys would otherwise paint again right after the first frame);
- until its last :data:`DRAWN_HELD_REFRESHES` refreshes it is not even drawn
  (:func:`mend_held_drawing`): frames that no one sees cost a served
  player's process about a tenth of its work on the way to the menu;
- its refreshes do not wait for Textual's 60 a second
  (:func:`mend_held_settling`): each wait only delayed the one frame a
  player sees, by up to a sixtieth of a second a refresh.
"""

from __future__ import annotations

from typing import Any, TypeVar

from rich.console import RenderableType
from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from tui.alarm import Alarm, set_alarm

ReturnType = TypeVar("ReturnType")

START_REFRESHES = 4
"""Refresh cycles a held first screen is given to settle before its one paint (four take all of the menu's)."""

DRAWN_HELD_REFRESHES = 1
"""The held first screen's last counted refreshes that are drawn, as are those while it waits to fall quiet, and
thrown away all the same: a draw works out what only a draw does (an option list's lines), and what that changes
settles before the one paint, not after it."""

HELD_UPDATE_SECONDS = 0.001
"""How soon a held first screen's pending layout and paint are done after its loop falls idle. Textual waits for
its next 60-a-second tick, which no held frame needs; a short wait still lets the screen's widgets answer what
the last layout told them, so the screen settles in as few refreshes as before."""

QUIET_ROUNDS = 8
"""At most this many rounds a held first screen waits, after its :data:`START_REFRESHES`, for its widgets to fall
quiet (:meth:`OnePaintResizeApp._wait_until_quiet`); one that never does, an animation say, is let out all the
same."""

QUIET_SECONDS = 1.0
"""The longest a held first screen waits to fall quiet, whatever its rounds do: a node that closes before it
handles a round's callback never calls back, and one busy in a slow handler calls back late."""

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
            mend_held_settling()
        self._last_size: tuple[int, int] | None = None
        self._holding_frames = hold_first_screen
        self._start_refreshes = START_REFRESHES if hold_first_screen else 0
        """Refreshes the first screen is still held for; none once it is out, or when it is not held."""
        self._first_frame_due = hold_first_screen
        """Whether a held first screen has yet to send its one frame."""
        self._quiet_wait: Alarm | None = None
        """While the held first screen waits to fall quiet: the alarm that ends the wait at :data:`QUIET_SECONDS`."""
        self._frames_held = False
        self._settle_timer: Alarm | None = None

    def on_mount(self) -> None:
        """Release a held first screen once it has settled."""
        if self._holding_frames:
            self.call_after_refresh(self._start_settling)

    @property
    def settles_first_screen(self) -> bool:
        """Whether a held first screen has yet to send its one frame, so its refreshes need not wait for a tick."""
        return self._first_frame_due

    def _start_settling(self) -> None:
        self._start_refreshes -= 1
        if self._start_refreshes > 0:
            self.call_after_refresh(self._start_settling)
        else:
            self._quiet_wait = set_alarm(self, QUIET_SECONDS, self._release_first_screen)
            self._wait_until_quiet(QUIET_ROUNDS)

    def _wait_until_quiet(self, rounds_left: int) -> None:
        """Release the held first screen once its widgets have handled all they were sent and it has nothing to do.

        Refreshes come as soon as the loop is free (:func:`mend_held_settling`), so a widget may still be busy
        after :data:`START_REFRESHES` of them: the Footer mounting its keys, say, which would paint again right
        after the one frame. Each round asks every node of the screen (and the app) to call back once it has
        handled what it was sent before, as Textual's pilot does when it waits for a screen.
        """
        if self._quiet_wait is None:  # the wait is over: the screen is out, or on its way
            return
        if not self.screen_stack:
            self._release_first_screen()
            return
        screen = self.screen
        waiting = 0

        def handled() -> None:
            nonlocal waiting
            waiting -= 1
            if waiting == 0:
                self._quiet_round_done(screen, rounds_left)

        for node in (self, *screen.walk_children(with_self=True)):
            if node.call_later(handled):
                waiting += 1
        if waiting == 0:
            self._quiet_round_done(screen, rounds_left)

    def _quiet_round_done(self, screen: Screen[Any], rounds_left: int) -> None:
        if self._quiet_wait is None:
            return
        if not self.screen_stack:
            self._release_first_screen()
            return
        # Run from the last node's callback: that node has yet to tell the screen what it asked for meanwhile,
        # and others may have been sent more, so every node's own asks and queue count, not just the screen's,
        # as do callbacks waiting for the next refresh (a Footer about to put up new keys).
        busy = (screen is not self.screen or bool(self._batch_count or screen._dirty_widgets
                                                  or screen._recompose_required or screen._callbacks)
                or any(_busy(node) for node in (self, *screen.walk_children(with_self=True))))
        if busy and rounds_left > 1:
            self.call_after_refresh(self._wait_until_quiet, rounds_left - 1)
        else:
            self._release_first_screen()

    def _release_first_screen(self) -> None:
        if self._quiet_wait is None:  # released already (the wait's end and its last round may both come)
            return
        self._quiet_wait.stop()
        self._quiet_wait = None
        if self._settle_timer is None:  # else a resize came meanwhile, and its timer releases
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
        if renderable is not None and self._first_frame_due:
            self._first_frame_due = False
            if self._quiet_wait is not None:  # let out by a resize's settling before it fell quiet
                self._quiet_wait.stop()
                self._quiet_wait = None
            for settled in {screen, *self.screen_stack}:
                end_settling(settled)


def _busy(node: MessagePump) -> bool:
    """Whether ``node`` has messages or callbacks waiting, or a refresh asked for that its screen has not heard of."""
    if not node._message_queue.empty() or node._next_callbacks:
        return True
    return isinstance(node, Widget) and bool(node._layout_required or node._repaint_required
                                             or node._scroll_required or node._refresh_styles_required)


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


_SCREENS_UPDATE_TIMER: Any = Screen._update_timer
TEXTUALS_UPDATE_TIMER: Any = getattr(_SCREENS_UPDATE_TIMER.fget, "textuals", _SCREENS_UPDATE_TIMER)
"""Textual's own ``Screen._update_timer`` property, which :func:`mend_held_settling` wraps (and keeps, should
this module be loaded again after it did)."""

SETTLING_TIMER = "_coven_settling_timer"
"""The attribute of a screen that holds its fast update timer while the first screen settles."""


def mend_held_settling() -> bool:
    """Give a settling first screen (:attr:`OnePaintResizeApp.settles_first_screen`) a fast update timer.

    Textual 8.2.8 makes each screen's update timer, at ``1 / MAX_FPS``, in the
    ``Screen._update_timer`` property, and only its idle handler, its update
    and its layout read that property. While the first screen settles, the top
    screen gets a timer of its own at :data:`HELD_UPDATE_SECONDS` instead,
    until :func:`end_settling` hands it back to Textual's timer: a screen when
    it is no longer on top (the default screen, once the menu is pushed over
    it), and every screen of the stack when the first frame goes out. From
    then on frames come at Textual's pace again, so that a busy screen still
    sends at most 60 a second.

    Returns:
        True when it was mended now.
    """
    current: Any = Screen._update_timer
    if getattr(current.fget, "coven_mended", False):
        return False

    def _update_timer(self: Screen[Any]) -> Timer:
        app = self.app
        stack = app.screen_stack
        if isinstance(app, OnePaintResizeApp) and app.settles_first_screen and stack and stack[-1] is self:
            fast: Timer | None = getattr(self, SETTLING_TIMER, None)
            if fast is None:
                fast = self.set_interval(HELD_UPDATE_SECONDS, self._on_timer_update, name="screen_update_settling",
                                         pause=True)
                setattr(self, SETTLING_TIMER, fast)
            return fast
        end_settling(self)
        timer: Timer = TEXTUALS_UPDATE_TIMER.fget(self)
        return timer

    _update_timer.coven_mended = True  # type: ignore[attr-defined]
    _update_timer.textuals = TEXTUALS_UPDATE_TIMER  # type: ignore[attr-defined]
    Screen._update_timer = property(_update_timer)  # type: ignore[method-assign,assignment]
    return True


def end_settling(screen: Screen[Any]) -> None:
    """Stop ``screen``'s fast update timer, if it has one, and start Textual's own in its place.

    Textual's timer is started at once, not at the next key: the first tick of a
    new timer waits a whole period, which would delay the player's first echo.
    A tick with nothing to do draws nothing. Stopping the fast timer from within
    its own tick is safe: the update it called carries on to its end.
    """
    fast: Timer | None = getattr(screen, SETTLING_TIMER, None)
    if fast is None:
        return
    setattr(screen, SETTLING_TIMER, None)
    fast.stop()
    timer: Timer = TEXTUALS_UPDATE_TIMER.fget(screen)
    timer.resume()
