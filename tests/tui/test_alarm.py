"""Coven's one-shot timers ring however late the loop is (tui/alarm.py), where Textual's ``set_timer`` can drop them.

Each late-loop test (a solo game, a pass-and-play game, a shared table's game, keys, a resize) runs with
:func:`late_one_shot_timers`, which makes every one-shot Textual timer late for its only firing, as a
descheduled process on a busy machine is now and then.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Footer, Input, Static

import tui.app
from saves import LiveSession
from saves.tables import SeatPlan, TableStore
from tests.helpers.late_timers import late_one_shot_timers
from tests.helpers.near_the_end import near_the_end
from tests.helpers.tables_tui import SPEC, play_for, screen_text
from tests.helpers.waiting import until
from tui.alarm import set_alarm
from tui.app import CovenApp
from tui.cli.bench.seat_memory import play_one_game
from tui.games.base import GameTable
from tui.games.wizards_cup.results import RoundResultScreen
from tui.key_order import OrderedKeys
from tui.screens.curtain import CurtainScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MainMenu
from tui.screens.table_game import TableGameScreen
from tui.widgets.game_over import GameOverScreen


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


def _count_give_backs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the app's hand-backs of a left game's memory from now on (one entry each)."""
    given_back: list[int] = []
    monkeypatch.setattr(tui.app, "give_back", lambda: given_back.append(1) or True)
    return given_back


async def test_on_a_late_loop_a_pass_and_play_game_plays_its_steps_and_curtains_to_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people at one keyboard: each hand-off raises a curtain, and the steps between wait as a solo game's."""
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    curtains: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        late_one_shot_timers(monkeypatch)
        lift = CurtainScreen.action_reveal

        def reveal(curtain: CurtainScreen) -> None:
            curtains.append(curtain.player_name)
            lift(curtain)

        monkeypatch.setattr(CurtainScreen, "action_reveal", reveal)
        given_back = _count_give_backs(monkeypatch)
        await play_one_game(app, "wizards-cup", 4, bound=300.0, start=near_the_end, at_keyboard=("Ana", "Bea"))
        assert isinstance(app.screen, MainMenu)
        # The left game's memory goes back after an alarm, as after a solo game (tests/tui/test_seat_memory.py).
        await until(pilot, lambda: given_back == [1], "the left game's memory given back")
    assert {"Ana", "Bea"} <= set(curtains)  # each hand-off was behind a curtain, both ways


async def test_on_a_late_loop_a_shared_tables_game_plays_its_steps_to_the_end(
        other: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana hosts (her Coven plays the table's steps); Bea plays her seat from another process."""
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        tables = app.tables.store()
        assert tables is not None
        hosted = tables.host("wizards-cup", {"tokens_to_win": 1}, 7,
                             [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")], host_name="Ana")
        app.tables.open_lobby(hosted.info.code, hosted.token)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.take_seat(hosted.info.code, 1, "Bea")
        await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
        late_one_shot_timers(monkeypatch)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.drives_table
        bea = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
        rng = random.Random(7)
        moved_at = -1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 300
        while not isinstance(app.screen, GameOverScreen):
            assert loop.time() < deadline, f"the table's game stalled: {app.screen!r}, {game.status_text!r}"
            await asyncio.sleep(0.02)
            screen = app.screen
            if isinstance(screen, RoundResultScreen):
                screen.action_close()
                continue
            bea.sync()
            if 1 in bea.to_act:
                play_for(bea, 1, rng)
            elif game.is_current and 0 in game.live.to_act and moved_at != len(game.live.log):
                moved_at = len(game.live.log)  # one move a turn, however long the screen takes to show it
                view = game.live.rules.view(game.live.state, 0)
                legal = game.live.rules.legal_actions(game.live.state, 0)
                game.table.post_message(GameTable.ActionChosen(0, SPEC.bots["easy"](view, legal, rng)))
        assert game.live.finished  # the duels were played here, each step after an alarm
        given_back = _count_give_backs(monkeypatch)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        over.action_close()  # back to the menu: the table's game, too, gives its memory back after an alarm
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and given_back == [1],
                    "the menu, and the left table game's memory given back")


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
