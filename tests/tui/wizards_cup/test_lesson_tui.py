"""The Wizards Cup lesson at 80x24, from the menu's Learn to its end: wrong moves refused with the reason at
several steps, the move shown and skipped on request, left and resumed where it was, and the menu saying it is
done."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from engine.core.lessons import LEARNER
from engine.core.lessons.load import shipped_lesson_ids
from engine.wizards_cup.actions import ChooseTeam, SetLineup, Swap
from saves import SessionStore
from saves.lessons import lesson_progress
from tests.helpers.lesson_tui import (
    learn_line,
    learner_ready,
    lesson_card,
    open_learn,
    open_lesson,
    show_then_skip,
    table_step,
)
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.games.wizards_cup.results import RoundResultScreen
from tui.screens.learn import LearnScreen
from tui.screens.lesson import LessonScreen
from tui.screens.menu import MainMenu
from tui.widgets.game_over import GameOverScreen

CUP = "wizards-cup"

WRONG: dict[int, Any] = {
    0: ChooseTeam(("dawn-acolyte", "hollow-sage", "moss-hermit", "night-whisper", "tide-caller")),
    2: SetLineup(("umbral-tyrant", "hollow-sage", "moss-hermit", "tide-caller", "ember-adept")),
    9: Swap("hollow-sage", "pyre-lord"),
    13: Swap("moss-hermit", "umbral-tyrant"),  # refused by the rules themselves: already in the team
}
"""A wrong move tried at these steps (by index) before the right one."""


async def _play_step(pilot: Any, screen: LessonScreen) -> None:
    """One waiting step: the learner's move (after a wrong one where listed), or space for a table step."""
    step = screen.current
    assert step is not None
    index = screen.step_index
    if step.by == "table":
        await table_step(pilot, screen, step)  # the card says what the duel shows before it is played
    else:
        await learner_ready(pilot, screen)
        if index in WRONG:
            screen.table.post_message(GameTable.ActionChosen(LEARNER, WRONG[index]))
            await until(pilot, lambda: "Not this move" in lesson_card(screen), f"step {index + 1}'s refusal")
            assert screen.step_index == index  # refused: the board still waits
            if index == 13:
                assert "already in your team" in lesson_card(screen)  # the rules' own reason
            else:
                assert step.show in lesson_card(screen)  # the lesson's reason names the move
        if index == 11:  # this one the learner asks to see, then to have played
            await show_then_skip(pilot, screen, step)
        else:
            screen.table.post_message(GameTable.ActionChosen(LEARNER, screen.expected(step)))
    await until(pilot, lambda: screen.step_index > index, f"step {index + 1} to be done")


async def test_the_wizards_cup_lesson_from_learn_to_its_end_at_80x24() -> None:
    store = SessionStore()
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, app, CUP)
        await until(pilot, lambda: "Step 1 of" in lesson_card(screen), "the first step's words")
        assert "displayed card" in lesson_card(screen)
        assert "displayed card" in screen.narrator.transcript.text()  # said by the narrator too
        await pilot.press("semicolon")  # the announce key says the step's words, then where the game stands
        first = screen.lesson.steps[0].say
        await until(pilot, lambda: first in screen.help_now(), "the announce key to say the step")
        assert screen.narrator.transcript.text().count(first) == 2  # once on reaching the step, once asked
        left = False
        while screen.live.result is None:
            if isinstance(app.screen, RoundResultScreen):
                await pilot.press("enter")
                await until(pilot, lambda s=screen: app.screen is s, "the round's summary to close")
                continue
            step = screen.current
            if step is None or not step.waits:
                await until(pilot, lambda s=screen, i=screen.step_index: s.step_index > i or s.live.result is not None
                            or isinstance(app.screen, RoundResultScreen), "the bot's or the table's step")
                continue
            if screen.step_index == 5 and not left:  # leave mid-lesson, and come back to the same step
                left, at = True, screen.step_index
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
                assert lesson_progress(store, None)[CUP].step == at
                await open_learn(pilot, app, CUP)
                where = f"step {screen.step_number()} of"
                await until(pilot, lambda w=where: w in learn_line(app, CUP), "Learn to say where the lesson is")
                screen = await open_lesson(pilot, app, CUP)
                assert screen.step_index == at
                continue
            await _play_step(pilot, screen)
        await until(pilot, lambda: isinstance(app.screen, (GameOverScreen, RoundResultScreen)), "the last round's end")
        if isinstance(app.screen, RoundResultScreen):
            await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the end of the game")
        assert "lower total wins the Cup" in screen.live.result.reason  # the tiebreak decided it
        assert lesson_progress(store, None)[CUP].done
        assert not store.list_sessions()  # a lesson's game is never stored among the sessions
        assert screen.lesson.end in lesson_card(screen)  # the card under the final screen says the lesson is done
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await until(pilot, lambda: f"Learn (1 of {len(shipped_lesson_ids())} done)" in str(app.screen.query_one("#menu").get_option("learn").prompt),
                    "the menu to say the lesson is done")


