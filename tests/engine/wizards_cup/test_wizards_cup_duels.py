"""Every Magic Power and every element pairing, decided by the duel resolver alone."""

from __future__ import annotations

import itertools

import pytest

from engine.wizards_cup.cards import BEATS, CARDS, WIZARDS, Element, Timing
from engine.wizards_cup.duel import resolve_duel
from tests.helpers.wizards_cup_helpers import side

# The chart from the issue, written out independently of engine data.
EXPECTED_BEATS = {
    ("Water", "Fire"), ("Fire", "Nature"), ("Nature", "Water"),
    ("Water", "Light"), ("Fire", "Light"), ("Nature", "Light"),
    ("Light", "Shadow"),
    ("Shadow", "Water"), ("Shadow", "Fire"), ("Shadow", "Nature"),
}

# One wizard per element whose power never acts when it is not fresh and has no discard pile.
PLAIN = {
    "Void": "echo-warden", "Water": "deepwater-regent", "Fire": "pyre-lord",
    "Nature": "mist-warden", "Light": "sunforged-saint", "Shadow": "night-whisper",
}


def test_the_set_has_18_wizards_three_per_element_with_distinct_values() -> None:
    assert len(WIZARDS) == 18
    assert sorted(w.value for w in WIZARDS) == list(range(1, 19))
    for element in Element:
        assert sum(w.element is element for w in WIZARDS) == 3
    assert sum(w.power is not None for w in WIZARDS) >= 12
    assert {w.power.timing for w in WIZARDS if w.power} == set(Timing)


def test_chart_data_matches_the_ruling() -> None:
    actual = {(a.value, b.value) for a in Element for b in BEATS[a]}
    assert actual == EXPECTED_BEATS


@pytest.mark.parametrize("first,second", list(itertools.permutations(PLAIN, 2)))
def test_every_element_pairing(first: str, second: str) -> None:
    outcome = resolve_duel((side(PLAIN[first]), side(PLAIN[second])), duel_number=2)
    if (first, second) in EXPECTED_BEATS:
        assert (outcome.winner, outcome.step) == (0, "element")
        assert outcome.why == f"{first} beats {second}"
    elif (second, first) in EXPECTED_BEATS:
        assert (outcome.winner, outcome.step) == (1, "element")
    else:
        higher = 0 if CARDS[PLAIN[first]].value > CARDS[PLAIN[second]].value else 1
        assert (outcome.winner, outcome.step) == (higher, "value")


def test_same_wizard_on_both_sides_discards_both() -> None:
    outcome = resolve_duel((side("pyre-lord"), side("pyre-lord")), 1)
    assert outcome.winner is None and outcome.step == "value"


POWER_CASES = {
    # name: (duel with the power in force, expected) and (same duel with it out of force, expected)
    "dawn-acolyte": ((side("dawn-acolyte", fresh=True), side("echo-warden"), 1), (0, "value"),
                     (side("dawn-acolyte"), side("echo-warden"), 2), (1, "value")),
    "hollow-sage": ((side("hollow-sage", fresh=True), side("pyre-lord"), 1), (None, "power"),
                    (side("hollow-sage"), side("pyre-lord"), 2), (1, "value")),
    "night-whisper": ((side("night-whisper", fresh=True), side("lantern-knight"), 2), (0, "power"),
                      (side("night-whisper"), side("lantern-knight"), 2), (1, "element")),
    "ember-adept": ((side("ember-adept", fresh=True), side("deepwater-regent", fresh=True), 1), (0, "power"),
                    (side("ember-adept", fresh=True), side("deepwater-regent"), 2), (1, "element")),
    "starless-oracle": ((side("starless-oracle", fresh=True), side("pyre-lord"), 2), (0, "power"),
                        (side("starless-oracle", fresh=True), side("mist-warden"), 2), (1, "value")),
    "umbral-tyrant": ((side("umbral-tyrant", fresh=True, waiting="echo-warden"), side("sunforged-saint"), 2),
                      (0, "power"),
                      (side("umbral-tyrant", fresh=True, waiting="pyre-lord"), side("sunforged-saint"), 2),
                      (1, "element")),
    "thornmother": ((side("thornmother", fresh=True, waiting="lantern-knight"), side("pyre-lord"), 2), (0, "power"),
                    (side("thornmother", fresh=True, waiting="echo-warden"), side("pyre-lord"), 2), (1, "element")),
    "sunforged-saint": ((side("sunforged-saint", fresh=True, discard=("pyre-lord", "mist-warden")), side("pyre-lord"), 3),
                        (0, "power"),
                        (side("sunforged-saint", fresh=True, discard=("pyre-lord",)), side("pyre-lord"), 3),
                        (1, "element")),
    "cinder-duelist": ((side("cinder-duelist"), side("grave-lurker"), 4), (0, "power"),
                       (side("cinder-duelist"), side("umbral-tyrant"), 4), (1, "element")),
    "lantern-knight": ((side("lantern-knight"), side("echo-warden"), 4), (0, "power"),
                       (side("lantern-knight"), side("pyre-lord"), 4), (1, "element")),
    "brine-witch": ((side("brine-witch"), side("grave-lurker"), 3), (0, "power"),
                    (side("brine-witch"), side("grave-lurker"), 2), (1, "element")),
    "moss-hermit": ((side("mist-warden", discard=("moss-hermit",)), side("grave-lurker"), 2), (0, "power"),
                    (side("mist-warden", discard=("moss-hermit", "pyre-lord")), side("grave-lurker"), 2),
                    (1, "element")),
    "grave-lurker": ((side("night-whisper", discard=("grave-lurker",)), side("sunforged-saint"), 2), (0, "power"),
                     (side("night-whisper", discard=("pyre-lord",)), side("sunforged-saint"), 2), (1, "element")),
    "tide-caller": ((side("deepwater-regent", discard=("tide-caller",)), side("deepwater-regent"), 2), (0, "value"),
                    (side("deepwater-regent", discard=("pyre-lord",)), side("deepwater-regent"), 2), (None, "value")),
}


