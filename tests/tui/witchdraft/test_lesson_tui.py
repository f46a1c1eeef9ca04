"""The WitchDraft lesson at 80x24, from the menu's Learn to its end: a pick and a placement by keys, wrong picks
and wrong spots refused with the reason, a spot other than the script's taken when it shows the step's rule, the
move shown, the long stretches played with s, left and resumed with the learner's own spots, and the menu
counting the lesson done."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from engine.core.lessons import LEARNER
from engine.core.lessons.accept import accepted_moves, scripted
from engine.core.lessons.load import rule_book, shipped_lesson_ids
from engine.witchdraft.actions import Pick, Place
from engine.witchdraft.geometry import Placement
from saves import SessionStore
from saves.lessons import lesson_progress
from tests.helpers.lesson_tui import lesson_card, open_learn, open_lesson, show_then_skip
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.screens.lesson import LessonScreen
from tui.screens.menu import MainMenu
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.game_over import GameOverScreen

WITCHDRAFT = "witchdraft"

async def _learner_ready(pilot: Any, screen: LessonScreen) -> None:
    await until(pilot, lambda: LEARNER in screen.live.to_act and screen.revealed_seat == LEARNER
                and screen.app.screen is screen and screen.current is not None and screen.current.by == "you",
                "the learner to be asked")


async def _refused(pilot: Any, screen: LessonScreen, action: Any, reason: str) -> None:
    """``action`` is refused with ``reason`` on the card, and the board still waits at the same step."""
    index = screen.step_index
    screen.table.post_message(GameTable.ActionChosen(LEARNER, action))
    await until(pilot, lambda: "Not this move" in lesson_card(screen), f"step {index + 1}'s refusal")
    assert reason in lesson_card(screen).replace("\n", " ")
    assert screen.step_index == index and LEARNER in screen.live.to_act


async def _done(pilot: Any, screen: LessonScreen, index: int) -> None:
    await until(pilot, lambda: screen.step_index > index or screen.live.result is not None, f"step {index + 1} done")


async def _play_step(pilot: Any, screen: LessonScreen, seen: list[str]) -> None:
    """One learner's step: some by keys, some refused first, the rest with s; ``seen`` gets what was tried."""
    await _learner_ready(pilot, screen)
    step = screen.current
    assert step is not None
    index, book, spec, state = screen.step_index, rule_book("witchdraft"), screen.live.spec, screen.live.state
    if index == 0:  # the first pick by keys: a wrong card first, then the Cat the step asks for
        seen.append("keys-pick")
        hand = state.players[LEARNER].hand
        wanted = hand.index(scripted(step, spec).card)
        await pilot.press("down" if wanted == 0 else "up", "space")
        await until(pilot, lambda: "Not this move" in lesson_card(screen), "the wrong pick's refusal")
        assert step.show in lesson_card(screen).replace("\n", " ") and screen.step_index == 0
        await pilot.press("up" if wanted == 0 else "down", "space")
    elif step.accept == "any" and screen.step_index < 5:  # the first placement by keys: enter where the ghost opens
        seen.append("keys-place")
        await until(pilot, lambda: screen.live.state.stage == "place", "the picks revealed")
        # At 80 columns the potion's keys fill the Footer; the lesson's own two keys stay in it.
        await until(pilot, lambda: {"Show move", "Skip step"} <= set(screen.query_one(FittingFooter).shown),
                    "the lesson's keys in the Footer")
        await pilot.press("enter")
    elif step.accept == "monochrome":  # asked to see the move, and to have it played
        seen.append("shown")
        await show_then_skip(pilot, screen, step)
    elif step.accept == "bonds":  # a spot the rules refuse: the rules' own reason
        seen.append("illegal-spot")
        await _refused(pilot, screen, Place(Placement(0, 0, 90)), "overlaps a card")
        await pilot.press("s")
    elif step.accept == "flea-grass":  # legal, but not what the step is about; then another spot that is
        seen.append("other-spot")
        taken = accepted_moves(step, spec, state, book)
        wrong = next(action for action in spec.rules.legal_actions(state, LEARNER) if action not in taken)
        await _refused(pilot, screen, wrong, "This step asks for a placement scoring Flea Grass")
        other = next((action for action in taken if action != scripted(step, spec)), taken[0])
        screen.table.post_message(GameTable.ActionChosen(LEARNER, other))
        await _done(pilot, screen, index)
        assert [Place(Placement(*entry[1:])) for entry in screen.live.state.players[LEARNER].area[-1:]] == [other]
    elif step.show.startswith("Pick") and index > 20:  # a wrong pick late on: the card the step names instead
        seen.append("wrong-pick")
        card = scripted(step, spec).card
        others = [other for other in state.players[LEARNER].hand if other != card]
        if others:
            await _refused(pilot, screen, Pick(others[0]), step.show)
        await pilot.press("s")
    else:
        await pilot.press("s")
    await _done(pilot, screen, index)


async def test_the_witchdraft_lesson_from_learn_to_its_end_at_80x24() -> None:
    store = SessionStore()
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_learn(pilot, app, WITCHDRAFT)
        options = app.screen.query_one("#learn-list", OptionList)
        assert "WitchDraft" in str(options.get_option_at_index(1).prompt)  # second, after Wizards Cup
        screen = await open_lesson(pilot, app, WITCHDRAFT)
        await until(pilot, lambda: "Step 1 of 18" in lesson_card(screen), "the first step's words")
        seen: list[str] = []
        left = False
        while screen.live.result is None:
            if "other-spot" in seen and not left:  # leave right after a spot of the learner's own, and come back
                left, at, potion = True, screen.step_index, screen.live.state.players[LEARNER].area
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
                assert lesson_progress(store, None)[WITCHDRAFT].own  # the learner's own spots are kept
                screen = await open_lesson(pilot, app, WITCHDRAFT)
                assert screen.step_index == at
                assert screen.live.state.players[LEARNER].area == potion  # the potion as the learner built it
                continue
            step = screen.current
            if step is None or step.by != "you":
                await until(pilot, lambda s=screen, i=screen.step_index: s.step_index > i or s.live.result is not None,
                            "the bots' moves")
                continue
            await _play_step(pilot, screen, seen)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the potions scored")
        assert left
        assert set(seen) == {"keys-pick", "keys-place", "shown", "illegal-spot", "other-spot", "wrong-pick"}
        assert seen.count("wrong-pick") >= 3
        assert lesson_progress(store, None)[WITCHDRAFT].done
        assert not store.list_sessions()  # a lesson's game is never stored among the sessions
        assert screen.lesson.end in lesson_card(screen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await until(pilot, lambda: f"Learn (1 of {len(shipped_lesson_ids())} done)" in str(app.screen.query_one("#menu").get_option("learn").prompt),
                    "the menu to count the WitchDraft lesson done")


def test_at_terse_each_step_still_says_what_to_do() -> None:
    from engine.core.lessons import shipped_lessons
    from tui.screens.lesson import step_words
    from tui.verbosity import Verbosity

    lesson = next(lesson for lesson in shipped_lessons() if lesson.lesson_id == "witchdraft")
    for step in lesson.steps:
        if step.by == "you":  # the one sentence terse keeps names the move to make
            assert step_words(step, Verbosity.TERSE).startswith(("Draft", "Pick", "Place")), step.where
