"""Learn: the lessons Coven ships, one guided first game per game, each resumed where the learner left it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from engine import get_game
from engine.core.lessons import Lesson, LessonError, shipped_lessons
from engine.core.lessons.load import play_script
from saves.lessons import LessonProgress, LessonSession, learner_seats, lesson_progress, save_lesson_progress
from tui.context import coven
from tui.navigation import StartLesson
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside

DONE_MARK = "✓"
"""The mark of a lesson finished at least once."""


def lesson_line(lesson: Lesson, progress: LessonProgress | None) -> str:
    """One lesson as the list shows it: its title, where the learner is, and a mark once it was finished."""
    progress = progress or LessonProgress()
    mark = f" {DONE_MARK} done" if progress.done else ""
    if progress.step:
        where = sum(1 for step in lesson.steps[:progress.step] if step.waits)
        return f"{lesson.title}: step {where + 1} of {lesson.waiting_steps}{mark}"
    return f"{lesson.title}{mark or ': not begun'}"


def learn_label(done: int, total: int) -> str:
    """The main menu's Learn line: how many lessons are done."""
    return f"Learn ({done} of {total} done)"


class LearnScreen(Screen[None]):
    """The lessons: enter opens one where it was left, r starts it again from the beginning."""

    HELP_TITLE = "Learn"
    HELP = ("A guided first game for each game: a real game against a bot, one step at a time, each step saying "
            "what to do and why. Enter opens a lesson where you left it; r starts it again from the beginning.")
    BINDINGS = [
        Binding("enter", "open", "Open"),
        Binding("r", "restart", "Restart"),
        Binding("escape", "app.pop_screen", "Back"),
    ]
    CSS_PATH = css_beside(__file__, "learn.tcss")

    def __init__(self) -> None:
        """Read the shipped lessons (each was checked by playing it through)."""
        super().__init__()
        self.problem: str | None = None
        try:
            self.lessons = shipped_lessons()
        except LessonError as error:
            self.lessons, self.problem = [], str(error)

    def compose(self) -> ComposeResult:
        """The title, the lessons and a hint."""
        yield Header()
        with Vertical(id="learn-box"):
            yield Static("Learn by playing: one guided game per game.", id="learn-title")
            yield OptionList(id="learn-list")
            yield Static(plain(self.problem or "Enter opens a lesson where you left it; r starts it again."),
                         id="learn-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        """List the lessons with the learner's progress."""
        self.refresh_list()
        self.query_one("#learn-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        """A lesson played meanwhile moved its progress on."""
        self.refresh_list()

    def progress(self) -> dict[str, LessonProgress]:
        """Every lesson's progress for the player here."""
        context = coven(self)
        return lesson_progress(context.store, context.account)

    def refresh_list(self) -> None:
        """Redraw the list, keeping the highlighted lesson."""
        menu = self.query_one("#learn-list", OptionList)
        highlighted = menu.highlighted
        progress = self.progress()
        menu.set_options([Option(plain(lesson_line(lesson, progress.get(lesson.lesson_id))), id=lesson.lesson_id)
                          for lesson in self.lessons])
        if self.lessons:
            menu.highlighted = highlighted if highlighted is not None and highlighted < len(self.lessons) else 0

    def chosen(self) -> Lesson | None:
        """The highlighted lesson."""
        index = self.query_one("#learn-list", OptionList).highlighted
        return self.lessons[index] if index is not None and 0 <= index < len(self.lessons) else None

    @on(OptionList.OptionHighlighted, "#learn-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The hint says what the highlighted lesson is."""
        event.stop()
        lesson = self.chosen()
        if lesson is not None and self.problem is None:
            self.query_one("#learn-hint", Static).update(
                plain(f"{lesson.intro} Enter opens it where you left it; r starts it again."))

    @on(OptionList.OptionSelected, "#learn-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open the highlighted lesson where the learner left it."""
        lesson = self.chosen()
        if lesson is not None:
            progress = self.progress().get(lesson.lesson_id) or LessonProgress()
            resume = progress.step < len(lesson.steps)
            self.open_lesson(lesson, progress.step if resume else 0, progress.done, progress.own if resume else {})

    def action_restart(self) -> None:
        """Start the highlighted lesson again from its first step."""
        lesson = self.chosen()
        if lesson is None:
            return
        context = coven(self)
        done = (self.progress().get(lesson.lesson_id) or LessonProgress()).done
        save_lesson_progress(context.store, context.account, lesson.lesson_id, LessonProgress(0, done))
        self.open_lesson(lesson, 0, done)

    def open_lesson(self, lesson: Lesson, step: int, done: bool,
                    own: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        """Rebuild the lesson's game up to ``step`` (its script, with the learner's ``own`` moves where its steps
        took them) and show it."""
        context = coven(self)
        store = context.store
        if store is None:
            self.notify("Lessons need the session database for your progress.", severity="error")
            return
        spec = get_game(lesson.game_id)
        live = LessonSession.start(store, spec, lesson.options, lesson.seed, learner_seats(lesson.names))
        try:
            played = play_script(lesson, spec, upto=step, own=own or {})
        except LessonError:  # the stored moves no longer fit (a changed lesson file): the lesson's own moves do
            played = play_script(lesson, spec, upto=step)
            save_lesson_progress(store, context.account, lesson.lesson_id, LessonProgress(step, done))
        for entry in played:
            live.apply(entry.seat, entry.action)
        self.app.post_message(StartLesson(lesson, live, step, done))
