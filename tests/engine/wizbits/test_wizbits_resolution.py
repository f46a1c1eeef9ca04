"""Wizbits unit resolution: cards, abilities, triggers and damage; Reverse Pillar order; Counter; precedence."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.contract import Event, canonical_json
from engine.wizbits.effects import Damage, Destroy, Heal, ReturnToHand, Target
from engine.wizbits.model import Card, Category, Element, Speed, Tone, income
from engine.wizbits.pillar.json_form import parse_pillar, pillar_to_json
from engine.wizbits.pillar.tree import BASE_UID, MalformedPillarError, Pillar, Unit, UnitKind
from engine.wizbits.resolve import chosen_slots, resolve_group, resolve_unit
from tests.helpers.wizbits_table import Table, register, zone_of

CARD, ABILITY, TRIGGER, DAMAGE = UnitKind.CARD, UnitKind.ABILITY, UnitKind.TRIGGER, UnitKind.DAMAGE


def pillar_of(table: Table) -> Pillar:
    assert table.state.pillar is not None
    return table.state.pillar


def play_card(table: Table, card_id: str, seat: int, targets: list[int | None], on: int | None = None) -> Unit:
    iid = table.put(card_id, seat, "none")
    return pillar_of(table).play(CARD, seat, card_id, {"iid": iid, "targets": targets}, on=on)


def resolve(table: Table, unit: Unit) -> tuple[list[Event], list[dict[str, Any]]]:
    events: list[Event] = []
    triggers: list[dict[str, Any]] = []
    resolve_unit(table.state, unit, events, triggers)
    return events, triggers


def element(monkeypatch: Any, card_id: str, *abilities: Any) -> str:
    return register(monkeypatch, Card(card_id, card_id.title(), Category.ELEMENT, "Test", Element.VOID, 0,
                                      Tone.WHITE, abilities=abilities))


def test_a_character_enters_play_and_then_its_incomes_happen() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1)
    unit = play_card(table, "cinderwing-archmage", 0, [scout])
    events, _ = resolve(table, unit)
    assert [event.kind for event in events] == ["enter", "damage"]
    assert zone_of(table.state, unit.payload["iid"]) == "play" and table.perm(scout).damage == 2


def test_an_element_happens_and_then_goes_to_the_discard_pile() -> None:
    table = Table()
    beetle = table.put("mossback-stagbeetle", 1)  # Tough
    unit = play_card(table, "sparkswarm-volley", 0, [beetle])
    _, triggers = resolve(table, unit)
    assert table.perm(beetle).damage == 2
    assert [(item["iid"], item["event"]) for item in triggers] == [(beetle, "this_damaged")]
    assert table.players[0].discard == [unit.payload["iid"]]


def test_incomes_run_fastest_first_whatever_the_printed_order() -> None:
    table = Table()
    table.perm(table.main_0).damage = 3
    table.put("pollen-drift", 0, "deck")
    events, _ = resolve(table, play_card(table, "dawnfly-oracle", 0, []))  # printed: slow draw, quick heal
    assert [event.kind for event in events] == ["enter", "heal", "draw"]


def test_targets_line_up_with_incomes_in_reverse_pillar_order(monkeypatch: Any) -> None:
    table = Table()
    card_id = element(monkeypatch, "two-minds", income(Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1), speed=Speed.SLOW),
                      income(Heal(Target.CHOSEN_OWN_CHARACTER, 1), speed=Speed.QUICK))
    assert [type(effect) for effect in chosen_slots(table.state.card(table.put(card_id, 0, "none")))] == [Heal, Damage]
    table.perm(table.main_0).damage = 1
    resolve(table, play_card(table, card_id, 0, [table.main_0, table.main_1]))
    assert table.perm(table.main_0).damage == 0 and table.perm(table.main_1).damage == 1


def test_ability_trigger_and_damage_units() -> None:
    table = Table()
    beetle = table.put("mossback-stagbeetle", 0, damage=2)
    pillar = pillar_of(table)
    archmage = table.put("cinderwing-archmage", 0)
    resolve(table, pillar.play(ABILITY, 0, "Archmage", {"iid": archmage, "ability": 1, "flip": False, "targets": []}))
    assert table.perm(table.main_1).damage == 1
    resolve(table, pillar.play(TRIGGER, 0, "Stagbeetle", {"iid": beetle, "ability": 0, "flip": False,
                                                           "event": "this_damaged"}))
    assert table.perm(beetle).damage == 1
    resolve(table, pillar.play(DAMAGE, 1, "damage", {"damage": [[table.main_0, 2], [archmage, 1]]}))
    assert table.perm(table.main_0).damage == 2 and table.perm(archmage).damage == 1


def test_a_counter_takes_a_unit_from_mid_branch_and_its_card_is_discarded() -> None:
    table = Table()
    pillar = pillar_of(table)
    a = play_card(table, "pollen-drift", 1, [])
    b = play_card(table, "hollow-gaze", 1, [])  # mid-branch once C stands on it
    c = play_card(table, "overgrowth", 1, [])
    refusal = play_card(table, "undertow-refusal", 0, [b.uid])
    events, _ = resolve(table, refusal)
    pillar.resolve_group()
    assert [unit.uid for unit in pillar.units()] == [a.uid, c.uid]
    assert (c.height, pillar.main_tip_uid()) == (3, c.uid)
    assert zone_of(table.state, b.payload["iid"]) == "discard" and "countered" in events[0].text
    again = parse_pillar(pillar_to_json(pillar))
    assert again == pillar and canonical_json(pillar_to_json(again)) == canonical_json(pillar_to_json(pillar))
    assert [unit.name for unit in pillar.resolve_group()] == ["overgrowth"]
    assert parse_pillar(pillar_to_json(pillar)) == pillar
    assert [unit.name for unit in pillar.resolve_group()] == ["pollen-drift"]
    assert pillar.is_resolved() and pillar.countered == ()  # nothing can rest on B any more


def test_a_counter_cant_reach_a_unit_of_its_own_step() -> None:
    table = Table()
    pillar = pillar_of(table)
    ability = pillar.play(ABILITY, 1, "Archmage", {"iid": table.main_1, "ability": 1, "flip": False, "targets": []})
    refusal = play_card(table, "undertow-refusal", 0, [ability.uid])  # both at height 1
    assert refusal.height == ability.height
    events, _ = resolve(table, refusal)
    assert pillar.remaining() == 2 and "counter" not in [event.kind for event in events]


@pytest.mark.parametrize("low_first", [True, False])
def test_the_higher_precedence_result_stands(monkeypatch: Any, low_first: bool) -> None:
    recall = element(monkeypatch, "recall", income(ReturnToHand(Target.CHOSEN_OPPOSING_CARD)))
    ruin = element(monkeypatch, "ruin", income(Destroy(Target.CHOSEN_OPPOSING_CARD)))
    low_card, high_card = (recall, ruin) if low_first else (ruin, recall)
    table = Table()
    scout = table.put("pondskater-scout", 1)
    pillar = pillar_of(table)
    a = play_card(table, "pollen-drift", 0, [])
    s = pillar.play(ABILITY, 0, "S", {"iid": table.main_0, "ability": 1, "flip": False, "targets": []}, on=a.uid)
    low = play_card(table, low_card, 0, [scout], on=s.uid)  # height 3, IPH 2
    b = play_card(table, "overgrowth", 1, [], on=a.uid)
    high = play_card(table, high_card, 1, [scout], on=b.uid)  # height 3, IPH 3
    group = pillar.next_group()
    assert [unit.uid for unit in group] == [low.uid, high.uid]
    events: list[Event] = []
    resolve_group(table.state, group, events, [])
    assert zone_of(table.state, scout) == ("discard" if high_card == ruin else "hand")
    assert "overruled" in [event.kind for event in events]


def test_units_of_separate_steps_do_not_overrule() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1)
    resolve(table, play_card(table, "tidal-recall", 0, [scout]))
    assert zone_of(table.state, scout) == "hand"
    table.state.players[1].hand.remove(scout)
    table.state.players[1].discard.append(scout)
    resolve(table, play_card(table, "tidal-recall", 0, [scout]))
    assert zone_of(table.state, scout) == "discard"


# -- the Pillar's counter operation ---------------------------------------------------------


def test_removing_keeps_heights_and_tips_fall_back() -> None:
    pillar = Pillar.open()
    a = pillar.play(CARD, 0, "A", {})
    x = pillar.play(ABILITY, 0, "X", {}, on=a.uid)
    c = pillar.play(CARD, 1, "C", {}, on=x.uid)
    b = pillar.play(CARD, 1, "B", {})
    assert pillar.remove(b.uid) == b
    assert pillar.main_tip_uid() == a.uid and pillar.top_height() == 3
    pillar.remove(x.uid)  # mid-branch: C stays the tip of S1 and keeps height 3
    assert pillar.subpillar_tips() == {x.branch: c.uid} and pillar.unit(c.uid).height == 3
    pillar.remove(c.uid)
    assert not pillar.has_subpillars and pillar.foundations() == [a.uid]
    assert parse_pillar(pillar_to_json(pillar)) == pillar
    d = pillar.play(CARD, 0, "D", {})
    assert (d.height, d.iph, d.foundation) == (2, 2, a.uid)
    assert parse_pillar(pillar_to_json(pillar)) == pillar
    with pytest.raises(KeyError):
        pillar.remove(b.uid)
    with pytest.raises(KeyError):
        pillar.remove(BASE_UID)


def test_countered_json_must_describe_a_real_counter() -> None:
    pillar = Pillar.open()
    a = pillar.play(CARD, 0, "A", {})
    pillar.play(CARD, 0, "B", {})
    pillar.remove(a.uid)
    data = pillar_to_json(pillar)
    assert data["countered"][0]["at"] == 3
    data["countered"][0]["at"] = 1
    with pytest.raises(MalformedPillarError):
        parse_pillar(data)
    assert "countered" not in pillar_to_json(Pillar.open())


def test_a_target_chosen_before_it_gained_ward_is_still_hit() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1)
    volley = play_card(table, "sparkswarm-volley", 0, [scout])
    table.perm(scout).turn_attributes.append("ward")  # Sunlit Insight resolved first
    resolve(table, volley)
    assert table.perm(scout).damage == 3
