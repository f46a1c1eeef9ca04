"""The WitchDraft lesson: drafting, perpendicular placement, each of the eight categories, the two phases and
their directions all come up, in order, each where the file names it; its placements take any spot that shows
the step's rule."""

from __future__ import annotations

from typing import Any

from engine import get_game
from engine.core.lessons import LEARNER, Lesson, shipped_lessons
from engine.core.lessons.accept import accepted_moves, is_accepted, meets, move_for, scripted
from engine.core.lessons.load import play_script, rule_book
from engine.witchdraft.actions import Place
from engine.witchdraft.lesson_rules import RULES

CATEGORIES = ("companions", "color-pairs", "monochrome", "gems", "bonds", "dragon-scale", "flea-grass", "fire-root")

ISSUE_ORDER = ("draft", "perpendicular", "pass-next", "phase-two", "pass-back", "last-card")
"""Issue 26: drafting, perpendicular placement, (the 8 categories,) the two phases and their directions."""

SPEC = get_game("witchdraft")


def _lesson() -> Lesson:
    return next(lesson for lesson in shipped_lessons() if lesson.game_id == "witchdraft")


def _state_before(lesson: Lesson, index: int) -> Any:
    """The game just before step ``index`` is played."""
    state = SPEC.new_state(lesson.options, lesson.seed, len(lesson.names), lesson.names)
    for entry in play_script(lesson, SPEC, upto=index):
        state, _ = SPEC.rules.apply(state, entry.seat, entry.action)
    return state


def test_every_category_and_phase_rule_is_named_in_order() -> None:
    lesson = _lesson()
    named = [rule for step in lesson.steps for rule in step.rules]
    first = {rule: named.index(rule) for rule in reversed(named)}
    assert all(rule in first for rule in (*ISSUE_ORDER, *CATEGORIES))
    assert sorted(ISSUE_ORDER, key=first.__getitem__) == list(ISSUE_ORDER)
    assert len(lesson.names) == 3  # three seats, so "next seat" and "previous seat" are different players


def test_every_rule_named_happens_in_the_game_at_its_step() -> None:
    lesson = _lesson()
    played = play_script(lesson)
    book = rule_book("witchdraft")
    assert book is RULES
    for index, step in enumerate(lesson.steps):
        if not step.rules:
            continue
        start = next(i for i, entry in enumerate(played) if entry.step == index)
        after = next((i for i, entry in enumerate(played) if entry.step is not None and entry.step > index
                      and (lesson.steps[entry.step].say or lesson.steps[entry.step].rules)), len(played))
        events = [event for entry in played[start:after] for event in entry.events]
        state = SPEC.new_state(lesson.options, lesson.seed, len(lesson.names), lesson.names)
        for entry in played[:after]:
            state, _ = SPEC.rules.apply(state, entry.seat, entry.action)
        for name in step.rules:
            assert book[name].happened(events, state), f"{name} at step {step.number}"


def test_a_rule_check_fails_on_events_without_its_rule() -> None:
    lesson = _lesson()
    played = play_script(lesson)
    state = SPEC.new_state(lesson.options, lesson.seed, len(lesson.names), lesson.names)
    first_place = next(index for index, step in enumerate(lesson.steps) if step.accept)
    for entry in played[:first_place + 1]:
        state, _ = SPEC.rules.apply(state, entry.seat, entry.action)
    events = list(played[first_place].events)
    assert RULES["companions"].happened(events, state)  # Moonwhisker Cat: the recipe's companion
    assert RULES["perpendicular"].happened(events, state)
    assert not RULES["monochrome"].happened(events, state)  # Crimson is not a Monochrome colour of the recipe
    assert not RULES["draft"].happened(events, state)
    assert not RULES["phase-two"].happened(events, state)
    assert not RULES["last-card"].happened(events, state)


