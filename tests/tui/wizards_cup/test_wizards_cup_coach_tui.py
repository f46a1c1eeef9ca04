"""The coach in the app: h on the lineup screen, h in a finished game's replay, the setting and shared tables."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.widgets import OptionList

import engine.wizards_cup.coach as coach_module
from engine.wizards_cup.actions import ChooseTeam
from engine.wizards_cup.state import Phase, WizardsCupView
from saves import LiveSession, SeatInfo, SessionStore
from saves.tables import SeatPlan, TableStore
from tests.helpers.tui_fakes import play_until
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.games.wizards_cup.coach import LineupCoachScreen, ReviewCoachScreen
from tui.games.wizards_cup.lineup import LineupEditor
from tui.player_settings import write_setting
from tui.screens.game.screen import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MainMenu
from tui.screens.replay import ReplayScreen
from tui.screens.table_game import TableGameScreen

ANA_TEAM = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
BO_TEAM = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]


def at_the_lineup(store: SessionStore) -> LiveSession:
    """Ana (here) against the normal bot, both teams in: Ana's round-1 lineup is next."""
    live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
    live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
    live.apply(1, ChooseTeam(tuple(BO_TEAM)))
    assert live.state.phase is Phase.LINEUP
    return live


def lineup_focused(app: CovenApp) -> bool:
    lists = app.screen.query("#lu-list") if isinstance(app.screen, GameScreen) else None
    return bool(lists) and lists.first(OptionList).has_focus


def coach_text(app: CovenApp) -> str:
    screen = app.screen
    return screen.words() if isinstance(screen, (LineupCoachScreen, ReviewCoachScreen)) else ""


def help_text(app: CovenApp) -> str:
    """The help screen's keys, as plain text."""
    return " ".join(str(option.prompt) for lists in app.screen.query(OptionList) for option in lists.options)


def notes(app: CovenApp) -> str:
    return " ".join(str(n.message) for n in app._notifications)


