"""The Wizbits lesson: every rule the issue lists comes up in its game, at its step, in the order a new player
needs it; and each rule's check tells its rule from the others."""

from __future__ import annotations

from typing import Any

from engine import get_game
from engine.core.lessons import LEARNER, Lesson, shipped_lessons
from engine.core.lessons.load import Played, play_script, rule_book
from engine.core.terms import Event
from engine.wizbits.lesson_rules import RULES

ISSUE_ORDER = ("reconcile", "test", "pillar-subpillar", "iph", "secession", "conflict", "damage-pillar",
               "second-test")
"""Issue 26: Reconcile, the Test phase, a Pillar with a Subpillar and IPH, Secession, a Conflict with a Damage
Pillar, the Second Test."""


def _lesson() -> Lesson:
    return next(lesson for lesson in shipped_lessons() if lesson.game_id == "wizbits")


def _window(lesson: Lesson, played: list[Played], index: int) -> tuple[list[Event], Any]:
    """The events of step ``index`` up to the next step with words or rules, and the state after them."""
    start = next(i for i, entry in enumerate(played) if entry.step == index)
    after = next((i for i, entry in enumerate(played) if entry.step is not None and entry.step > index
                  and (lesson.steps[entry.step].say or lesson.steps[entry.step].rules)), len(played))
    spec = get_game("wizbits")
    state = spec.new_state(lesson.options, lesson.seed, 2, lesson.names)
    for entry in played[:after]:
        state, _ = spec.rules.apply(state, entry.seat, entry.action)
    return [event for entry in played[start:after] for event in entry.events], state


def test_every_rule_of_the_issue_is_named_in_order() -> None:
    named = [rule for step in _lesson().steps for rule in step.rules]
    first = {rule: named.index(rule) for rule in reversed(named)}
    assert all(rule in first for rule in ISSUE_ORDER)
    assert sorted(ISSUE_ORDER, key=first.__getitem__) == list(ISSUE_ORDER)


def test_every_rule_named_happens_in_the_game_at_its_step() -> None:
    lesson = _lesson()
    played = play_script(lesson)
    assert rule_book("wizbits") is RULES
    for index, step in enumerate(lesson.steps):
        events, state = _window(lesson, played, index) if step.rules else ([], None)
        for name in step.rules:
            assert RULES[name].happened(events, state), f"{name} at step {step.number}"


def test_the_lesson_is_won_by_the_learner_on_the_bot_s_test() -> None:
    lesson = _lesson()
    played = play_script(lesson)
    last = [event for event in played[-1].events]
    assert any(event.kind == "check" and not event.data["success"] and event.data["seat"] == 1 for event in last)
    assert any(event.kind == "game_over" and event.data.get("winner") == LEARNER for event in last)


def test_a_rule_check_fails_where_its_rule_does_not_happen() -> None:
    lesson = _lesson()
    played = play_script(lesson)
    first_play = next(index for index, step in enumerate(lesson.steps) if step.by == "you")
    plain = _window(lesson, played, first_play)  # a card played from the hand, paid from the deck: nothing more
    for name, rule in RULES.items():
        assert not rule.happened(*plain), f"{name} seen in a plain play"
    named = {name: index for index, step in enumerate(lesson.steps) for name in step.rules}
    assert not RULES["iph"].happened(*_window(lesson, played, named["pillar-subpillar"]))  # one card: no IPH contest
    assert not RULES["second-test"].happened(*_window(lesson, played, named["reconcile"]))
    assert not RULES["test"].happened(*_window(lesson, played, named["second-test"]))
    assert not RULES["secession"].happened(*_window(lesson, played, named["damage-pillar"]))
