"""Shared by the lesson pilots under tests/tui/ (one per game): opening a lesson from the menu, and its steps.

open_lesson, lesson_card, learner_ready and table_step were each test module's own opening and step code.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from engine.core.lessons import LEARNER
from engine.core.lessons.model import LessonStep
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.learn import LearnScreen
from tui.screens.lesson import LessonScreen
from tui.screens.menu import MainMenu


def lesson_card(screen: LessonScreen) -> str:
    """What the lesson's card says now."""
    return str(screen.query_one("#lesson-card").render())


def learn_line(app: CovenApp, lesson_id: str) -> str:
    """Learn's line for ``lesson_id`` ("" while Learn does not list it)."""
    options = app.screen.query_one("#learn-list", OptionList)
    for index in range(options.option_count):
        option = options.get_option_at_index(index)
        if option.id == lesson_id:
            return str(option.prompt)
    return ""


async def open_learn(pilot: Any, app: CovenApp, lesson_id: str) -> None:
    """From the main menu, open Learn by its key (``e``) and wait until it lists ``lesson_id``."""
    await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
    await pilot.press("e")
    await until(pilot, lambda: isinstance(app.screen, LearnScreen), "Learn")
    await until(pilot, lambda: learn_line(app, lesson_id) != "", f"Learn to list the {lesson_id} lesson")


async def open_lesson(pilot: Any, app: CovenApp, lesson_id: str) -> LessonScreen:
    """From Learn, walk down to ``lesson_id`` by keys and open it (Learn opened first when the menu is in front).

    Returns:
        The lesson's screen, at the step the player's progress left it (the first, for a new player).
    """
    if not isinstance(app.screen, LearnScreen):
        await open_learn(pilot, app, lesson_id)
    options = app.screen.query_one("#learn-list", OptionList)
    while options.get_option_at_index(options.highlighted or 0).id != lesson_id:
        before = options.highlighted
        await pilot.press("down")
        await until(pilot, lambda b=before: options.highlighted != b, "the highlight to move down")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
    screen = app.screen
    assert isinstance(screen, LessonScreen) and screen.lesson.lesson_id == lesson_id
    return screen


async def learner_ready(pilot: Any, screen: LessonScreen) -> None:
    """Wait until the lesson asks the learner for a move, the learner's own view shown."""
    await until(pilot, lambda: LEARNER in screen.live.to_act and screen.revealed_seat == LEARNER
                and screen.app.screen is screen, "the learner to be asked")


async def table_step(pilot: Any, screen: LessonScreen, step: LessonStep) -> None:
    """A table step the learner moves on with space: the card says it first, the status asks for space."""
    await until(pilot, lambda: screen.live.table_action is not None and screen.app.screen is screen
                and not screen.table_plays_by_itself(screen.live.table_action), "a table step to wait")
    await until(pilot, lambda: screen.status_text == "Space: next step", "the status to ask for space")
    assert step.say in lesson_card(screen)  # the card says what the step shows before it is played
    await pilot.press("space")


async def show_then_skip(pilot: Any, screen: LessonScreen, step: LessonStep) -> None:
    """The learner asks to see the step's move (``m``: the status or the help names it), then to have it played."""
    await pilot.press("m")
    await until(pilot, lambda: step.show in screen.status_text + screen.help_now(), "the move shown")
    await pilot.press("s")
