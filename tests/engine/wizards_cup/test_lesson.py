"""The Wizards Cup lesson: every rule the issue lists comes up, in the order a new player needs it."""

from __future__ import annotations

from engine import get_game
from engine.core.lessons import shipped_lessons
from engine.core.lessons.load import play_script, rule_book
from engine.wizards_cup.lesson_rules import RULES

ISSUE_ORDER = ("displayed-card", "pick-five", "lineup", "power", "element", "value", "waiting-card", "swap",
               "tiebreak")
"""Issue 26: the displayed card, picking five, a lineup, power then element then value, the Waiting Card,
a swap, the tiebreak."""


def test_every_rule_of_the_issue_is_named_in_order() -> None:
    lesson = next(lesson for lesson in shipped_lessons() if lesson.game_id == "wizards-cup")
    named = [rule for step in lesson.steps for rule in step.rules]
    first = {rule: named.index(rule) for rule in reversed(named)}
    assert all(rule in first for rule in ISSUE_ORDER)
    assert sorted(ISSUE_ORDER, key=first.__getitem__) == list(ISSUE_ORDER)


def test_every_rule_named_happens_in_the_game_at_its_step() -> None:
    lesson = next(lesson for lesson in shipped_lessons() if lesson.game_id == "wizards-cup")
    played = play_script(lesson)
    book = rule_book("wizards-cup")
    assert book is RULES
    for index, step in enumerate(lesson.steps):
        if not step.rules:
            continue
        start = next(i for i, entry in enumerate(played) if entry.step == index)
        after = next((i for i, entry in enumerate(played) if entry.step is not None and entry.step > index
                      and (lesson.steps[entry.step].say or lesson.steps[entry.step].rules)), len(played))
        events = [event for entry in played[start:after] for event in entry.events]
        spec = get_game("wizards-cup")
        state = spec.new_state(lesson.options, lesson.seed, 2, lesson.names)
        for entry in played[:after]:
            state, _ = spec.rules.apply(state, entry.seat, entry.action)
        for name in step.rules:
            assert book[name].happened(events, state), f"{name} at step {step.number}"


def test_a_rule_check_fails_on_events_without_its_rule() -> None:
    lesson = next(lesson for lesson in shipped_lessons() if lesson.game_id == "wizards-cup")
    played = play_script(lesson)
    first_duel = next(entry for entry in played if any(event.kind == "duel" for event in entry.events))
    state = get_game("wizards-cup").new_state(lesson.options, lesson.seed, 2, lesson.names)
    assert RULES["power"].happened(list(first_duel.events), state)
    assert not RULES["element"].happened(list(first_duel.events), state)
    assert not RULES["swap"].happened(list(first_duel.events), state)
