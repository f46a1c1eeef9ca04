"""Shared by test_wizbits_passing.py and other test modules, which import them from here.

Curtains, DEFAULT_DECKS, SIZE, asked, lift, log_text, two_people, moved here from
tests/tui/wizbits/test_wizbits_passing.py.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import RichLog

from engine.wizbits import actions as act
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizbits.table import WizbitsTable
from tui.screens.curtain import CurtainScreen

SIZE = (100, 30)
DEFAULT_DECKS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}


SEED = 1
"""With this seed both Mains pass their Tests up to turn 4. Bo holds no cards in turn 1, so no curtain hides
his choices: with Ember Dawn he can only pass. From turn 2 on both hold cards and always have more than a
pass to choose from, so each hand-over raises a curtain."""


def two_people(store: SessionStore, decks: dict[str, str], turn: int = 1) -> LiveSession:
    """Ana and Bo at one keyboard, at the first Priority of ``turn`` (every earlier Priority passed, no attacks)."""
    live = LiveSession.create(store, "wizbits", decks, SEED, [SeatInfo("Ana"), SeatInfo("Bo")])
    while not (live.state.turn == turn and live.to_act):
        if not live.to_act:
            live.play_table()
            continue
        seat = live.to_act[0]
        live.apply(seat, act.Pass() if act.Pass() in live.rules.legal_actions(live.state, seat) else act.Attack(()))
    assert live.result is None and live.state.active == (turn + 1) % 2 and live.state.phase == "elements"
    return live


class Curtains:
    """Counts the curtains the app puts up, by the name on each."""

    def __init__(self, app: CovenApp) -> None:
        self.names: list[str] = []
        push = app.push_screen

        def counting(screen: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(screen, CurtainScreen):
                self.names.append(screen.player_name)
            return push(screen, *args, **kwargs)

        app.push_screen = counting  # type: ignore[method-assign]


def log_text(app: CovenApp) -> list[str]:
    return [strip.text.strip() for strip in game_screen(app).query_one("#game-log", RichLog).lines]


def table_of(app: CovenApp) -> WizbitsTable:
    table = game_screen(app).table
    assert isinstance(table, WizbitsTable)
    return table


async def lift(pilot: Any, app: CovenApp, name: str) -> None:
    """Wait for ``name``'s curtain and lift it."""
    await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == name,
                f"{name}'s curtain")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CurtainScreen), "the curtain to lift")


async def asked(pilot: Any, app: CovenApp, seat: int, stage: str = "hand") -> WizbitsTable:
    """Wait until ``seat`` is asked (its curtain lifted), at ``stage``."""
    table = table_of(app)
    await until(pilot, lambda: not isinstance(app.screen, CurtainScreen) and table.seat == seat
                and table.stage == stage and seat in game_screen(app).live.to_act, f"seat {seat} to be asked")
    return table
