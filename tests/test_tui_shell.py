"""Behaviour tests of the app shell: menu, new game, sessions, game loop, curtain, replay."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Iterator, Sequence
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

import tui.games
from engine import Event, Result, get_game
from saves import LiveSession, SeatInfo, SessionStore
from tui.app import CovenApp
from tui.games.base import GameTable, GameUI


def describe_view(view: Any) -> str:
    """A short, deterministic text for any game's view."""
    players = getattr(view, "players", None)
    if players is None:
        return f"view {view}"
    teams = ["hidden" if p.team is None else "/".join(p.team) for p in players]
    return f"view seat={view.seat} phase={view.phase} round={view.round} teams={teams}"


class FakeTable(GameTable):
    """A stand-in table: shows a line of text and records calls."""

    DEFAULT_CSS = "FakeTable { height: auto; } FakeTable Static { height: auto; }"

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[tuple[Any, int | None, int]] = []
        self.events: list[Event] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="fake-view")

    def show(self, view: Any, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        self.shown.append((view, deciding_seat, len(legal)))
        self.query_one("#fake-view", Static).update(
            f"{describe_view(view)}\ndeciding={deciding_seat} legal={len(legal)}"
        )

    def show_events(self, events: Sequence[Event]) -> None:
        self.events.extend(events)

    def choose(self, seat: int, action: dict[str, Any]) -> None:
        self.post_message(GameTable.ActionChosen(seat, action))


class FakeResult(Screen[None]):
    """A stand-in final screen."""

    BINDINGS = [("escape", "dismiss", "Close")]

    def __init__(self, result: Result) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        yield Static(f"Game over: {self.result.reason}")


class FakeUI(GameUI):
    """Screen parts built from the fakes above."""

    def make_table(self) -> GameTable:
        return FakeTable()

    def game_result(self, view: Any, result: Result, events: Sequence[Event]) -> Screen[None]:
        return FakeResult(result)


@pytest.fixture
def fake_ui(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUI]:
    """Use the fake table for every game during one test."""
    ui = FakeUI()
    monkeypatch.setattr(tui.games, "_GAME_UIS", {"wizards-cup": ui, "count-to-ten": ui})
    yield ui


@pytest.fixture
def store() -> Iterator[SessionStore]:
    """A store in the test's data directory."""
    with SessionStore() as opened:
        yield opened


def seats(*specs: str) -> list[SeatInfo]:
    """SeatInfo from "Name" (human) or "Name:level" (bot)."""
    result = []
    for spec in specs:
        name, _, level = spec.partition(":")
        result.append(SeatInfo(name, "bot", level) if level else SeatInfo(name))
    return result


def play_until(live: LiveSession, steps: int) -> None:
    """Advance ``live`` by ``steps`` actions with the easy bot for every seat (deterministic)."""
    from engine.core import seeded_rng

    spec, rules = live.spec, live.rules
    for index in range(steps):
        if live.result is not None:
            return
        if live.to_act:
            seat = live.to_act[0]
            bot = spec.bots["easy"]
            live.apply(seat, bot(rules.view(live.state, seat), rules.legal_actions(live.state, seat), seeded_rng(1, index)))
        else:
            live.play_table()


def game_screen(app: CovenApp) -> Any:
    """The GameScreen in the stack (it may be under a curtain or modal)."""
    from tui.screens.game import GameScreen

    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


def sync(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no async pytest plugin is installed)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


# -- main menu ---------------------------------------------------------------------


@sync
async def test_menu_keys_open_screens(fake_ui: FakeUI) -> None:
    from tui.screens.menu import MainMenu
    from tui.screens.new_game import NewGameScreen
    from tui.screens.rules import RulesScreen
    from tui.screens.sessions import SessionsScreen

    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MainMenu)
        for key, screen_type in (("n", NewGameScreen), ("s", SessionsScreen), ("r", RulesScreen)):
            await pilot.press(key)
            assert isinstance(app.screen, screen_type)
            await pilot.press("escape")
            assert isinstance(app.screen, MainMenu)


@sync
async def test_continue_disabled_without_sessions_and_resumes_latest(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.menu import NO_CONTINUE

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        hint = app.screen.query_one("#continue-hint", Static)
        assert str(hint.render()) == NO_CONTINUE
        await pilot.press("c")
        assert type(app.screen).__name__ == "MainMenu"
        live = LiveSession.create(store, "wizards-cup", None, 3, seats("Ann", "Bob"))
        app.screen.refresh_continue()  # type: ignore[attr-defined]
        await pilot.press("c")
        await pilot.pause()
        assert game_screen(app).live.session_id == live.session_id


@sync
async def test_command_palette_lists_main_commands(fake_ui: FakeUI) -> None:
    from tui.commands import CovenCommands

    app = CovenApp()
    async with app.run_test(size=(80, 24)):
        provider = CovenCommands(app.screen)
        names = [name for name, _, _ in provider._commands()]
        assert names[:3] == ["New game", "Continue", "Sessions"]
        assert "Rules: Wizards Cup" in names and "Quit Coven" in names


@sync
async def test_command_palette_opens_sessions(fake_ui: FakeUI) -> None:
    from tui.screens.sessions import SessionsScreen

    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"sessions")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)


