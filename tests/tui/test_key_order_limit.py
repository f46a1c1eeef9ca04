"""The key-order hold has a bound: a key still arrives when the screen never settles (a worker thread that hangs)."""

from __future__ import annotations

import threading

from textual import events
from textual.app import ComposeResult
from textual.widgets import Input

from tests.helpers.waiting import until
from tui.key_order import OrderedKeys


class StuckApp(OrderedKeys[None]):
    """A screen whose own worker thread never finishes until the test lets it go."""

    KEY_WAIT_LIMIT = 0.2  # the real bound is 2 s; the test only needs it to be hit

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def compose(self) -> ComposeResult:
        yield Input(id="field")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.screen.run_worker(self.release.wait, thread=True)


async def test_a_key_arrives_even_while_the_screen_never_settles() -> None:
    app = StuckApp()
    async with app.run_test() as pilot:
        try:
            await until(pilot, lambda: any(not worker.is_finished for worker in app.workers), "the worker")
            driver = app._driver
            assert driver is not None
            for key in "ok":
                event = events.Key(key, key)
                event.set_sender(app)
                driver.send_message(event)
            await until(pilot, lambda: app.query_one(Input).value == "ok", "the keys, past the bound")
            assert any(not worker.is_finished for worker in app.workers)  # it was the bound, not the worker
        finally:
            app.release.set()
