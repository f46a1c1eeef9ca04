"""The verbosity setting: terse, normal and full announce, answers and transcript, in each game and per account."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from engine.wizards_cup.state import Phase as CupPhase
from engine.wizbits.state import Phase as BitsPhase
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import GAMES, game_screen
from tests.helpers.new_game_memory import open_form
from tests.helpers.questions import Seat, narrated_until, one_move
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.cli import main
from tui.games.narration import Question
from tui.narration import sentence
from tui.player_settings import SETTINGS, read_settings, write_setting
from tui.screens.game.narrator import Narrator
from tui.screens.game.screen import GameScreen
from tui.screens.settings_screen import SettingsScreen
from tui.verbosity import Verbosity, first_sentence

MOMENTS: dict[str, Callable[[Any], bool]] = {
    "wizards-cup": lambda view: view.phase is CupPhase.DUEL and view.duel >= 2,
    "witchdraft": lambda view: view.phase == 2 and view.stage == "place",
    "wizbits": lambda view: view.phase == BitsPhase.ELEMENTS and view.priority == 0,
}
"""A moment of each game where there is plenty to say."""


def in_game(app: CovenApp) -> bool:
    """Whether the game screen is in front."""
    return isinstance(app.screen, GameScreen)


def narrators(store: SessionStore, game_id: str) -> dict[Verbosity, Narrator]:
    """The same moment of ``game_id`` narrated for seat 0 at each level."""
    _, screen, narrator = narrated_until(store, game_id, MOMENTS[game_id])
    found = {}
    for level in Verbosity:
        found[level] = Narrator(screen)
        found[level].level = level
    return found


@pytest.mark.parametrize("game_id", list(GAMES))
def test_announce_is_one_sentence_at_terse_and_the_detail_at_once_at_full(store: SessionStore, game_id: str) -> None:
    by_level = narrators(store, game_id)
    normal = by_level[Verbosity.NORMAL].announce()
    detail = by_level[Verbosity.NORMAL].announce()  # pressed again: the detail
    assert detail != normal and detail.startswith(normal)
    terse = by_level[Verbosity.TERSE].announce()
    assert terse == first_sentence(normal) and len(terse) < len(normal)
    assert by_level[Verbosity.TERSE].announce() == terse  # a second press adds nothing at terse
    assert by_level[Verbosity.FULL].announce() == detail  # the detail at the first press
    assert by_level[Verbosity.FULL].announce() == detail  # and again at the second


@pytest.mark.parametrize("game_id", list(GAMES))
def test_answers_are_first_sentences_at_terse_and_say_more_at_full(store: SessionStore, game_id: str) -> None:
    by_level = narrators(store, game_id)
    shortened = []
    for question in (Question.HAND, Question.OPPONENTS, Question.SCORE, Question.BOARD):
        normal = by_level[Verbosity.NORMAL].answer(question)
        terse = by_level[Verbosity.TERSE].answer(question)
        assert terse == first_sentence(normal), question
        shortened.append(terse != normal)
        full = by_level[Verbosity.FULL].answer(question)
        if question in (Question.HAND, Question.BOARD):  # these list everything the view has at full
            assert full.startswith(normal) and len(full) > len(normal), question
        else:
            assert full == normal, question
    assert any(shortened), "terse shortened no answer"


MODES = {"solo": ([0], True), "one keyboard": ([0, 1], True), "ssh table": ([0], False)}
"""The seats played at this terminal, and whether it plays the bots (not at an SSH table joined by Ana)."""


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_transcript_drops_bare_turn_lines_at_terse_and_prompts_every_turn_at_full(
        store: SessionStore, game_id: str, mode: str) -> None:
    live = LiveSession.create(store, game_id, GAMES[game_id], 5,
                              [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    here, drives = MODES[mode]
    screen = Seat(live, list(here), drives_table=drives)
    by_level = {level: Narrator(screen) for level in Verbosity}
    events: set[str] = set()
    for level, narrator in by_level.items():
        narrator.level = level
        narrator.ready = True
        narrator.situation()
    for _ in range(120):
        if live.result is not None:
            break
        lines = screen.ui.log_lines(one_move(live), screen.viewer_seat)
        events.update(text for text in map(sentence, lines) if text)
        for narrator in by_level.values():
            narrator.events(lines)
    said = {level: narrator.transcript.lines for level, narrator in by_level.items()}
    told = {level: [line for line in lines if line in events] for level, lines in said.items()}
    assert told[Verbosity.TERSE] == told[Verbosity.NORMAL] == told[Verbosity.FULL]  # every event line, each level
    turns = {level: [line for line in lines if line not in events] for level, lines in said.items()}
    bare = [line for line in turns[Verbosity.NORMAL] if ":" not in line and "over" not in line]
    assert bare, "normal says whose turn it is without a prompt somewhere"
    assert all(":" in line or line == "The game is over." for line in turns[Verbosity.TERSE])
    assert [line for line in turns[Verbosity.NORMAL] if ":" in line] == \
        [line for line in turns[Verbosity.TERSE] if ":" in line]  # the lines asking Ana stay
    assert all(":" in line for line in turns[Verbosity.FULL] if "Bo" in line and "Waiting" not in line)
    if mode == "ssh table":  # Bo plays at another terminal: "Waiting for Bo to choose." is all, at normal and full
        assert any(line.startswith("Waiting for Bo") for line in turns[Verbosity.NORMAL])
        assert not any(line.startswith("Waiting for") for line in turns[Verbosity.TERSE])
    else:
        assert any("Bo" in line and ":" in line for line in turns[Verbosity.FULL])


@pytest.mark.parametrize("game_id", list(GAMES))
def test_linear_mode_is_names_only_at_terse_and_adds_values_at_full(store: SessionStore, game_id: str) -> None:
    by_level = narrators(store, game_id)
    said = {level: narrator.linear(0) for level, narrator in by_level.items()}
    normal, terse, full = said[Verbosity.NORMAL], said[Verbosity.TERSE], said[Verbosity.FULL]
    assert normal is not None and terse is not None and full is not None
    players = len(by_level[Verbosity.NORMAL].screen.live.seats)
    assert len(terse.splitlines()) <= players + 2 < len(normal.splitlines())  # a heading, the Pillar, a line a side
    assert all(name in terse for name in ("Ana", "Bo")) or "You" in terse
    assert not any(value in terse for value in (" d4", " d6", " d8", "SCN", "(Fire", "(Water", "brew point"))
    normal_lines, full_lines = normal.splitlines(), full.splitlines()
    assert all(line in full_lines for line in normal_lines) and len(full_lines) > len(normal_lines)


def test_the_setting_round_trips_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settings", "set", "verbosity", "terse"]) == 0
    assert main(["settings", "get", "verbosity"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "terse"
    assert main(["settings", "--account", "ana", "set", "verbosity", "full"]) == 0
    assert main(["settings", "--account", "ana", "get", "verbosity"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "full"
    assert main(["settings", "get", "verbosity"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "terse"  # this machine's, not Ana's
    assert main(["settings", "set", "verbosity", "loud"]) == 2
    assert "verbosity is one of terse, normal, full" in capsys.readouterr().err


async def test_the_settings_screen_changes_the_verbosity(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the Settings screen")
        for _ in range(len(SETTINGS)):  # down to the Verbosity row
            if app.screen.current.name == "verbosity":  # type: ignore[attr-defined]
                break
            await pilot.press("down")
        await pilot.press("right")
        await until(pilot, lambda: read_settings(store, None)["verbosity"] == "full", "full, after normal")
        await pilot.press("left", "left")
        await until(pilot, lambda: read_settings(store, None)["verbosity"] == "terse", "terse, before normal")


async def test_each_served_account_narrates_at_its_own_level() -> None:
    with SessionStore() as store:
        write_setting(store, "bo", "verbosity", "terse")
        write_setting(store, "cy", "verbosity", "full")
    for account, level in (("bo", Verbosity.TERSE), ("cy", Verbosity.FULL)):
        app = CovenApp(auto_delay=60.0, account=account, player_name=account, serve_port=2222, signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_form(app, pilot)
            await pilot.press("ctrl+s")
            await until(pilot, partial(in_game, app), "the game")
            assert game_screen(app).narrator.level is level
