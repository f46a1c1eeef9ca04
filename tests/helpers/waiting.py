"""Waiting on conditions, never on the clock: the suite must pass on a busy 2-core machine.

A bound here only ends a test that hung; it is generous on purpose and no
test asserts that anything happened faster than it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.css.query import NoMatches

BOUND = 60.0
"""Seconds before a wait gives up (a hung test's end, not a speed requirement)."""
POLL = 0.02
"""Seconds between looks at first: most waits end within a few frames."""
PATIENT_AFTER = 0.5
PATIENT_POLL = 0.1
"""Seconds between looks once a wait has lasted :data:`PATIENT_AFTER`: it waits on a timer (a chat poll, a clock,
a bot's thinking), and each look makes every widget of the screen take a turn, which costs CPU other tests need."""


async def until(pilot: Any, check: Callable[[], object], what: str, bound: float = BOUND) -> None:
    """Let the app under ``pilot`` run until ``check()`` is true; fail naming ``what`` after ``bound`` seconds.

    The app always runs a moment first, so a check that something did not happen gives it the chance to.
    A check that queries a widget not mounted yet (``NoMatches``) is not true yet, and is asked again.
    """
    started = time.monotonic()
    deadline = started + bound
    poll = POLL
    await pilot.pause()
    while not _holds(check):
        if time.monotonic() > deadline:
            told = _notices(pilot)
            try:
                check()  # a widget still missing names itself in the failure
            except NoMatches as error:
                raise AssertionError(f"timed out waiting for {what}: {error}{told}") from error
            raise AssertionError(f"timed out waiting for {what}{told}")
        await pilot.pause(poll)
        if time.monotonic() - started > PATIENT_AFTER:
            poll = PATIENT_POLL  # each look visits every widget: a long wait on a timer looks less often


def _notices(pilot: Any) -> str:
    """What the app told the player (its toasts), for a failure on a loaded run to say why it waited."""
    notifications = getattr(getattr(pilot, "app", None), "_notifications", None)
    said = [str(notification.message) for notification in notifications or ()]
    return f" (the app said: {' | '.join(said)})" if said else ""


def _holds(check: Callable[[], object]) -> bool:
    """Whether ``check()`` is true; a widget it queries that is not mounted yet (on a busy machine) is a no."""
    try:
        return bool(check())
    except NoMatches:
        return False


def toast_ids(app: Any) -> set[str]:
    """The identities of the toasts the app shows now, to tell a new one by (see :func:`new_toast`)."""
    return {note.identity for note in app._notifications}


async def new_toast(pilot: Any, before: set[str], what: str) -> str:
    """Wait for a toast not among ``before`` (from :func:`toast_ids`); its words.

    By identity, never by count: on a busy machine an earlier toast may time out just as the new one appears.
    """
    app = pilot.app
    await until(pilot, lambda: any(note.identity not in before for note in app._notifications), what)
    return next(str(note.message) for note in app._notifications if note.identity not in before)