def test_a_placement_step_takes_any_spot_that_shows_its_rule_and_refuses_the_others() -> None:
    lesson = _lesson()
    book = rule_book("witchdraft")
    index = next(index for index, step in enumerate(lesson.steps) if step.accept == "flea-grass")
    step = lesson.steps[index]
    state = _state_before(lesson, index)
    legal = SPEC.rules.legal_actions(state, LEARNER)
    taken = accepted_moves(step, SPEC, state, book)
    refused = [action for action in legal if action not in taken]
    assert scripted(step, SPEC) in taken and len(taken) > 1 and refused  # a choice, but not any spot
    other = next(action for action in taken if action != scripted(step, SPEC))
    assert is_accepted(step, SPEC, state, other, book)
    assert not is_accepted(step, SPEC, state, refused[0], book)
    assert not is_accepted(step, SPEC, state, Place(type(other.placement)(40, 40, 0)), book)  # not even legal
    assert move_for(step, SPEC, state, book) == scripted(step, SPEC)  # s plays the script's spot while it fits


def test_when_earlier_choices_leave_no_spot_for_the_rule_any_legal_spot_will_do() -> None:
    lesson = _lesson()
    book = rule_book("witchdraft")
    index = next(index for index, step in enumerate(lesson.steps) if step.accept == "gems")
    step = lesson.steps[index]
    state = _state_before(lesson, index)
    # Take the chance away: a step that asks for Gems where this card has none next to another gem.
    bare = type(step)(number=step.number, by="you", seat=LEARNER, move=step.move, say=step.say, show=step.show,
                      accept="last-card")
    assert not accepted_moves(bare, SPEC, state, book)
    legal = SPEC.rules.legal_actions(state, LEARNER)
    assert is_accepted(bare, SPEC, state, legal[-1], book)
    assert not meets(bare, SPEC, state, legal[-1], book)
    assert move_for(bare, SPEC, state, book) == scripted(bare, SPEC)  # the script's spot is still legal


def test_s_plays_a_spot_that_shows_the_rule_when_the_scripts_own_no_longer_fits() -> None:
    lesson = _lesson()
    book = rule_book("witchdraft")
    index = next(index for index, step in enumerate(lesson.steps) if step.accept == "gems")
    step = lesson.steps[index]
    state = _state_before(lesson, index)
    # As if the learner's own earlier spots covered the one the script uses: here, the apprentice's square.
    moved = type(step)(number=step.number, by="you", seat=LEARNER, move={"type": "place", "x": 0, "y": 0,
                       "rotation": 0}, say=step.say, show=step.show, accept="gems")
    played = move_for(moved, SPEC, state, book)
    assert played != scripted(moved, SPEC)
    assert played in accepted_moves(moved, SPEC, state, book)


def test_resuming_replays_the_learners_own_spots_where_their_steps_take_them() -> None:
    lesson = _lesson()
    book = rule_book("witchdraft")
    index = next(index for index, step in enumerate(lesson.steps) if step.accept == "flea-grass")
    step = lesson.steps[index]
    state = _state_before(lesson, index)
    taken = accepted_moves(step, SPEC, state, book)
    other = next(action for action in taken if action != scripted(step, SPEC))
    plain = next(action for action in SPEC.rules.legal_actions(state, LEARNER) if action not in taken)

    def replayed(move: Any) -> Any:
        played = play_script(lesson, SPEC, upto=index + 1, own={index: move})
        return played[-1].action

    assert replayed(SPEC.rules.action_to_json(other)) == other
    # Stored moves are hostile: one the step does not take, or not a move at all, gives way to the script's.
    assert replayed(SPEC.rules.action_to_json(plain)) == scripted(step, SPEC)
    assert replayed({"type": "place", "x": 0, "y": 0, "rotation": 0}) == scripted(step, SPEC)  # overlaps
    assert replayed({"type": "zap"}) == scripted(step, SPEC)
    # The rest of the script still plays after a spot of the learner's own.
    assert play_script(lesson, SPEC, own={index: SPEC.rules.action_to_json(other)})
