"""Shared by test_snapshots_shell.py and other test modules, which import them from here.

FIXED_TIME, SnapCompare, make_app, two_sessions, moved here from tests/snapshots/test_snapshots_shell.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import play_until, seats
from tui.app import CovenApp

SnapCompare = Callable[..., bool]
FIXED_TIME = "2026-03-14T15:09:26.000000+00:00"


def make_app(*setups: Callable[[SessionStore], Any]) -> CovenApp:
    """An app over a fresh store, after running ``setups`` on it."""
    store = SessionStore()
    for setup in setups:
        setup(store)
    return CovenApp(store=store, auto_delay=60.0)


def two_sessions(store: SessionStore) -> None:
    """A game against a bot, and a two-player game in its duels."""
    LiveSession.create(store, "wizards-cup", None, 11, seats("You", "Merlin:normal"))
    live = LiveSession.create(store, "wizards-cup", {"tokens_to_win": 3}, 12, seats("Ann", "Bob"))
    play_until(live, 6)
