"""The lesson file format: strict reading, and a check that plays the whole script before a lesson is used."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from engine.core.lessons import LessonFormatError, LessonRuleError, LessonStepError, loads, shipped_lessons
from engine.core.lessons.load import play_script, shipped_lesson_ids


def _shipped_text() -> str:
    return resources.files("engine.core.lessons").joinpath("files", "1_wizards-cup.json").read_text("utf-8")


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_shipped_text())
    return data


def _witchdraft() -> dict[str, Any]:
    """The WitchDraft lesson, whose placements accept any spot that shows their rule."""
    text = resources.files("engine.core.lessons").joinpath("files", "2_witchdraft.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _first(data: dict[str, Any], accept: str) -> int:
    """The index of the first step accepting ``accept``."""
    return next(index for index, step in enumerate(data["steps"]) if step.get("accept") == accept)


def test_the_shipped_lessons_load_and_play_to_the_end() -> None:
    lessons = shipped_lessons()
    ids = [lesson.lesson_id for lesson in lessons]
    assert ids == shipped_lesson_ids() and ids == ["wizards-cup", "witchdraft", "wizbits"]  # the order
    assert any(step.accept for step in lessons[1].steps)
    for lesson in lessons:
        assert lesson.steps[0].line > 1  # step lines are found for messages
        assert lesson.waiting_steps == sum(1 for step in lesson.steps if step.by == "you" or step.say)
        assert play_script(lesson)  # played to the end without an error


def test_bad_json_names_its_line() -> None:
    text = _shipped_text().replace('"seed": 1,', '"seed": 1,,', 1)
    line = text.splitlines().index(next(row for row in text.splitlines() if '"seed"' in row)) + 1
    with pytest.raises(LessonFormatError, match=f"line {line}: not JSON"):
        loads(text)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(lesson=2), "lesson must be 1"),
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d.pop("steps"), "missing key 'steps'"),
    (lambda d: d.update(game="chess"), "game: unknown game"),
    (lambda d: d.update(seed="one"), "seed must be a whole number"),
    (lambda d: d.update(names=["Solo"]), "names: Wizards Cup is played by 2"),
    (lambda d: d.update(names=["A" * 33, "Morgan"]), r"names\[0\] must be at most 32 characters"),
    (lambda d: d.update(names=[" ", "Morgan"]), r"names\[0\] must not be blank"),
    (lambda d: d.update(options={"tokens_to_win": 9}), "options:"),
    (lambda d: d["steps"][0].update(by="everyone"), "step 1 .*by must be one of"),
    (lambda d: d["steps"][0].pop("say"), "step 1 .*say must say something"),
    (lambda d: d["steps"][0].pop("show"), "step 1 .*show must say something"),
    (lambda d: d["steps"][2].update(say="Press \x1b[31m c"), "step 3 .*say holds"),
    (lambda d: d["steps"][1].pop("move"), "step 2 .*needs its move"),
    (lambda d: d["steps"][0].update(after=2), "step 1 .*after is for a table step"),
    (lambda d: d.update(id="Wizards Cup!"), "id must be"),
])
def test_a_malformed_file_is_refused_with_where(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(LessonFormatError, match=message):
        loads(json.dumps(data, indent=2))


def test_a_step_that_does_not_play_is_refused_with_its_step_and_line() -> None:
    data = _data()
    data["steps"][2]["move"]["order"][0] = "pyre-lord"  # not in the learner's team
    text = json.dumps(data, indent=2)
    line = text.splitlines().index('    {') + 1  # the first step's line, for comparison
    with pytest.raises(LessonStepError, match=r"step 3 \(line \d+\): Pyre Lord is not in your team") as caught:
        loads(text)
    assert f"(line {line})" not in str(caught.value)  # the third step's own line, not the first's


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["steps"].insert(1, d["steps"].pop(0)), "step 1 .*learner chooses first"),
    (lambda d: d["steps"].__delitem__(slice(-3, None)), "ends before its game does"),
    (lambda d: d["steps"][4].update(after=30), r"step 5 .*only 6 table steps play before it, not 30"),
    (lambda d: d["steps"][9]["move"].update({"out": "umbral-tyrant"}), "step 10 .*displayed card"),
])
def test_a_script_out_of_turn_or_unfinished_is_refused(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(LessonStepError, match=message):
        loads(json.dumps(data))


def test_a_rule_that_does_not_happen_where_it_is_named_is_refused() -> None:
    data = _data()
    data["steps"][4]["rules"] = ["element"]  # the first duel is decided by Ember Adept's power
    with pytest.raises(LessonRuleError, match="step 5 .*decided by elements \\(element\\) does not happen here"):
        loads(json.dumps(data))


def test_an_unknown_rule_is_refused_with_the_known_ones() -> None:
    data = _data()
    data["steps"][0]["rules"].append("castling")
    with pytest.raises(LessonRuleError, match="no rule 'castling' .*known: .*tiebreak"):
        loads(json.dumps(data))


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["steps"][1].update(accept="any"), "step 2 .*accept is for a learner's step"),
    (lambda d: d["steps"][_first(d, "any")].update(accept=""), "step 4 .*accept must name 'any' or one of"),
    (lambda d: d["steps"][_first(d, "any")].update(accept=["gems"]), "step 4 .*accept must be text, not"),
    (lambda d: d["steps"][_first(d, "any")].update(accept="g" * 41), "step 4 .*accept must be text of at most 40"),
])
def test_a_malformed_accept_is_refused_with_where(change: Any, message: str) -> None:
    data = _witchdraft()
    change(data)
    with pytest.raises(LessonFormatError, match=message):
        loads(json.dumps(data, indent=2))


def test_an_accept_naming_no_rule_is_refused_with_the_known_ones() -> None:
    data = _witchdraft()
    data["steps"][_first(data, "any")]["accept"] = "castling"
    with pytest.raises(LessonRuleError, match="step 4 .*accept names no rule of witchdraft: 'castling' "
                                              r"\(known: any, .*gems"):
        loads(json.dumps(data))


def test_an_accept_its_own_move_does_not_meet_is_refused() -> None:
    data = _witchdraft()
    index = _first(data, "gems")
    data["steps"][index - 6]["accept"] = "gems"  # the placement before: Moonwatch Owl pairs no gems
    with pytest.raises(LessonRuleError, match=f"step {index - 5} .*own move does not show a placement scoring "
                                              r"Gems \(gems\), which the step accepts"):
        loads(json.dumps(data))


def test_an_accept_step_still_plays_its_own_move_to_check_the_game() -> None:
    data = _witchdraft()
    data["steps"][_first(data, "any")]["move"].update(x=5)  # a spot touching no card
    with pytest.raises(LessonStepError, match="step 4 .*touches no card"):
        loads(json.dumps(data))


def test_an_oversized_file_is_refused_unread() -> None:
    with pytest.raises(LessonFormatError, match="at most 64 KiB"):
        loads(" " * (65 * 1024) + "{}")
