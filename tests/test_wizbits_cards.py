"""Wizbits cards: the set's counts, the card model's rules, JSON, and the generated rules text."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable

import pytest

from engine.wizbits.card_json import card_from_json, card_to_json, effect_from_json, to_json
from engine.wizbits.cards import CARDS, CARDS_BY_ID, CHARACTERS, ELEMENTS, NON_ELEMENTS, card_by_name
from engine.wizbits.dice import STANDARD_DIE_LEVELS, CheckSpec, Stat, check_text, parse_check
from engine.wizbits.effects import (
    EFFECT_TYPES,
    CardFilter,
    Effect,
    ChangeStat,
    Check,
    Counter as CounterEffect,
    Damage,
    Destroy,
    Draw,
    GainPoints,
    GrantAttribute,
    Search,
    Target,
    iter_effects,
)
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
from engine.wizbits.statics import STATIC_TYPES, AttributeGrant, CostChange, Group, StatBonus, TriggerCost
from engine.wizbits.text import EFFECT_KEYWORDS, ability_text, card_text, effect_text, static_text


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


def test_ids_and_names_are_unique_and_looked_up() -> None:
    assert len(CARDS_BY_ID) == len(CARDS)
    assert len({card.name.lower() for card in CARDS}) == len(CARDS)
    assert card_by_name("  cinderwing   ARCHMAGE ") is CARDS_BY_ID["cinderwing-archmage"]
    assert card_by_name("Fireball") is None


def test_characters_are_balanced_for_play() -> None:
    for card in CHARACTERS:
        points = card.main_points
        assert points is not None
        assert {points.strength, points.will, points.magic} <= {2, 4, 6, 8, 10}, card.name
        assert 4 <= points.scn <= 10, card.name
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


# JSON ------------------------------------------------------------------------------------------


def test_every_card_round_trips_through_json() -> None:
    for card in CARDS:
        data = json.loads(json.dumps(card_to_json(card)))
        assert card_from_json(data) == card, card.name


def test_effects_serialise_with_their_kind() -> None:
    check = CARDS_BY_ID["riddle-cube"].abilities[0].effects[0]
    data = to_json(check)
    assert data["kind"] == "check" and data["spec"] == "Will Check Break 5"
    assert data["on_fail"] == [{"kind": "damage", "target": "checker", "amount": 1}]
    assert effect_from_json(data) == check
    with pytest.raises(ValueError):
        effect_from_json({"kind": "teleport", "target": "you"})


def test_a_card_from_bad_json_is_refused() -> None:
    data = card_to_json(CARDS_BY_ID["flickerwand"])
    del data["cost"]
    with pytest.raises(ValueError):
        card_from_json(data)


# Generated text --------------------------------------------------------------------------------


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9'-]+", text))


def assert_text_shows(effect: Effect, line: str) -> None:
    """The card-text rule: a line shows each effect's keyword, target, numbers and named terms."""
    assert EFFECT_KEYWORDS[effect.KIND].lower() in line.lower(), (effect, line)
    # "you" is implied by the imperative ("Draw 1 card."); "that character" names the checker.
    if isinstance(effect, CounterEffect) and effect.filter is not None:
        assert f"{effect.filter.phrase} on the Pillar" in line
    elif effect.target not in (Target.YOU, Target.CHECKER):
        assert effect.target.phrase.lower() in line.lower(), (effect, line)
    for number in effect.numbers():
        assert str(number) in words(line), (effect, number, line)
    if isinstance(effect, ChangeStat):
        assert effect.stat.label in line and ("Raise" if effect.steps > 0 else "Lower") in line
    if isinstance(effect, GrantAttribute):
        assert effect.attribute.label in line
    if isinstance(effect, Check):
        assert check_text(effect.spec) in line
        for outcome in effect.on_success + effect.on_fail:
            assert_text_shows(outcome, line)
    if isinstance(effect, Search):
        assert effect.filter.phrase in line


