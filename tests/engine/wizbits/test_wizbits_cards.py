"""Wizbits cards: the set's counts, the card model's rules and JSON (the text is in test_wizbits_card_text)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID, CHARACTERS, ELEMENTS, NON_ELEMENTS, card_by_name
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.dice import STANDARD_DIE_LEVELS, Stat, parse_check
from engine.wizbits.effects import (
    EFFECT_TYPES,
    CardFilter,
    ChangeStat,
    Check,
    Damage,
    Draw,
    Effect,
    GainPoints,
    Search,
    Target,
    iter_effects,
)
from engine.wizbits.effects import Counter as CounterEffect
from engine.wizbits.model import (
    Ability,
    AbilityType,
    Attribute,
    Card,
    Category,
    Element,
    MainPoints,
    MoonPhase,
    Speed,
    Tone,
    TriggerEvent,
    continuous,
    income,
    trigger,
    when,
)
from engine.wizbits.statics import STATIC_TYPES, CostChange, Group, StatBonus, TriggerCost


def all_abilities(card: Card) -> tuple[Ability, ...]:
    return card.abilities + card.flip_abilities


def cards_with(predicate: Callable[[Card], bool]) -> list[Card]:
    return [card for card in CARDS if predicate(card)]


# The set ---------------------------------------------------------------------------------------


def test_the_set_has_the_required_counts() -> None:
    assert len(CARDS) >= 45
    assert len(CHARACTERS) >= 16 and all(card.category is Category.CHARACTER for card in CHARACTERS)
    assert len(ELEMENTS) >= 12 and all(card.category is Category.ELEMENT for card in ELEMENTS)
    assert len(NON_ELEMENTS) >= 12 and all(card.category is Category.NON_ELEMENT for card in NON_ELEMENTS)
    assert len(cards_with(lambda card: card.has_flip_abilities)) >= 8
    assert len(cards_with(lambda card: card.has_conflict_speed)) >= 6


def test_the_set_is_spread_over_all_six_elements() -> None:
    by_element = Counter(card.element for card in CARDS)
    assert set(by_element) == set(Element)
    assert min(by_element.values()) >= 5
    for group in (CHARACTERS, ELEMENTS, NON_ELEMENTS):
        assert {card.element for card in group} == set(Element)


def test_the_set_uses_the_whole_vocabulary() -> None:
    types = Counter(ability.type for card in CARDS for ability in all_abilities(card))
    assert set(types) == set(AbilityType)
    assert types[AbilityType.TRIGGER_CONTINUE] >= 4 and types[AbilityType.CONTINUE] >= 4
    kinds = {effect.KIND for card in CARDS for effect in card.effects}
    assert kinds == set(EFFECT_TYPES)
    statics = {static.KIND for card in CARDS for ability in all_abilities(card) for static in ability.statics}
    assert statics == set(STATIC_TYPES)
    events = {ability.trigger for card in CARDS for ability in all_abilities(card)} - {None}
    assert events == set(TriggerEvent)
    attributes = {attribute for card in CARDS for attribute in card.attributes}
    assert attributes == set(Attribute)


def test_several_cards_have_incomes_of_different_speeds_for_the_reverse_pillar() -> None:
    mixed = cards_with(lambda card: len({ability.speed for ability in card.incomes}) >= 2)
    assert len(mixed) >= 4


def test_the_set_has_counters_checks_searches_and_point_gains() -> None:
    def has(kind: type[Effect]) -> list[Card]:
        return cards_with(lambda card: any(isinstance(effect, kind) for effect in card.effects))

    assert len(has(CounterEffect)) >= 3
    assert len(has(Search)) >= 3
    assert len(has(GainPoints)) >= 3
    assert len(has(Check)) >= 3
    assert all(check.on_fail or check.on_success for card in CARDS for check in card.checks)
    assert {check.spec.is_break for card in CARDS for check in card.checks} == {False, True}
    # A Special Global check carries the rulebook's own consequences (secede, or lose the game); cards
    # ask only for checks whose consequences they print.
    assert not any(check.spec.is_global and check.spec.is_special for card in CARDS for check in card.checks)


def test_ids_and_names_are_unique_and_looked_up() -> None:
    assert len(CARDS_BY_ID) == len(CARDS)
    assert len({card.name.lower() for card in CARDS}) == len(CARDS)
    assert card_by_name("  cinderwing   ARCHMAGE ") is CARDS_BY_ID["cinderwing-archmage"]
    assert card_by_name("Fireball") is None


def _healthy_global_fail(points: MainPoints) -> Fraction:
    """The exact chance an undamaged character fails a Special Check Global Check: the three dice sum to its SCN
    or less. Counted over every roll, independently of the engine and the bots."""
    rolls = list(product(*(range(1, level + 1) for level in (points.strength, points.will, points.magic))))
    return Fraction(sum(sum(roll) <= points.scn for roll in rolls), len(rolls))


def test_characters_are_balanced_for_play() -> None:
    for card in CHARACTERS:
        points = card.main_points
        assert points is not None
        assert {points.strength, points.will, points.magic} <= {2, 4, 6, 8, 10}, card.name
        assert 3 <= points.scn <= 5, card.name
        fail = _healthy_global_fail(points)
        # Healthy, any Character rarely fails (at most 1 in 16, the Emberbeetle Squire); a cost 4+ Character, the
        # kind a deck names as its Main, at most 1 in 36, so a game is not lost to its own first Tests.
        assert 0 < fail <= Fraction(1, 16), (card.name, fail)
        if card.cost >= 4:
            assert fail <= Fraction(1, 36), (card.name, fail)
    for starter in STARTER_DECKS.values():
        main = CARDS_BY_ID[starter.deck.main].main_points
        assert main is not None and _healthy_global_fail(main) == Fraction(1, 48), starter.name  # about 2%
    assert all(0 <= card.cost <= 5 for card in CARDS)


def test_variants_have_no_main_points() -> None:
    assert all(card.main_points is None and card.superlevel == "Variant" for card in ELEMENTS + NON_ELEMENTS)
    assert all(card.superlevel == "Character" for card in CHARACTERS)


# Day and night ---------------------------------------------------------------------------------


def plain(**changes: object) -> Card:
    fields: dict[str, object] = {
        "card_id": "test-card", "name": "Test Card", "category": Category.ELEMENT, "sublevel": "Spell",
        "element": Element.FIRE, "cost": 1, "tone": Tone.CYAN,
    } | changes
    return Card(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("tone", list(Tone))
def test_without_a_moon_the_tone_decides_day_or_night(tone: Tone) -> None:
    day = tone in (Tone.CYAN, Tone.YELLOW, Tone.WHITE, Tone.GREEN)
    assert tone.is_day is day
    assert plain(tone=tone).is_day is day


def test_a_moon_phase_means_night_and_only_night_tones_show_one() -> None:
    assert plain(tone=Tone.BLUE, moon=MoonPhase.NEW).is_night
    with pytest.raises(ValueError, match="Moon Phase"):
        plain(tone=Tone.YELLOW, moon=MoonPhase.FULL)


# Model rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "message"), [
    ({"category": Category.CHARACTER}, "Main Points"),
    ({"main_points": MainPoints(4, 4, 4, 4)}, "no Main Points"),
    ({"category": Category.CHARACTER, "main_points": MainPoints(7, 4, 4, 4)}, "standard die levels"),
    ({"cost": -1}, "negative"),
    ({"card_id": "Not A Slug"}, "slug"),
    ({"name": " "}, "name"),
    ({"attributes": (Attribute.WARD, Attribute.WARD)}, "twice"),
    ({"abilities": (income(Damage(Target.THIS_CHARACTER, 1)),)}, "this character"),
    ({"abilities": (when(TriggerEvent.THIS_ATTACKS, Draw(Target.YOU, 1)),)}, "this character"),
    ({"abilities": (continuous(StatBonus(Group.THIS_CHARACTER, Stat.WILL, 1)),)}, "this character"),
])
def test_cards_refuse_impossible_data(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plain(**changes)


def test_abilities_need_the_parts_of_their_type() -> None:
    draw = Draw(Target.YOU, 1)
    with pytest.raises(ValueError, match="cost"):
        Ability(AbilityType.TRIGGER, effects=(draw,))
    with pytest.raises(ValueError, match="trigger event"):
        Ability(AbilityType.TRIGGER_CONTINUE, effects=(draw,))
    with pytest.raises(ValueError, match="cost"):
        Ability(AbilityType.INCOME, effects=(draw,), cost=TriggerCost(points=1))
    with pytest.raises(ValueError, match="modifiers"):
        Ability(AbilityType.CONTINUE, effects=(draw,))
    with pytest.raises(ValueError, match="effects"):
        Ability(AbilityType.INCOME)
    with pytest.raises(ValueError, match="checker"):
        income(Damage(Target.CHECKER, 1))
    with pytest.raises(ValueError, match="must cost"):
        TriggerCost()


def test_effects_refuse_the_wrong_kind_of_target_and_empty_amounts() -> None:
    with pytest.raises(ValueError):
        Draw(Target.CHOSEN_OPPOSING_CHARACTER, 1)
    with pytest.raises(ValueError):
        Damage(Target.OPPONENT, 1)
    with pytest.raises(ValueError):
        CounterEffect(Target.CHOSEN_OPPOSING_CHARACTER)
    with pytest.raises(ValueError):
        Damage(Target.OPPONENT_MAIN, 0)
    with pytest.raises(ValueError):
        ChangeStat(Target.YOUR_MAIN, Stat.WILL, 0)
    with pytest.raises(ValueError):
        CostChange(Target.YOUR_MAIN, CardFilter(), 1)


def test_checks_need_a_consequence_and_fixed_targets_in_their_outcomes() -> None:
    spec = parse_check("Will Check 5")
    with pytest.raises(ValueError, match="consequence"):
        Check(Target.CHOSEN_OPPOSING_CHARACTER, spec)
    with pytest.raises(ValueError, match="choose"):
        Check(Target.YOUR_MAIN, spec, on_fail=(Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1),))
    with pytest.raises(ValueError, match="Main Character"):
        Check(Target.CHOSEN_OWN_CHARACTER, parse_check("Will Check Break 5"), on_fail=(Draw(Target.YOU, 1),))
    nested = Check(Target.YOUR_MAIN, spec, on_success=(Draw(Target.YOU, 2),), on_fail=(Damage(Target.CHECKER, 1),))
    assert [effect.KIND for effect in iter_effects((nested,))] == ["check", "draw", "damage"]


def test_targets_know_their_kind_and_whether_they_are_chosen() -> None:
    assert Target.CHOSEN_OPPOSING_UNIT.is_chosen and not Target.EACH_OPPOSING_CHARACTER.is_chosen
    assert Target.YOU.kind == "player" and Target.CHOSEN_UNIT.kind == "unit"
    assert Target.THIS_CHARACTER.kind == "character" and Target.THIS_CARD.kind == "card"


def test_card_filters_match_every_field_given() -> None:
    volley = CARDS_BY_ID["sparkswarm-volley"]
    assert CardFilter().matches(volley)
    assert CardFilter(Category.ELEMENT, Element.FIRE, "spell").matches(volley)
    assert not CardFilter(Category.ELEMENT, Element.WATER).matches(volley)
    assert not CardFilter(sublevel="Thought").matches(volley)
    assert CardFilter(Category.ELEMENT, Element.FIRE).phrase == "Fire Element"


def test_speed_ranks_order_the_reverse_pillar() -> None:
    assert [speed.rank for speed in (Speed.SLOW, Speed.NORMAL, Speed.QUICK, Speed.CONFLICT)] == [0, 1, 2, 3]
    oracle = CARDS_BY_ID["dawnfly-oracle"]  # printed slow, then quick
    assert [ability.speed for ability in oracle.incomes] == [Speed.QUICK, Speed.SLOW]
    twins = plain(abilities=(income(Draw(Target.YOU, 1)), trigger(TriggerCost(points=1), Draw(Target.YOU, 3)),
                             income(Draw(Target.YOU, 2)), income(Draw(Target.YOU, 4), speed=Speed.QUICK)))
    assert [ability.effects[0] for ability in twins.incomes] == [
        Draw(Target.YOU, 4), Draw(Target.YOU, 1), Draw(Target.YOU, 2)]


def test_attributes_each_have_a_distinct_rule() -> None:
    rules = [attribute.rule for attribute in Attribute]
    assert len(set(rules)) == len(rules) == 5 and all(rules)
    assert Attribute.CONFLICT_SPEED.label == "Conflict Speed"


def test_conflict_speed_cards_and_abilities() -> None:
    assert CARDS_BY_ID["undertow-refusal"].has_conflict_speed
    assert not CARDS_BY_ID["sparkswarm-volley"].has_conflict_speed
    sage_trigger = CARDS_BY_ID["tidewhisper-sage"].abilities[1]
    assert sage_trigger.is_conflict_speed


def test_printed_main_points_are_standard_levels() -> None:
    for card in CHARACTERS:
        assert card.main_points is not None
        for stat in Stat:
            assert card.main_points.level(stat) in STANDARD_DIE_LEVELS


def test_only_cards_that_stay_in_play_carry_lasting_or_flip_abilities() -> None:
    # Elements leave play once they resolve, so anything but an Income would never be live.
    for card in ELEMENTS:
        assert not card.flip_abilities, card.name
        assert all(ability.type is AbilityType.INCOME for ability in card.abilities), card.name


def test_the_rules_document_states_each_attribute_rule() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "wizbits.md").read_text(encoding="utf-8")
    for attribute in Attribute:
        assert f"| {attribute.label} | {attribute.rule} |" in doc
