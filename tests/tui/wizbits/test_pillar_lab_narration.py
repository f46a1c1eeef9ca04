"""The Pillar Lab in words: ``;`` announces the table and ``'`` asks, as text and on screen at 80x24.

What the narrator says is checked against the Lab engine's own answers (the next group, the pillar, the events),
worked out apart from the words, at several steps of the shipped scenarios.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from engine.wizbits.lab.json_form import shipped_scenarios
from engine.wizbits.lab.table import LabTable, build, next_group, pass_priority, start, step
from tests.helpers.pillar_lab_tui import LabHost, lab
from tests.helpers.waiting import new_toast, toast_ids, until
from tui.games.narration import Question
from tui.games.wizbits.lab.narration import NOT_IN_THE_LAB, lab_announce, lab_answer
from tui.games.wizbits.lab.screen import PillarLabScreen
from tui.narration import sentence
from tui.screens.help import HelpScreen
from tui.widgets.ask import AskScreen

SIZE = (80, 24)


def resolving(table: LabTable) -> list[LabTable]:
    """``table`` built, then each table of its resolution, Priority passed whenever a trigger opens it."""
    tables = [table]
    table, _ = start(table)
    tables.append(table)
    for _ in range(50):
        if table.done:
            return tables
        if table.priority is not None:
            table, _ = pass_priority(table)
        else:
            table, _, _ = step(table)
        tables.append(table)
    raise AssertionError("the pillar never resolved")


def test_the_announcement_follows_every_step_of_each_shipped_scenario() -> None:
    for scenario in shipped_scenarios():
        tables = resolving(build(scenario))
        said = [lab_announce(table, scenario.active) for table in tables]
        assert len(set(said)) > (2 if scenario.plays else 1), scenario.title  # the words follow the pillar
        assert "Building" in said[0] and scenario.sides[scenario.active].name + " plays next" in said[0]
        assert said[-1].startswith(scenario.title.rstrip(".")) and "Resolved after" in said[-1]
        for table, words in zip(tables[1:-1], said[1:-1], strict=True):
            group = next_group(table)
            assert group, scenario.title
            assert all(unit.name in words.split("Next to resolve")[1] for unit in group)
            assert ("together" in words) == (len(group) > 1)
            assert f"height {group[0].height}" in words or f"height ({group[0].height})" in words
            if table.priority is not None:
                assert f"{table.state.players[table.priority].name} holds Priority" in words


def test_the_questions_say_the_pillar_the_last_step_and_what_comes_next() -> None:
    scenario = shipped_scenarios()[0]
    tables = resolving(build(scenario))
    for table in tables:
        board = lab_answer(table, 0, Question.BOARD)
        standing = [unit for unit in table.pillar.units() if unit.height >= 1]
        assert all(f"{unit.name} by " in board for unit in standing)
        assert ("The Pillar is empty." in board) == (not standing)
        assert lab_answer(table, 0, Question.LAST) == sentence(table.events[-1].text)
        turn = lab_answer(table, 0, Question.TURN)
        assert turn.startswith("Building" if not table.started else "Resolved" if table.done else "Resolving")
        for question, words in NOT_IN_THE_LAB.items():
            assert lab_answer(table, 0, question) == words
    middle = tables[2]
    assert "Next to resolve" in lab_answer(middle, 0, Question.TURN)
    assert lab_answer(tables[1], 0, Question.BOARD) != lab_answer(middle, 0, Question.BOARD)  # a step took a unit


def toasts(app: Any) -> list[str]:
    return [str(note.message) for note in app._notifications]


def status(screen: PillarLabScreen) -> str:
    return str(screen.query_one("#lab-status", Static).render())


async def said(pilot: Any, screen: PillarLabScreen, keys: tuple[str, ...]) -> str:
    """Press ``;`` (or ``'`` and a letter); the toast's words, once also on the status line."""
    app = screen.app
    before = toast_ids(app)
    await pilot.press(keys[0])
    if len(keys) > 1:
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press(keys[1])
        await until(pilot, lambda: app.screen is screen, "the questions to close")
    text = await new_toast(pilot, before, "the toast")
    await until(pilot, lambda: text[:20] in status(screen), "the words on the status line")
    return text


async def test_the_lab_announces_and_answers_at_several_steps_at_80x24() -> None:
    app = LabHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = lab(app)
        await until(pilot, lambda: screen.table is not None and screen.is_mounted, "the Lab")
        building = await said(pilot, screen, ("semicolon",))
        assert building == lab_announce(screen.table, screen.seat)
        again = await said(pilot, screen, ("semicolon",))  # pressed again: the whole pillar too
        assert again.startswith(building) and len(again) > len(building)
        assert await said(pilot, screen, ("apostrophe", "h")) == NOT_IN_THE_LAB[Question.HAND]
        await pilot.press("g")  # resolution begins
        await until(pilot, lambda: screen.table.started, "resolution")
        await until(pilot, lambda: "Resolving" in status(screen), "the status line back to the table")
        first = await said(pilot, screen, ("semicolon",))
        assert "Next to resolve" in first and first == lab_announce(screen.table, screen.seat)
        await pilot.press("n")
        await until(pilot, lambda: sum(1 for e in screen.table.events if e.kind == "resolve_step") == 1, "a step")
        await until(pilot, lambda: first[:40] not in status(screen), "the words of the table before the step gone")
        second = await said(pilot, screen, ("semicolon",))
        assert second != first and "1 step taken" in second
        board = await said(pilot, screen, ("apostrophe", "b"))
        assert board == lab_answer(screen.table, screen.seat, Question.BOARD)
        last = await said(pilot, screen, ("apostrophe", "l"))
        assert last == lab_answer(screen.table, screen.seat, Question.LAST)
        await pilot.press("question_mark")  # the Lab's every-key list, the help
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        keys = " ".join(str(option.prompt) for lists in app.screen.query(OptionList) for option in lists.options)
        assert "Announce" in keys and "Ask" in keys


def test_at_terse_the_lab_says_the_stage_and_each_answer_its_first_sentence() -> None:
    from tui.games.wizbits.lab.narration import stage_words
    from tui.verbosity import Verbosity, first_sentence

    scenario = shipped_scenarios()[0]
    for table in resolving(build(scenario))[:4]:
        terse = lab_announce(table, 0, level=Verbosity.TERSE)
        assert terse == first_sentence(stage_words(table, 0)) and scenario.title not in terse
        assert lab_announce(table, 0, True, Verbosity.TERSE) == terse  # no detail at terse
        for question in (Question.BOARD, Question.TURN, Question.LAST):
            normal = lab_answer(table, 0, question)
            assert lab_answer(table, 0, question, Verbosity.TERSE) == first_sentence(normal)
            assert lab_answer(table, 0, question, Verbosity.FULL) == normal


async def lab_said_at(level: str) -> tuple[str, str, PillarLabScreen]:
    """The Lab opened with ``verbosity`` at ``level``: ``;`` pressed once, then ``'`` ``t``."""
    from saves import SessionStore
    from tui.app import CovenApp
    from tui.player_settings import write_setting

    store = SessionStore()
    write_setting(store, None, "verbosity", level)
    app = CovenApp(store=store)  # the Coven's settings: a bare host has none
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = PillarLabScreen(shipped_scenarios()[0], auto_pause=0.05, store=store)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen and screen.table is not None, "the Lab")
        announced = await said(pilot, screen, ("semicolon",))
        turn = await said(pilot, screen, ("apostrophe", "t"))
        return announced, turn, screen


async def test_the_lab_follows_the_verbosity_setting() -> None:
    from tui.games.wizbits.lab.narration import stage_words
    from tui.verbosity import first_sentence

    full, full_turn, screen = await lab_said_at("full")
    assert full == lab_announce(screen.table, screen.seat, True)  # the whole Pillar at the first press
    assert full_turn == lab_answer(screen.table, screen.seat, Question.TURN)
    terse, terse_turn, screen = await lab_said_at("terse")
    assert terse == first_sentence(stage_words(screen.table, screen.seat))
    assert terse_turn == first_sentence(full_turn) and len(terse) < len(full)
