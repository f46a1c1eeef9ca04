"""Wizbits die levels, check forms and seeded check rolls."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine.wizbits.dice import (
    SPECIAL_CHECK_BREAK_GLOBAL_CHECK,
    SPECIAL_CHECK_GLOBAL_CHECK,
    STANDARD_DIE_LEVELS,
    CheckFormError,
    CheckSpec,
    MainPoints,
    Stat,
    check_text,
    die_level,
    parse_check,
    roll_check,
    step_die_level,
)


class FixedRolls(random.Random):
    """A generator whose dice show the given results, in order, and records the dice asked for."""

    def __init__(self, *results: int) -> None:
        super().__init__(0)
        self.results = list(results)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.results.pop(0)


@pytest.mark.parametrize(("value", "level"), [
    (13, 12), (7, 6), (9, 8), (11, 10), (19, 12), (21, 20), (100, 20), (0, 1), (-4, 1), (1, 1), (5, 5),
])
def test_die_level_rounds_down_and_clamps(value: int, level: int) -> None:
    assert die_level(value) == level


def test_standard_levels_are_their_own_die_level() -> None:
    assert STANDARD_DIE_LEVELS == (1, 2, 3, 4, 5, 6, 8, 10, 12, 20)
    assert [die_level(level) for level in STANDARD_DIE_LEVELS] == list(STANDARD_DIE_LEVELS)


def test_steps_move_along_the_standard_ladder_and_stop_at_its_ends() -> None:
    assert step_die_level(6, 1) == 8
    assert step_die_level(6, -2) == 4
    assert step_die_level(12, 1) == 20
    assert step_die_level(20, 3) == 20
    assert step_die_level(2, -5) == 1
    assert step_die_level(7, 1) == 8  # 7 counts as a d6 first


FORMS = {
    "Will Check 8": CheckSpec(Stat.WILL, 8),
    "Strength Check Break 4": CheckSpec(Stat.STRENGTH, 4, is_break=True),
    "Special Magic Check": CheckSpec(Stat.MAGIC, None),
    "Special Will Check Break": CheckSpec(Stat.WILL, None, is_break=True),
    "Global Check 15": CheckSpec(None, 15),
    "Global Check Break 12": CheckSpec(None, 12, is_break=True),
    "Special Check Global Check": CheckSpec(None, None),
    "Special Check Break Global Check": CheckSpec(None, None, is_break=True),
}


@pytest.mark.parametrize(("text", "spec"), FORMS.items())
def test_every_printed_form_parses_and_prints_back(text: str, spec: CheckSpec) -> None:
    assert parse_check(text) == spec
    assert check_text(spec) == text


def test_every_spec_round_trips_through_text() -> None:
    for stat, number, is_break in itertools.product([None, *Stat], [None, 0, 7, 20], [False, True]):
        spec = CheckSpec(stat, number, is_break)
        assert parse_check(check_text(spec)) == spec


def test_parsing_ignores_case_and_spacing() -> None:
    assert parse_check("  special CHECK   break global check ") == SPECIAL_CHECK_BREAK_GLOBAL_CHECK
    assert parse_check("magic check 3") == CheckSpec(Stat.MAGIC, 3)


@pytest.mark.parametrize("text", [
    "Will Check", "Special Will Check 5", "Check 5", "Luck Check 4", "Global Check", "Will Check -2",
    "Special Check Global", "Will Check 8 Break", "",
])
def test_malformed_checks_are_refused(text: str) -> None:
    with pytest.raises(CheckFormError):
        parse_check(text)


def test_check_properties() -> None:
    assert SPECIAL_CHECK_BREAK_GLOBAL_CHECK.loses_game
    assert not SPECIAL_CHECK_GLOBAL_CHECK.loses_game
    assert not CheckSpec(Stat.WILL, None, is_break=True).loses_game
    assert CheckSpec(None, 4).stats == (Stat.STRENGTH, Stat.WILL, Stat.MAGIC)
    assert CheckSpec(Stat.MAGIC, 4).stats == (Stat.MAGIC,)
    with pytest.raises(ValueError):
        CheckSpec(Stat.WILL, -1)


def test_a_global_special_check_rolls_three_dice_against_the_current_scn() -> None:
    rng = FixedRolls(5, 2, 9)
    roll = roll_check(rng, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, MainPoints(8, 6, 10, 5), scn=7)
    assert rng.asked == [(1, 8), (1, 6), (1, 10)]
    assert roll.dice == (8, 6, 10) and roll.rolls == (5, 2, 9)
    assert roll.total == 16 and roll.number == 7 and roll.success
    assert roll.describe() == ("Special Check Break Global Check: d8+d6+d10 rolled 5+2+9 = 16 "
                               "against SCN 7: success")


def test_a_roll_equal_to_the_number_fails() -> None:
    roll = roll_check(FixedRolls(8), CheckSpec(Stat.WILL, 8), MainPoints(4, 10, 4, 6))
    assert roll.total == 8 and not roll.success
    assert roll.describe() == "Will Check 8: d10 rolled 8 against 8: failure"
    assert roll_check(FixedRolls(9), CheckSpec(Stat.WILL, 8), MainPoints(4, 10, 4, 6)).success


def test_a_special_check_defaults_to_the_printed_scn() -> None:
    roll = roll_check(FixedRolls(6), CheckSpec(Stat.MAGIC, None), MainPoints(4, 4, 6, 5))
    assert roll.number == 5 and roll.success
    assert roll.describe() == "Special Magic Check: d6 rolled 6 against SCN 5: success"


def test_changed_main_points_round_down_before_rolling() -> None:
    rng = FixedRolls(1, 1, 1)
    roll_check(rng, CheckSpec(None, 3), MainPoints(13, 7, 30, 5))
    assert rng.asked == [(1, 12), (1, 6), (1, 20)]


def test_a_d6_can_never_beat_8() -> None:
    points = MainPoints(6, 6, 6, 6)
    for seed in range(200):
        roll = roll_check(random.Random(seed), CheckSpec(Stat.WILL, 8), points)
        assert 1 <= roll.total <= 6 and not roll.success


def test_rolls_come_only_from_the_given_generator() -> None:
    points = MainPoints(8, 6, 10, 8)
    first = [roll_check(random.Random(42), SPECIAL_CHECK_GLOBAL_CHECK, points) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    expected = random.Random(42)
    assert first[0].rolls == (expected.randint(1, 8), expected.randint(1, 6), expected.randint(1, 10))


def test_roll_json_is_plain_and_complete() -> None:
    roll = roll_check(FixedRolls(3, 4, 1), CheckSpec(None, 7, is_break=True), MainPoints(4, 6, 2, 9))
    data = json.loads(json.dumps(roll.to_json()))
    assert data == {"check": "Global Check Break 7", "stats": ["strength", "will", "magic"],
                    "dice": [4, 6, 2], "rolls": [3, 4, 1], "total": 8, "number": 7,
                    "special": False, "success": True}
