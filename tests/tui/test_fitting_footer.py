"""The Footer composes its keys again only when what it shows changes.

A screen publishes its bindings on every focus change; each recompose mounts
every key anew, and a served first screen waits for them all before its one
paint (tui.resize_paint), so publishing the same keys must cost no recompose.
"""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from tests.helpers.waiting import until
from tui.widgets.fitting_footer import FittingFooter


class CountingFooter(FittingFooter):
    """A FittingFooter that counts its recomposes."""

    recomposes = 0

    async def recompose(self) -> None:
        """Count, then recompose."""
        self.recomposes += 1
        await super().recompose()


class KeysScreen(Screen[None]):
    """Two buttons to move focus between, and a key that can be switched off."""

    BINDINGS = [Binding("x", "extra", "Extra"), Binding("y", "other", "Other")]

    extra_enabled = True

    def compose(self) -> ComposeResult:
        yield Button("one", id="one")
        yield Button("two", id="two")
        yield CountingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "extra":
            return self.extra_enabled or None  # None: shown disabled
        return True

    def action_extra(self) -> None:
        """Nothing: the key is here to be shown."""

    def action_other(self) -> None:
        """Nothing: the key is here to be shown."""


class KeysApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(KeysScreen())


def _disabled(footer: FittingFooter, description: str) -> bool:
    return next(key for key in footer.query(FooterKey) if key.description == description).has_class("-disabled")


def test_the_same_keys_published_again_cost_no_recompose() -> None:
    async def run() -> None:
        app = KeysApp()
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, KeysScreen)
            footer = screen.query_one(CountingFooter)
            await until(pilot, lambda: "Extra" in footer.shown and "Other" in footer.shown, "the keys shown")
            first_keys = list(footer.query(FooterKey))
            settled = footer.recomposes
            for _ in range(5):  # focus changes and refreshes publish the bindings, the keys unchanged
                screen.query_one("#two", Button).focus()
                screen.query_one("#one", Button).focus()
                screen.refresh_bindings()
            screen.extra_enabled = False  # then one real change, which must show
            screen.refresh_bindings()
            await until(pilot, lambda: _disabled(footer, "Extra"), "the Extra key shown disabled")
            assert footer.recomposes == settled + 1, "only the change recomposed the Footer"
            assert not set(first_keys) & set(footer.query(FooterKey)), "the change mounted the keys anew"
            assert footer.shown == ["Extra", "Other"]

    asyncio.run(run())


def test_a_new_width_that_changes_nothing_keeps_the_keys() -> None:
    async def run() -> None:
        app = KeysApp()
        async with app.run_test(size=(80, 24)) as pilot:
            footer = app.screen.query_one(CountingFooter)
            await until(pilot, lambda: footer.shown == ["Extra", "Other"], "the keys shown")
            settled = footer.recomposes
            await pilot.resize_terminal(100, 24)  # both keys fit either way
            await until(pilot, lambda: app.screen.size.width == 100, "the new width")
            await pilot.resize_terminal(17, 24)  # now only one fits, with "? Help"
            await until(pilot, lambda: footer.left_out == ["Other"], "a key left out at 17 columns")
            assert footer.recomposes == settled + 1
            assert footer.shown == ["Extra", "Help"]

    asyncio.run(run())

