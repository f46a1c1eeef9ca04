"""Counts agree with their nouns: the shared helper, and sentences across the games that use it."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.core.text import UnsafeTextError, check_seat_names
from engine.core.words import plural
from engine.wizbits.decklist import Deck, validate_deck


@pytest.mark.parametrize(("count", "noun", "plural_form", "expected"), [
    (1, "Cup Token", None, "1 Cup Token"),
    (2, "Cup Token", None, "2 Cup Tokens"),
    (0, "card", None, "0 cards"),
    (-1, "point", None, "-1 point"),
    (1, "copy", "copies", "1 copy"),
    (3, "copy", "copies", "3 copies"),
    (1.0, "minute", None, "1 minute"),
    (1.5, "minute", None, "1.5 minutes"),
])
def test_plural_agrees_with_its_count(count: float, noun: str, plural_form: str | None, expected: str) -> None:
    assert plural(count, noun, plural_form) == expected


def test_one_seat_name_expected_reads_in_the_singular() -> None:
    with pytest.raises(UnsafeTextError, match="^1 seat name was expected, not 2$"):
        check_seat_names(["Ana", "Bo"], 1, "Player")
    with pytest.raises(UnsafeTextError, match="^2 seat names were expected, not 1$"):
        get_game("wizards-cup").rules.new_state({}, 1, 2, ["Ana"])


def test_a_one_card_deck_has_1_card() -> None:
    problems = [str(problem) for problem in validate_deck(Deck.of({"flickerwand": 1}, None))]
    assert "the deck has 1 card; it needs at least 60" in problems


def test_the_lab_counts_one_play_in_the_singular() -> None:
    from engine.wizbits.lab.table import LabError, LabPlay, add_play, build
    from tests.helpers.wizbits_lab import table_scenario

    table = add_play(build(table_scenario()), LabPlay(0, card="morning-chorus"))
    with pytest.raises(LabError, match="this table has only 1 play before this one$"):
        table.unit_uid("play/2")
