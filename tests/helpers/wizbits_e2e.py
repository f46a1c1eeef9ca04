"""Shared by test_wizbits_e2e.py and other test modules, which import them from here.

HeldPauses, Host, game_screen, wait_for, moved here from tests/tui/wizbits/test_wizbits_e2e.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App

from tui.screens.game.screen import GameScreen


class Host(App[None]):
    """Opens one screen on a session."""

    def __init__(self, make: Callable[[], Any]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(self.make())


def game_screen(app: App[None]) -> GameScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


async def wait_for(pilot: Any, check: Callable[[], bool], what: str, bound: float = 60.0) -> None:
    """Wait until ``check()`` holds; ``bound`` seconds is generous, only there to end a hung test."""
    deadline = time.monotonic() + bound
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await pilot.pause(0.02)


class HeldPauses:
    """Stands in for the pause before each bot action: the test decides when it ends, not the clock."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.delays: list[float] = []
        self.waiting: list[Callable[[], None]] = []
        self._set_alarm = screen.set_alarm
        screen.set_alarm = self.set_alarm  # type: ignore[method-assign]

    def set_alarm(self, delay: float, callback: Any) -> Any:
        if isinstance(callback, partial) and callback.func == self.screen._run_bot:
            self.delays.append(delay)
            self.waiting.append(callback)
            return None
        return self._set_alarm(delay, callback)

    def end_one(self) -> bool:
        """End the oldest waiting pause (the bot then acts); False when none waits."""
        if not self.waiting:
            return False
        self.waiting.pop(0)()
        return True
