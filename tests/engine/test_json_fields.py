"""The shared JSON field checks: each names the field and raises the caller's error class."""

from __future__ import annotations

import pytest

from engine.core.errors import MalformedActionError
from engine.core.json_fields import FieldError, json_list, json_object, json_text, kind_of, whole_number
from engine.wizbits.actions import parse_action
from engine.wizbits.lab.json_form import LabFileError, scenario_from_json
from engine.wizbits.pillar.json_form import parse_unit
from engine.wizbits.pillar.units import MalformedPillarError


def test_whole_numbers_hit_both_bounds_and_refuse_true_and_fractions() -> None:
    assert whole_number(0, "seat", 0, 1) == 0 and whole_number(1, "seat", 0, 1) == 1
    for bad in (-1, 2):
        with pytest.raises(FieldError, match=f"seat must be a whole number from 0 to 1, not {bad}"):
            whole_number(bad, "seat", 0, 1)
    with pytest.raises(FieldError, match="not true or false"):
        whole_number(True, "seat")
    with pytest.raises(FieldError, match="of at least 0, not a number with a fraction"):
        whole_number(1.5, "deck", low=0)
    with pytest.raises(FieldError, match="of at most 9, not 10"):
        whole_number(10, "rtf", high=9)


def test_a_long_bad_value_is_named_by_its_kind_not_quoted() -> None:
    with pytest.raises(FieldError) as caught:
        whole_number("x" * 41, "seed")
    assert str(caught.value) == "seed must be a whole number, not text"
    with pytest.raises(FieldError, match="not 'xxxx'$"):
        whole_number("xxxx", "seed")  # short text is quoted as it is
    with pytest.raises(FieldError) as caught:
        json_object({"k" * 10_000: 1}, "scenario", {"title"})
    assert str(caught.value) == "scenario has an unknown key text"


def test_objects_lists_and_text() -> None:
    assert json_object({"a": 1}, "unit", {"a", "b"}, {"a"}) == {"a": 1}
    with pytest.raises(FieldError, match="unit is missing key 'a'"):
        json_object({"b": 1}, "unit", {"a", "b"}, {"a"})
    with pytest.raises(FieldError, match="unit has an unknown key 'c'"):
        json_object({"a": 1, "c": 2}, "unit", {"a", "b"})
    with pytest.raises(FieldError, match="unit must be an object, not a list"):
        json_object([], "unit", {"a"})
    with pytest.raises(FieldError, match="plays must be a list, not null"):
        json_list(None, "plays")
    assert json_text("abc", "title", 3) == "abc"
    with pytest.raises(FieldError, match="title must be text of at most 3 characters, not 4"):
        json_text("abcd", "title", 3)
    assert [kind_of(value) for value in (None, {}, [], "", 1, 1.0, False)] == [
        "null", "an object", "a list", "text", "a whole number", "a number with a fraction", "true or false"]


def test_each_reader_keeps_its_own_error_class() -> None:
    play = {"type": "play", "card": 3, "on": None, "targets": [], "pay": {"deck": -1, "secede": []}}
    with pytest.raises(MalformedActionError, match="deck must be a whole number of at least 0, not -1"):
        parse_action(play)
    with pytest.raises(MalformedActionError, match="secede must be a list, not an object"):
        parse_action({**play, "pay": {"deck": 0, "secede": {}}})
    with pytest.raises(LabFileError, match="scenario must be an object, not a list"):
        scenario_from_json([])
    with pytest.raises(MalformedPillarError, match="a unit must be an object, not text"):
        parse_unit("unit")
