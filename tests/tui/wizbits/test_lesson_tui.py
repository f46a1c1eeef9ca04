"""The Wizbits lesson at 80x24, from the menu's Learn to its end: wrong moves refused with the reason at several
steps (the lesson's reason, and the rules' own), a pass played by its key, the move shown and skipped on request,
and the menu counting the lesson done."""

from __future__ import annotations

from typing import Any

from engine.core.lessons import LEARNER
from engine.wizbits.actions import Attack, Pass, Payment, PlayCard
from saves import SessionStore
from saves.lessons import lesson_progress
from tests.helpers.lesson_tui import learner_ready, lesson_card, open_lesson, show_then_skip, table_step
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.screens.lesson import LessonScreen
from tui.screens.menu import MainMenu

WIZBITS = "wizbits"


def _wrong_moves(screen: LessonScreen) -> dict[int, tuple[Any, str]]:
    """A wrong move tried at these steps (by index) before the right one, and the words its refusal must hold."""
    steps = screen.lesson.steps
    chorus = steps[2].move
    volley = steps[4].move
    warden = steps[14].move
    attack = steps[21].move
    assert chorus and volley and warden and attack
    main = screen.live.state.players[LEARNER].main
    return {
        2: (Pass(), steps[2].show),  # a legal pass, not the step's play: the lesson names the move
        # the rules refuse this one themselves: 3 from the deck overpays a cost of 2
        4: (PlayCard(volley["card"], None, tuple(volley["targets"]), Payment(deck=3)), "more than the 2 needed"),
        14: (PlayCard(warden["card"], None, (), Payment(deck=2)), steps[14].show),  # paid from the deck, not seceded
        21: (Attack((*attack["attackers"], main)), steps[21].show),  # the Main Character sent too
    }


async def _play_step(pilot: Any, screen: LessonScreen, wrong: dict[int, tuple[Any, str]]) -> None:
    """One waiting step: space for a table step, else the learner's move (after a wrong one where listed)."""
    step = screen.current
    assert step is not None
    index = screen.step_index
    if step.by == "table":
        await table_step(pilot, screen, step)
    else:
        await learner_ready(pilot, screen)
        if index in wrong:
            action, reason = wrong[index]
            screen.table.post_message(GameTable.ActionChosen(LEARNER, action))
            await until(pilot, lambda: "Not this move" in lesson_card(screen), f"step {index + 1}'s refusal")
            assert screen.step_index == index  # refused: the board still waits
            assert reason in lesson_card(screen)
        if index == 5:  # a pass by its own key
            await pilot.press("x")
        elif index == 7:  # this one the learner asks to see, then to have played
            await show_then_skip(pilot, screen, step)
        elif step.move == {"type": "pass"}:  # the dull stretches of passing: s plays them
            await pilot.press("s")
        else:
            screen.table.post_message(GameTable.ActionChosen(LEARNER, screen.expected(step)))
    await until(pilot, lambda: screen.step_index > index, f"step {index + 1} to be done")


async def test_the_wizbits_lesson_from_learn_to_its_end_at_80x24() -> None:
    store = SessionStore()
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_lesson(pilot, app, WIZBITS)
        await until(pilot, lambda: "Step 1 of" in lesson_card(screen), "the first step's words")
        assert "Reconcile" in lesson_card(screen)
        wrong = _wrong_moves(screen)
        while screen.live.result is None:
            step = screen.current
            if step is None or not step.waits:
                await until(pilot, lambda s=screen, i=screen.step_index: s.step_index > i or s.live.result is not None,
                            "the bot's or the table's step")
                continue
            await _play_step(pilot, screen, wrong)
        assert screen.live.result.winners == (LEARNER,)  # Bo's Sage failed its Test on his turn
        await until(pilot, lambda: lesson_progress(store, None)[WIZBITS].done, "the lesson to be kept as done")
        assert not store.list_sessions()  # a lesson's game is never stored among the sessions
        assert screen.lesson.end in lesson_card(screen)
        while not isinstance(app.screen, MainMenu):
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, LessonScreen) or app.screen is not screen
                        or isinstance(app.screen, MainMenu), "the lesson to close")
        await until(pilot, lambda: "Learn (1 of" in str(app.screen.query_one("#menu").get_option("learn").prompt),
                    "the menu to count the lesson done")