def test_every_power_has_a_case() -> None:
    assert set(POWER_CASES) == {w.card_id for w in WIZARDS if w.power}


@pytest.mark.parametrize("card", sorted(POWER_CASES))
def test_each_power_decides_when_in_force_and_not_otherwise(card: str) -> None:
    (mine, theirs, duel), expected, (plain, theirs2, duel2), expected_without = POWER_CASES[card]
    outcome = resolve_duel((mine, theirs), duel)
    assert (outcome.winner, outcome.step) == expected
    assert [p.source.card_id for p in outcome.active] == [card]
    outcome = resolve_duel((plain, theirs2), duel2)
    assert (outcome.winner, outcome.step) == expected_without
    assert not outcome.active


def test_ember_adept_out_of_the_first_duel_loses_to_water() -> None:
    outcome = resolve_duel((side("ember-adept", fresh=True), side("deepwater-regent")), 2)
    assert (outcome.winner, outcome.step) == (1, "element")


def test_cinder_duelist_power_needs_low_value() -> None:
    outcome = resolve_duel((side("cinder-duelist"), side("umbral-tyrant")), 4)
    assert (outcome.winner, outcome.step) == (1, "element")


def test_lantern_knight_power_only_against_void() -> None:
    outcome = resolve_duel((side("lantern-knight"), side("pyre-lord")), 4)
    assert (outcome.winner, outcome.step) == (1, "element")


def test_hollow_sage_discards_both_and_agreeing_powers_stand() -> None:
    outcome = resolve_duel((side("hollow-sage", fresh=True), side("pyre-lord")), 1)
    assert (outcome.winner, outcome.step) == (None, "power")
    mirrored = resolve_duel((side("hollow-sage", fresh=True), side("hollow-sage", fresh=True)), 1)
    assert (mirrored.winner, mirrored.step, mirrored.clash) == (None, "power", False)


def test_contradicting_powers_fall_through_to_elements() -> None:
    whisper = side("night-whisper", fresh=True)
    saint = side("sunforged-saint", fresh=True, discard=("pyre-lord", "mist-warden"))
    outcome = resolve_duel((whisper, saint), 3)
    assert outcome.clash and (outcome.winner, outcome.step) == (1, "element")
    assert "clash" in outcome.why and "Light beats Shadow" in outcome.why


def test_contradicting_win_and_discard_fall_through_to_value() -> None:
    outcome = resolve_duel((side("ember-adept", fresh=True), side("hollow-sage", fresh=True)), 1)
    assert outcome.clash and (outcome.winner, outcome.step) == (0, "value")


def test_two_lower_value_powers_do_not_cancel() -> None:
    outcome = resolve_duel((side("dawn-acolyte", fresh=True), side("dawn-acolyte", fresh=True)), 1)
    assert outcome.winner is None  # same wizard: equal values
    outcome = resolve_duel((side("dawn-acolyte", fresh=True), side("hollow-sage", discard=("dawn-acolyte",))), 2)
    assert (outcome.winner, outcome.step) == (0, "value")


def test_ties_won_by_both_sides_discard_both() -> None:
    outcome = resolve_duel(
        (side("deepwater-regent", discard=("tide-caller",)), side("deepwater-regent", discard=("tide-caller",))), 2
    )
    assert outcome.winner is None


def test_discard_power_only_from_the_top_of_the_pile() -> None:
    buried = side("mist-warden", discard=("moss-hermit", "pyre-lord"))
    outcome = resolve_duel((buried, side("grave-lurker")), 2)
    assert (outcome.winner, outcome.step) == (1, "element")


@pytest.mark.parametrize("owner", [0, 1])
def test_a_powers_reason_names_whose_card_it_reads(owner: int) -> None:
    """Read from the other seat, a card's "your Waiting Card" would mean the reader's; the reason names the owner."""
    thornmother = side("thornmother", fresh=True, waiting="lantern-knight")
    sides = (thornmother, side("pyre-lord")) if owner == 0 else (side("pyre-lord"), thornmother)
    names = ("Ana", "Bo")
    outcome = resolve_duel(sides, 2, names)
    assert (outcome.winner, outcome.step) == (owner, "power")
    assert "your" not in outcome.why.lower()
    assert f"{names[owner]}'s Waiting Card" in outcome.why


def test_a_discard_powers_reason_names_whose_wizards_win() -> None:
    shadow = side("night-whisper", discard=("grave-lurker",))
    outcome = resolve_duel((side("lantern-knight"), shadow), 2, ("Ana", "Bo\\1"))
    assert outcome.winner == 1 and "your" not in outcome.why.lower()
    # The name is taken as it is, never as a pattern's backreference.
    assert "Bo\\1's Shadow wizards" in outcome.why
