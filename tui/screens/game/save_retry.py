"""Saving that keeps failing: told once, the game held, the action tried again with backoff.

When an action cannot be saved for a reason that may pass (a full disk, a
read-only file, a held lock: :class:`SaveFailedError`), the game screen hands
it to its :class:`SaveRetry`. Until it is saved nothing moves on: bots and
automatic steps wait, the table offers no choice, and the action is tried
again after 0.5 s, then 1, 2, 4, 8 and every 10 s (``r`` tries at once). One
banner says why while it fails; one notification says when saving works
again. The action is only shown once committed, like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine import ActionError
from saves import LiveSession, StoreError
from saves.save_failures import SaveFailedError
from tui.widgets.save_banner import SaveBanner

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

FIRST_DELAY = 0.5
"""Seconds before the first retry."""

LONGEST_DELAY = 10.0
"""The backoff doubles up to this many seconds between retries."""

RECOVERED = "Saving works again; every move so far is saved."
"""The one notification when a save succeeds after failures."""


class Cancellable(Protocol):
    """What a scheduler returns: something that can be stopped (a :class:`tui.alarm.Alarm`)."""

    def stop(self) -> None:
        """Cancel the call."""


Scheduler = Callable[[float, Callable[[], None]], Cancellable]
"""Calls a function after a delay in seconds (an alarm on the screen; a fake clock in tests)."""


class RetryHost(Protocol):
    """What a :class:`SaveRetry` asks of its game screen (a protocol: the screen imports this module, not back)."""

    live: LiveSession
    revealed_seat: int | None
    status_text: str

    @property
    def app(self) -> App[Any]:
        """The running app (to push the leave-anyway question)."""

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides."""

    def set_alarm(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` after ``delay`` seconds."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None) -> None:
        """Tell the player ``message``."""

    def query_one(self, selector: type[SaveBanner]) -> SaveBanner:
        """The screen's save banner."""

    def refresh_bindings(self) -> None:
        """Redraw the footer's keys."""

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""

    def advance(self) -> None:
        """Decide what happens next."""

    def _show(self, view_seat: int | None, deciding: int | None, legal: Sequence[Any]) -> None:
        """Draw the table from ``view_seat``'s view."""

    def _apply(self, seat: int | None, action: Any, note: str | None = None) -> bool:
        """Apply, save and show an action; False when it was refused or not saved."""


def backoff(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failure in a row (1, 2, ...)."""
    delay: float = FIRST_DELAY * 2.0 ** max(failures - 1, 0)
    return min(delay, LONGEST_DELAY)


class SaveRetry:
    """One game screen's unsaved action, its retries and what the player is told.

    Attributes:
        pending: The ``(seat, action)`` waiting to be saved, or None.
        failures: Failed attempts in a row (0 once a save works).
        schedule: Runs the next retry later; replace it to drive retries by hand.
    """

    def __init__(self, screen: RetryHost) -> None:
        """Retry for ``screen``, which shows :class:`SaveBanner` and applies actions with ``_apply``."""
        self.screen = screen
        self.pending: tuple[int | None, Any] | None = None
        self.failures = 0
        self.schedule: Scheduler = screen.set_alarm
        self._timer: Cancellable | None = None

    @property
    def failing(self) -> bool:
        """True while an action waits to be saved: nothing else may happen meanwhile."""
        return self.pending is not None

    def failed(self, seat: int | None, action: Any, error: StoreError) -> bool:
        """``seat``'s ``action`` was not saved: hold it for a retry if that may help, else say why. Always False."""
        screen = self.screen
        if not isinstance(error, SaveFailedError):
            screen.notify(str(error), title="Not saved", severity="error")
            return False
        self.pending = (seat, action)
        self.failures += 1
        delay = backoff(self.failures)
        screen.query_one(SaveBanner).show_failure(error.reason, delay)
        if self.failures == 1:
            # Nothing unsaved is shown and nothing else is offered: the table shows the last saved state.
            screen._show(screen.viewer_seat if screen.revealed_seat is None else screen.revealed_seat, None, [])
            screen.status_text = "Waiting for the save…"
            screen.refresh_bindings()
        self._cancel()
        self._timer = self.schedule(delay, self.retry_now)
        return False

    def retry_now(self) -> None:
        """Try the held action again now (also the ``r`` key)."""
        self._cancel()
        if self.pending is None:
            return
        seat, action = self.pending
        self.pending = None
        screen = self.screen
        if not self._still_legal(seat, action):  # a shared table moved on while it waited
            self._end()
            if seat is not None and screen.plays_here(seat):
                screen.notify("The game moved on before your move could be saved; choose again.", severity="warning")
            screen.advance()
            return
        if screen._apply(seat, action):
            self._end()
            screen.notify(RECOVERED, title="Saving again", timeout=6)
        elif self.pending is None:  # refused for a reason retrying cannot cure; the screen said why
            self._end()
            screen.advance()

    def refuse(self) -> bool:
        """True (after a word to the player) when a new action must wait for the held one to be saved."""
        if self.pending is None:
            return False
        self.screen.notify("Wait: the last move is not saved yet (r tries again now).", timeout=4)
        return True

    def confirm_leave(self, then: Callable[[], object], doing: str = "Leave") -> None:
        """Run ``then`` (which leaves the game) at once, or while a move is held once the player agrees to lose it."""
        if self.pending is None:
            then()
            return
        from tui.widgets.confirm import ConfirmScreen

        reason = self.screen.query_one(SaveBanner).reason or "saving is failing"

        def answered(yes: bool | None) -> None:
            if yes:
                self._cancel()
                then()

        self.screen.app.push_screen(ConfirmScreen(
            f"Your last move is not saved yet: {reason}. {doing} anyway and lose that move? "
            "Everything before it is saved.", doing, "Stay"), answered)

    def _still_legal(self, seat: int | None, action: Any) -> bool:
        """True when ``action`` may still be played by ``seat`` (others' moves may have arrived meanwhile)."""
        live = self.screen.live
        if seat is not None and seat not in live.to_act:
            return False
        if seat is None:
            return not live.to_act and live.table_action == action
        try:
            live.rules.check_action(live.state, seat, action)
        except ActionError:
            return False
        return True

    def _end(self) -> None:
        """The failure run is over: take the banner down."""
        self.failures = 0
        self.screen.query_one(SaveBanner).clear()
        self.screen.refresh_bindings()

    def stop(self) -> None:
        """The screen is gone: no retry is called any more (the unsaved move stays unsaved, as leaving says)."""
        self._cancel()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
