"""Coven's one-shot timers ring however late the loop is (tui/alarm.py), where Textual's ``set_timer`` can drop them.

Each late-loop test runs with :func:`late_one_shot_timers`, which makes every one-shot Textual timer late for its
only firing, as a descheduled process on a busy machine is now and then.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Footer, Input, Static

from tests.helpers.late_timers import late_one_shot_timers
from tests.helpers.near_the_end import near_the_end
from tests.helpers.waiting import until
from tui.alarm import set_alarm
from tui.app import CovenApp
from tui.cli.bench.seat_memory import play_one_game
from tui.key_order import OrderedKeys
from tui.screens.menu import MainMenu


class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("alarms")


async def test_an_alarm_rings_once_as_the_pumps_next_message() -> None:
    app = Bare()
    async with app.run_test() as pilot:
        rung: list[str] = []
        set_alarm(app, 0.0, lambda: rung.append("now"))
        set_alarm(app, 0.05, lambda: rung.append("later"))
        await until(pilot, lambda: rung == ["now", "later"], "both alarms, in order")
        set_alarm(app, 0.2, lambda: rung.append("last"))
        await until(pilot, lambda: "last" in rung, "a third alarm")
        assert rung == ["now", "later", "last"]  # each rang once


async def test_a_stopped_alarm_never_rings_and_a_reset_one_rings_once_from_its_reset() -> None:
    app = Bare()
    async with app.run_test() as pilot:
        rung: list[str] = []
        stopped = set_alarm(app, 0.0, lambda: rung.append("stopped"))
        stopped.stop()
        assert not stopped.pending
        reset = set_alarm(app, 0.05, lambda: rung.append("reset"))
        reset.reset()
        reset.reset()
        set_alarm(app, 0.3, lambda: rung.append("after"))
        await until(pilot, lambda: "after" in rung, "the last alarm")
        assert rung == ["reset", "after"]
        assert not reset.pending
        reset.reset()  # an alarm that rang stays silent
        assert not reset.pending


async def test_an_alarm_for_a_widget_that_has_gone_calls_nothing() -> None:
    app = Bare()
    async with app.run_test() as pilot:
        rung: list[str] = []
        widget = Static("soon gone")
        await app.mount(widget)
        alarm = set_alarm(widget, 60.0, lambda: rung.append("gone"))
        await widget.remove()
        assert alarm.pending
        alarm.delay = 0.0
        alarm.reset()  # it rings now, for a widget no longer running
        set_alarm(app, 0.2, lambda: rung.append("app"))
        await until(pilot, lambda: "app" in rung, "the app's alarm")
        assert rung == ["app"]


async def test_on_a_late_loop_textuals_one_shot_timer_is_dropped_and_an_alarm_still_rings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = Bare()
    async with app.run_test() as pilot:
        jumps = late_one_shot_timers(monkeypatch)
        rung: list[str] = []
        dropped = app.set_timer(0.001, lambda: rung.append("textual"))
        set_alarm(app, 0.001, lambda: rung.append("alarm"))
        task = dropped._task
        assert task is not None
        await until(pilot, lambda: "alarm" in rung and task.done(), "the alarm, and Textual's timer ended")
        assert jumps  # the timer read the late clock: what a busy machine does, made certain
        assert rung == ["alarm"]  # why Coven's one-shot waits are alarms


async def test_on_a_late_loop_a_solo_game_at_reduced_motion_plays_its_steps_and_bots_to_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reduced motion makes the pause between automatic steps 1 ms: a dropped one stopped the game for good."""
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        late_one_shot_timers(monkeypatch)
        # The bot's pause, the duels played by themselves, the coach's lines and the round's summary all wait on
        # one-shot timers: the game must still end.
        await play_one_game(app, "wizards-cup", 3, opponent="normal", bound=300.0, start=near_the_end)
        assert isinstance(app.screen, MainMenu)


class Typed(OrderedKeys[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="field")

    def on_mount(self) -> None:
        self.query_one(Input).focus()


async def test_on_a_late_loop_every_typed_key_is_handed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Typed()
    async with app.run_test() as pilot:
        late_one_shot_timers(monkeypatch)
        driver = app._driver
        assert driver is not None
        for key in "hello":  # as a fast typist's keys arrive: each while the one before is still handled
            event = events.Key(key, key)
            event.set_sender(app)
            driver.send_message(event)
        await until(pilot, lambda: app.query_one(Input).value == "hello", "every key in the field")


async def test_on_a_late_loop_a_resize_still_paints(monkeypatch: pytest.MonkeyPatch) -> None:
    app = CovenApp(auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and not app._holding_frames, "the menu")
        late_one_shot_timers(monkeypatch)
        await pilot.resize_terminal(100, 30)
        # The Footer is laid out again only when the screen hears of the size (the app knows it at once).
        await until(pilot, lambda: app.screen.query_one(Footer).region.width == 100 and not app._holding_frames,
                    "the screen laid out at the new size and its frames let out")
        await pilot.resize_terminal(90, 28)  # and again: the first resize left nothing stuck
        await until(pilot, lambda: app.screen.query_one(Footer).region.width == 90 and not app._holding_frames,
                    "the second resize")