@sync
async def test_too_small_notice_appears_and_disappears() -> None:
    from tui.screens.menu import MainMenu
    from tui.screens.too_small import TooSmallScreen

    app = CovenApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small-notice", Static).render())
        assert "80×24" in text and "60×20" in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, MainMenu)
        await pilot.resize_terminal(70, 30)
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)


@sync
async def test_newer_schema_database_shows_message(coven_data_dir: Any) -> None:
    import sqlite3

    from saves import db_path

    SessionStore().close()
    with sqlite3.connect(db_path()) as conn:
        conn.execute("PRAGMA user_version = 999")
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "StoreProblemScreen"
        message = str(app.screen.query_one("#problem-message", Static).render())
        assert "newer Coven" in message
        await pilot.press("n")  # nothing to open; must not crash
        assert type(app.screen).__name__ == "StoreProblemScreen"


@sync
async def test_corrupt_database_notice_is_shown(coven_data_dir: Any) -> None:
    from saves import db_path

    db_path().write_bytes(b"this is not a database" * 100)
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("moved" in notification.message for notification in app._notifications)


# -- new game -------------------------------------------------------------------------


@sync
async def test_new_game_form_starts_a_game(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.new_game import NewGameScreen

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#seed").value = "42"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = game_screen(app)
        assert screen.live.seed == 42
        assert [seat.name for seat in screen.live.seats] == ["Ana", "Merlin"]
        assert screen.live.seats[1].bot_level == "normal"
        assert [type(s).__name__ for s in app.screen_stack][-2:] == ["MainMenu", "GameScreen"]


@sync
async def test_new_game_validation_messages(fake_ui: FakeUI, store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#seat-name-0").value = "Merlin"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = "abc"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        errors = str(screen.query_one("#form-errors", Static).render())
        assert "names must differ" in errors and "whole number" in errors
        assert screen.focused is not None and screen.focused.id == "seat-name-1"  # the second "Merlin"
        assert any("names must differ" in n.message for n in app._notifications)
        screen.query_one("#seat-name-0").value = "  "  # type: ignore[attr-defined]
        screen.query_one("#seat-name-1").value = "merlin"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        assert "Seat 1 needs a name" in str(screen.query_one("#form-errors", Static).render())
        screen.query_one("#seat-name-0").value = "MERLIN"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = ""  # type: ignore[attr-defined]
        screen.query_one("#seat-count").focus()
        await pilot.press("ctrl+s")
        errors = str(screen.query_one("#form-errors", Static).render())
        assert "Seats 1 and 2 are both called 'merlin'" in errors  # capitals don't count
        assert "whole number" not in errors
        assert screen.focused is not None and screen.focused.id == "seat-name-1"
        assert store.list_sessions() == []


@sync
async def test_new_game_errors_are_visible_at_80x24(fake_ui: FakeUI, store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#seed").value = "not a number"  # type: ignore[attr-defined]
        screen.query_one("#seat-name-0").focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        seed = screen.query_one("#seed")
        assert screen.focused is seed
        assert seed.region.bottom <= 23 and seed.region.y >= 1  # scrolled into view, above the footer
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "whole number" in shown


@sync
async def test_switching_a_seat_kind_keeps_a_typed_name(fake_ui: FakeUI, store: SessionStore) -> None:
    from textual.widgets import Input, Select

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        name = screen.query_one("#seat-name-1", Input)
        kind = screen.query_one("#seat-kind-1", Select)
        assert (name.value, kind.value) == ("Merlin", "bot:normal")
        kind.value = "human"  # a name the form chose follows the kind
        await pilot.pause()
        assert name.value == "Player 2"
        kind.value = "bot:easy"
        await pilot.pause()
        assert name.value == "Merlin"
        name.value = "Bo"  # a typed name stays, whatever the kind
        kind.value = "human"
        await pilot.pause()
        assert name.value == "Bo"
        kind.value = "bot:normal"
        await pilot.pause()
        assert name.value == "Bo"


# -- game screen and curtain ---------------------------------------------------------------


@sync
async def test_curtain_for_two_humans(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.curtain import CurtainScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann", "Bob"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        table = game_screen(app).table
        assert table.shown[-1][0].seat is None  # spectator view under the curtain
        await pilot.press("enter")
        await pilot.pause()
        assert table.shown[-1][0].seat == 0 and table.shown[-1][1] == 0
        legal = live.rules.legal_actions(live.state, 0)
        table.choose(0, live.rules.action_to_json(legal[0]))
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert table.shown[-1][0].seat is None


@sync
async def test_no_curtain_for_one_human_against_a_bot(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("You", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = game_screen(app)
        assert app.screen is screen
        assert len(live.log) == 1 and live.log[0].seat == 1  # the bot chose its team
        assert all(view.seat == 0 for view, _, _ in screen.table.shown)
        assert screen.table.shown[-1][1] == 0


@sync
async def test_illegal_action_is_reported(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("You", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = game_screen(app)
        screen.table.choose(0, {"type": "nonsense"})
        await pilot.pause()
        assert len(live.log) == 1
        assert any(n.severity == "error" for n in app._notifications)


@sync
async def test_table_steps_with_space_and_auto_play(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 4)  # teams and lineups chosen: the duels wait
    assert live.table_action is not None and not live.to_act
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await pilot.press("space")
        assert len(live.log) == 5
        await pilot.press("a")
        await pilot.pause(0.2)
        await pilot.press("a")
        assert len(live.log) > 6
        while type(app.screen).__name__ != "GameScreen":  # a result screen may be up
            await pilot.press("escape")
        await pilot.press("escape")
        assert type(app.screen).__name__ == "MainMenu"


@sync
async def test_step_keys_are_hidden_while_a_human_here_decides(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ana", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = game_screen(app)
        assert 0 in live.to_act
        assert screen.check_action("step", ()) is False and screen.check_action("toggle_auto", ()) is False
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "Next step" not in shown and "Auto play" not in shown and "Log" in shown


@sync
async def test_resumed_game_shows_the_events_so_far(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 6)
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(live.session_id)
        await pilot.pause()
        table = game_screen(app).table
        assert [event.kind for event in table.events].count("duel") == 2
        assert table.events[-1] == live.events_at(len(live.log))[-1]


# -- sessions and replay -------------------------------------------------------------------


@sync
async def test_delete_asks_for_confirmation(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.confirm import ConfirmScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert len(store.list_sessions()) == 1
        await pilot.press("d", "y")
        assert store.list_sessions() == []
        assert app.screen.query_one("#sessions-empty").display


@sync
async def test_export_and_import(fake_ui: FakeUI, store: SessionStore, tmp_path: Any) -> None:
    from tui.screens.confirm import PromptScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    target = tmp_path / "out.json"
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "e")
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert target.is_file()
        await pilot.press("i")
        app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert len(store.list_sessions()) == 2


@sync
async def test_export_asks_before_replacing_a_file(fake_ui: FakeUI, store: SessionStore, tmp_path: Any) -> None:
    from tui.screens.confirm import ConfirmScreen, PromptScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    target = tmp_path / "taken.json"
    target.write_text("precious")
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        for answer in ("n", "y"):
            await pilot.press("e")
            assert isinstance(app.screen, PromptScreen)
            app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert f"Replace {target}?" in app.screen.question
            assert target.read_text() == "precious"
            await pilot.press(answer)
            await pilot.pause()
            assert type(app.screen).__name__ == "SessionsScreen"
        assert '"coven-session"' in target.read_text()


@sync
async def test_sessions_say_in_progress_and_mark_bots(fake_ui: FakeUI, store: SessionStore) -> None:
    from textual.widgets import DataTable

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ana", "Merlin:normal"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        table = app.screen.query_one(DataTable)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[1:3] == ["Ana vs Merlin (bot)", "in progress"]  # one game only: no Game column


@sync
async def test_replay_steps(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 8)
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "p")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.step == 0 and screen.total == 8
        await pilot.press("right", "l", "space", "left")
        assert screen.step == 2
        await pilot.press("end")
        assert screen.step == 8 and "Step 8 of 8" in screen.status_line()
        await pilot.press("home")
        assert screen.step == 0 and screen.viewpoint is None


@sync
async def test_replay_shows_seat_views_only_once_the_game_is_over(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 8)
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "p")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end", "v", "v", "v")
        assert screen.viewpoint is None and "viewing as Spectator" in screen.status_line()
        assert all(view.seat is None for view, _, _ in screen.table.shown)  # type: ignore[attr-defined]
        assert any("once the game is over" in n.message for n in app._notifications)
        await pilot.press("escape", "escape")
        play_until(live, 2000)
        assert live.result is not None
        app.open_replay(live.session_id)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "v")
        assert screen.viewpoint == 0 and "viewing as Ann" in screen.status_line()
        assert screen.table.shown[-1][0].seat == 0  # type: ignore[attr-defined]
        await pilot.press("v", "v")
        assert screen.viewpoint is None


@sync
async def test_rules_screen_missing_file_is_friendly(tmp_path: Any) -> None:
    from tui.screens.rules import rules_markdown

    text = rules_markdown("wizards-cup", tmp_path)
    assert "not installed" in text and "Wizards Cup" in text
