"""The suite's one wait: a check that queries a widget mounted later waits for it, and says which was missing."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Static

from tests.helpers.waiting import until


class LateApp(App[None]):
    """Mounts its one widget a few refreshes after start, as a busy machine would."""

    def on_mount(self) -> None:
        self.set_timer(0.2, lambda: self.mount(Static("here", id="late")))


async def test_a_check_on_a_widget_not_mounted_yet_waits_for_it() -> None:
    app = LateApp()
    async with app.run_test() as pilot:
        await until(pilot, lambda: str(app.query_one("#late", Static).render()) == "here", "the late widget")


async def test_a_widget_that_never_comes_fails_the_wait_naming_it() -> None:
    app = LateApp()
    async with app.run_test() as pilot:
        with pytest.raises(AssertionError, match=r"timed out waiting for the missing one: .*#never"):
            await until(pilot, lambda: app.query_one("#never") is not None, "the missing one", bound=0.5)


async def test_a_wait_that_fails_says_what_the_app_told_the_player() -> None:
    app = LateApp()
    async with app.run_test() as pilot:
        app.notify("Cannot start: the table is gone", severity="error")
        with pytest.raises(AssertionError, match=r"the game \(the app said: Cannot start: the table is gone\)"):
            await until(pilot, lambda: False, "the game", bound=0.5)