async def test_restart_starts_the_lesson_again_and_keeps_it_done() -> None:
    from saves.lessons import LessonProgress, save_lesson_progress

    store = SessionStore()
    save_lesson_progress(store, None, "wizards-cup", LessonProgress(4, True))
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_learn(pilot, app, CUP)
        await until(pilot, lambda: "✓ done" in learn_line(app, CUP), "Learn to mark the lesson done")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, LessonScreen), "the lesson")
        assert isinstance(app.screen, LessonScreen)
        assert app.screen.step_index == 0 and not app.screen.live.log
        assert lesson_progress(store, None)[CUP] == LessonProgress(0, True)


def test_a_steps_words_follow_the_verbosity() -> None:
    from engine.core.lessons import shipped_lessons
    from tui.screens.lesson import step_words
    from tui.verbosity import Verbosity, first_sentence

    step = shipped_lessons()[0].steps[0]
    assert step.more and len(first_sentence(step.say)) < len(step.say)  # the step has something to cut and to add
    assert step_words(step, Verbosity.TERSE) == first_sentence(step.say)
    assert step_words(step, Verbosity.NORMAL) == step.say
    assert step_words(step, Verbosity.FULL) == f"{step.say} {step.more}"


async def test_over_ssh_each_account_keeps_its_own_progress_and_verbosity() -> None:
    from saves.lessons import LessonProgress, save_lesson_progress
    from tui.player_settings import write_setting
    from tui.verbosity import first_sentence

    store = SessionStore()
    save_lesson_progress(store, "ann", "wizards-cup", LessonProgress(2, False))
    write_setting(store, "ann", "verbosity", "terse")
    app = CovenApp(store=store, auto_delay=0.01, serve_port=2222, account="ann", player_name="ann", signed_in=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, app, CUP)
        assert screen.step_index == 2  # ann's own progress: the lineup step
        step = screen.current
        assert step is not None
        await until(pilot, lambda: "Step 2 of" in lesson_card(screen), "the step's card")
        assert first_sentence(step.say) in lesson_card(screen) and step.say not in lesson_card(screen)  # terse: one sentence
        write_setting(store, "ann", "verbosity", "full")  # changed in the Settings, then back to the lesson
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen is not screen, "the help")
        await pilot.press("escape")
        await until(pilot, lambda: step.more in lesson_card(screen), "the card to say more at full")
        await learner_ready(pilot, screen)
        screen.table.post_message(GameTable.ActionChosen(LEARNER, screen.expected(step)))
        await until(pilot, lambda: screen.step_index >= 3, "the step done")
        assert lesson_progress(store, "ann")[CUP].step >= 3
        assert "wizards-cup" not in lesson_progress(store, "bo")  # another account sees none of it
        assert "wizards-cup" not in lesson_progress(store, None)


async def test_the_palette_opens_learn() -> None:
    from textual.command import CommandPalette

    app = CovenApp(store=SessionStore(), auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await pilot.press("ctrl+p")
        await pilot.press(*"learn")

        def learn_highlighted() -> bool:
            palette = app.screen
            if not isinstance(palette, CommandPalette):
                return False
            highlighted = palette.query_one(OptionList).highlighted_option
            return highlighted is not None and "Learn" in str(highlighted.prompt)

        await until(pilot, learn_highlighted, "the palette to offer Learn")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LearnScreen), "Learn")
