"""``;`` inside the Wizards Cup coach, at 80x24: the advice in a sentence or two, and what it is about."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from textual.widgets import OptionList

import engine.wizards_cup.coach as coach_module
from engine.wizards_cup.actions import ChooseTeam
from engine.wizards_cup.state import Phase, WizardsCupView
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.tui_fakes import play_until
from tests.helpers.waiting import new_toast, toast_ids, until
from tui.app import CovenApp
from tui.games.wizards_cup.coach import LineupCoachScreen, ReviewCoachScreen
from tui.games.wizards_cup.lineup import LineupEditor
from tui.screens.menu import MainMenu
from tui.screens.replay import ReplayScreen

SIZE = (80, 24)
ANA_TEAM = ("dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden")
BO_TEAM = ("ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit")


def toasts(app: CovenApp) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def announced(pilot: Any, app: CovenApp) -> str:
    """Press ``;`` and wait for the toast; its words."""
    before = toast_ids(app)
    await pilot.press("semicolon")
    return await new_toast(pilot, before, "the coach's announcement")


async def test_the_lineup_coach_says_its_advice_in_short_once_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    go = threading.Event()
    real = coach_module.advise_lineup

    def held(view: WizardsCupView, order: tuple[str, ...], seed: int = 0) -> Any:
        assert go.wait(60)
        return real(view, order, seed)

    monkeypatch.setattr(coach_module, "advise_lineup", held)
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
        live.apply(0, ChooseTeam(ANA_TEAM))
        live.apply(1, ChooseTeam(BO_TEAM))
        assert live.state.phase is Phase.LINEUP
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            app.start_game(live)
            await until(pilot, lambda: bool(app.screen.query(LineupEditor)), "Ana's lineup")
            await until(pilot, lambda: app.screen.query_one("#lu-list", OptionList).has_focus, "the lineup's focus")
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, LineupCoachScreen), "the coach")
            coach = app.screen
            assert isinstance(coach, LineupCoachScreen)
            shot = app.export_screenshot().replace("&#160;", " ")
            assert "Announce" in shot  # the Footer lists the key
            assert await announced(pilot, app) == "The coach is still thinking about your lineup for round 1."
            go.set()
            await until(pilot, lambda: not coach.thinking and "Your lineup" in coach.words(), "the coach's words")
            said = await announced(pilot, app)
            assert said.startswith("The coach on your lineup for round 1: Your lineup wins ")
            chances = re.search(r"wins \d+% of rounds and loses \d+%", said)
            assert chances is not None and chances.group(0) in coach.words()  # the panel's own figures
            cups = re.findall(r"about \d+% to win the Cup", said)
            assert len(cups) == 2 and all(cup in coach.words() for cup in cups)
            assert said.count(". ") + said.endswith(".") <= 3  # the advice in two sentences, not the panel


async def test_the_review_coach_says_what_each_side_gave_up_in_all() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 4,
                                  [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
        play_until(live, 400)
        assert live.finished
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await app.push_screen(ReplayScreen(LiveSession.load(store, live.session_id), start=3))
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, ReviewCoachScreen), "the review")
            coach = app.screen
            assert isinstance(coach, ReviewCoachScreen)
            await until(pilot, lambda: not coach.thinking and "Round 1" in coach.words(), "the review's words")
            said = await announced(pilot, app)
            rounds = len(re.findall(r"^Round \d+ ", coach.words(), flags=re.MULTILINE))
            assert said.startswith("The coach on the finished game, round by round: ")
            assert f" of {rounds} reviewed." in said
            assert "Ana gave up " in said and "Bo gave up " in said
            await pilot.press("f1")  # the help lists the key
            await until(pilot, lambda: app.screen is not coach, "the help")
            keys = " ".join(str(option.prompt) for lists in app.screen.query(OptionList) for option in lists.options)
            assert "Announce" in keys