class Held:
    """Stands in for the coach's work: waits until released, then does the real work; notes what it was given."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked: list[tuple[WizardsCupView, tuple[str, ...]]] = []
        self.real = coach_module.advise_lineup

    def __call__(self, view: WizardsCupView, order: tuple[str, ...], seed: int = 0) -> Any:
        self.asked.append((view, tuple(order)))
        assert self.go.wait(60)
        return self.real(view, order, seed)


async def test_h_on_the_lineup_thinks_without_holding_keys_then_speaks_of_the_lineup_as_arranged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    held = Held()
    monkeypatch.setattr(coach_module, "advise_lineup", held)
    with SessionStore() as store:
        live = at_the_lineup(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            app.start_game(live)
            await until(pilot, lambda: lineup_focused(app), "Ana's lineup")
            assert app.screen.active_bindings["h"].binding.description == "Coach"
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, LineupCoachScreen), "the coach")
            assert "Thinking" in coach_text(app)
            await pilot.press("escape")  # the coach is still thinking: the key is not held for it
            await until(pilot, lambda: lineup_focused(app), "the lineup again")
            editor = app.screen.query_one(LineupEditor)
            await pilot.press("]", "h")  # move the first wizard down one, and ask again
            await until(pilot, lambda: isinstance(app.screen, LineupCoachScreen), "the coach again")
            held.go.set()
            await until(pilot, lambda: "Your lineup" in coach_text(app), "the coach's words")
            text = coach_text(app)
            view, order = held.asked[-1]
            assert order == editor.order and order[:2] == (ANA_TEAM[0], "pyre-lord")
            assert view.seat == 0 and view.players[1].team is None  # Ana's own view: Merlin's team stays hidden
            assert "would win" in text and "Hard's most-played lineups" in text and "to win the Cup" in text
            await pilot.press("escape")
            await until(pilot, lambda: lineup_focused(app), "the lineup after the coach")


async def test_the_setting_turns_the_coach_off() -> None:
    with SessionStore() as store:
        write_setting(store, None, "coach", False)
        live = at_the_lineup(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            app.start_game(live)
            await until(pilot, lambda: lineup_focused(app), "Ana's lineup")
            assert "h" not in app.screen.active_bindings
            editor = app.screen.query_one(LineupEditor)
            before = editor.order
            await pilot.press("h", "]")  # keys are handled in order: once ] has moved a wizard, h has been seen
            await until(pilot, lambda: editor.order != before, "the ] after the h")
            assert lineup_focused(app) and not isinstance(app.screen, LineupCoachScreen)
            write_setting(store, None, "coach", True)  # as the Settings screen would, over the game
            await pilot.press("f1")
            await until(pilot, lambda: not isinstance(app.screen, GameScreen), "the help")
            assert "Coach" not in help_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: lineup_focused(app), "the lineup again")
            await until(pilot, lambda: "h" in app.screen.active_bindings, "h again, once the game is back")
            await pilot.press("f1")  # the help lists it now, where it works
            await until(pilot, lambda: "Coach" in help_text(app), "h Coach in the help")


def finished(store: SessionStore) -> LiveSession:
    live = LiveSession.create(store, "wizards-cup", {}, 4, [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    play_until(live, 400)
    assert live.finished
    return live


async def test_h_in_a_finished_games_replay_reviews_every_round() -> None:
    with SessionStore() as store:
        live = finished(store)
        rounds = sum(1 for step in live.history() for e in step.events if e.kind == "round_end")
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await app.push_screen(ReplayScreen(LiveSession.load(store, live.session_id), start=3))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            assert app.screen.active_bindings["h"].binding.action == "coach"
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, ReviewCoachScreen), "the review")
            await until(pilot, lambda: "Round 1" in coach_text(app), "the review's words")
            text = coach_text(app)
            assert all(f"Round {n}" in text for n in range(1, rounds + 1))
            assert "The equilibrium suggested for Ana" in text and "played:" in text
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay again")
            assert app.screen.step == 3


async def test_h_steps_back_in_an_unfinished_games_replay() -> None:
    with SessionStore() as store:
        live = at_the_lineup(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await app.push_screen(ReplayScreen(LiveSession.load(store, live.session_id), start=2))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            await pilot.press("h")
            await until(pilot, lambda: app.screen.step == 1, "a step back")
            assert not isinstance(app.screen, ReviewCoachScreen)


async def at_a_table_lineup(other: TableStore, allow_coach: bool | None) -> tuple[CovenApp, Any, str]:
    """Ana joins Hal's table (the coach allowed or not; None: the default) and both teams are chosen."""
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    extra = {} if allow_coach is None else {"allow_coach": allow_coach}
    code = other.host("wizards-cup", {}, 7, plan, host_name="Hal", **extra).info.code
    return CovenApp(auto_delay=60.0, join_code=code), other, code


async def play_to_the_table_lineup(pilot: Any, app: CovenApp, other: TableStore, code: str) -> TableGameScreen:
    await until(pilot, lambda: "Take seat 2" in app.export_screenshot().replace("&#160;", " "), "the open seat")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    session_id = other.start(code)
    await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
    game = app.screen
    assert isinstance(game, TableGameScreen)
    remote = LiveSession.load(other.store, session_id, claim=other.claim)
    remote.apply(0, ChooseTeam(tuple(BO_TEAM)))
    game.table.post_message(GameTable.ActionChosen(1, ChooseTeam(tuple(ANA_TEAM))))
    await until(pilot, lambda: lineup_focused(app), "Ana's lineup at the table")
    return game


@pytest.mark.parametrize("allowed", [None, True], ids=["off by default", "host allows it"])
async def test_at_a_shared_table_the_coach_waits_for_the_hosts_leave(other: TableStore, allowed: bool | None) -> None:
    app, other, code = await at_a_table_lineup(other, allowed)
    assert other.find(code).coach is bool(allowed)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_table_lineup(pilot, app, other, code)
        await pilot.press("h")
        if allowed:
            await until(pilot, lambda: isinstance(app.screen, LineupCoachScreen), "the coach")
        else:
            await until(pilot, lambda: "The host did not allow the coach" in notes(app), "the reason")
            assert lineup_focused(app)


async def test_with_the_setting_off_h_steps_back_in_a_finished_games_replay_too() -> None:
    with SessionStore() as store:
        write_setting(store, None, "coach", False)
        live = finished(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await app.push_screen(ReplayScreen(LiveSession.load(store, live.session_id), start=3))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            await pilot.press("h")
            await until(pilot, lambda: app.screen.step == 2, "a step back")
            assert not isinstance(app.screen, ReviewCoachScreen)
