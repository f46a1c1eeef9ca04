"""Fakes and helpers for the app-shell tests: a fake game table, fixtures and a sync runner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from engine import Event, Result
from saves import LiveSession, SeatInfo
from tui.app import CovenApp
from tui.games.base import GameTable, GameUI


def describe_view(view: Any) -> str:
    """A short, deterministic text for any game's view."""
    players = getattr(view, "players", None)
    if players is None:
        return f"view {view}"
    teams = ["hidden" if p.team is None else "/".join(p.team) for p in players]
    return f"view seat={view.seat} phase={view.phase} round={view.round} teams={teams}"


class FakeTable(GameTable[Any, Any]):
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

    def choose(self, seat: int, action: Any) -> None:
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
    from tui.screens.game.screen import GameScreen

    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))


# -- main menu ---------------------------------------------------------------------


class ScreenApp(App[None]):
    """Pushes one result screen and notes when it is dismissed."""

    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.result_screen = screen
        self.dismissed = False

    def on_mount(self) -> None:
        def done(_: None) -> None:
            self.dismissed = True

        self.push_screen(self.result_screen, done)
