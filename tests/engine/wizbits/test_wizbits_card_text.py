"""Wizbits card text: generated from the data, it names every effect, number and target."""

from __future__ import annotations

import re

import pytest

from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID
from engine.wizbits.dice import CheckSpec, Stat, check_text
from engine.wizbits.effects import (
    CardFilter,
    ChangeStat,
    Check,
    Damage,
    Destroy,
    Draw,
    Effect,
    GainPoints,
    GrantAttribute,
    Search,
    Target,
)
from engine.wizbits.effects import Counter as CounterEffect
from engine.wizbits.model import AbilityType, Category, Speed, TriggerEvent, when
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus
from engine.wizbits.text import EFFECT_KEYWORDS, ability_text, card_text, effect_text, static_text


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
        for ability in card.abilities + card.flip_abilities:
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
    assert ability_text(verdict) == ("Income (normal): A chosen opposing character makes a Special Will Check. "
                                     "If it fails: Destroy that character.")
    assert static_text(CostChange(Target.OPPONENT, CardFilter(Category.ELEMENT), 1)) == (
        "Your opponent's Elements cost 1 more.")
    assert static_text(StatBonus(Group.YOUR_MAIN, Stat.WILL, -1)) == (
        "Your Main Character gets -1 Will (1 die level).")
    assert effect_text(Draw(Target.OPPONENT, 2)) == "Your opponent draws 2 cards."
    assert effect_text(GainPoints(Target.YOU, 1)) == "Gain 1 Secession point."
    assert ability_text(when(TriggerEvent.THIS_DESTROYED, Draw(Target.YOU, 1), speed=Speed.QUICK)) == (
        "Trigger-Continue (quick) — When this card is destroyed: Draw 1 card.")


def test_a_check_spec_is_printed_in_rulebook_form() -> None:
    spec = CheckSpec(None, None, is_break=True)
    effect = Check(Target.OPPONENT_MAIN, spec, on_success=(Draw(Target.YOU, 1),))
    assert effect_text(effect) == ("The opposing Main Character makes a Special Check Break Global Check. "
                                   "If it succeeds: Draw 1 card.")