def test_every_cards_text_mentions_each_of_its_effects() -> None:
    for card in CARDS:
        text = card_text(card)
        for ability in all_abilities(card):
            line = ability_text(ability)
            assert line in text
            for effect in ability.effects:
                assert_text_shows(effect, line)
            for static in ability.statics:
                assert static_text(static) in line
                if isinstance(static, (StatBonus, AttributeGrant)):
                    assert (static.stat.label if isinstance(static, StatBonus) else static.attribute.label) in line
                if isinstance(static, CostChange):
                    assert str(abs(static.amount)) in words(line) and static.filter.phrase in line
            if ability.cost is not None and ability.cost.points:
                assert f"Pay {ability.cost.points}" in line
            if ability.trigger is not None:
                assert ability.trigger.phrase in line
            assert ability.type.label in line and ability.speed.value in line or ability.type is AbilityType.CONTINUE


def test_the_card_text_check_catches_a_wrong_number() -> None:
    line = effect_text(Damage(Target.CHOSEN_OPPOSING_CHARACTER, 2))
    with pytest.raises(AssertionError):
        assert_text_shows(Damage(Target.CHOSEN_OPPOSING_CHARACTER, 3), line)
    with pytest.raises(AssertionError):
        assert_text_shows(Destroy(Target.CHOSEN_OPPOSING_CHARACTER), line)


def test_every_card_shows_its_name_cost_attributes_and_main_points() -> None:
    for card in CARDS:
        text = card_text(card)
        assert text.startswith(f"{card.name} — cost {card.cost}\n")
        assert all(attribute.label in text for attribute in card.attributes)
        if card.main_points is not None:
            points = card.main_points
            assert (f"Strength d{points.strength} · Will d{points.will} · Magic d{points.magic} "
                    f"· SCN {points.scn}") in text
        assert ("Night" if card.is_night else "Day") in text


def test_known_texts() -> None:
    wand = CARDS_BY_ID["flickerwand"]
    assert ability_text(wand.abilities[0]) == (
        "Trigger (normal) — Pay 1, secede this: Deal 2 damage to a chosen opposing character.")
    assert ability_text(wand.flip_abilities[0]) == (
        "Income (normal): Deal 1 damage to the opposing Main Character.")
    assert "Flip — Income (normal): Deal 1 damage" in card_text(wand)
    verdict = CARDS_BY_ID["radiant-verdict"].abilities[0]
    assert ability_text(verdict) == ("Income (normal): A chosen opposing character makes a Special Check Global "
                                     "Check. If it fails: Destroy that character.")
    assert static_text(CostChange(Target.OPPONENT, CardFilter(Category.ELEMENT), 1)) == (
        "Your opponent's Elements cost 1 more.")
    assert static_text(StatBonus(Group.YOUR_MAIN, Stat.WILL, -1)) == (
        "Your Main Character gets -1 Will (1 die level).")
    assert effect_text(Draw(Target.OPPONENT, 2)) == "Your opponent draws 2 cards."
    assert effect_text(GainPoints(Target.YOU, 1)) == "Gain 1 Secession point."
    assert ability_text(when(TriggerEvent.THIS_DESTROYED, Draw(Target.YOU, 1), speed=Speed.QUICK)) == (
        "Trigger-Continue (quick) — When this card is destroyed: Draw 1 card.")


def test_printed_main_points_are_standard_levels() -> None:
    for card in CHARACTERS:
        assert card.main_points is not None
        for stat in Stat:
            assert card.main_points.level(stat) in STANDARD_DIE_LEVELS


def test_a_check_spec_is_printed_in_rulebook_form() -> None:
    spec = CheckSpec(None, None, is_break=True)
    effect = Check(Target.OPPONENT_MAIN, spec, on_success=(Draw(Target.YOU, 1),))
    assert effect_text(effect) == ("The opposing Main Character makes a Special Check Break Global Check. "
                                   "If it succeeds: Draw 1 card.")


def test_only_cards_that_stay_in_play_carry_lasting_or_flip_abilities() -> None:
    # Elements leave play once they resolve, so anything but an Income would never be live.
    for card in ELEMENTS:
        assert not card.flip_abilities, card.name
        assert all(ability.type is AbilityType.INCOME for ability in card.abilities), card.name


def test_the_rules_document_states_each_attribute_rule() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "wizbits.md").read_text(encoding="utf-8")
    for attribute in Attribute:
        assert f"| {attribute.label} | {attribute.rule} |" in doc
