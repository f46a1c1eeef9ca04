"""Wizbits continuous reads: Main Points with Continue bonuses, attributes, costs, legal targets, Continue units."""

from __future__ import annotations

from typing import Any

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.continuous import continue_units, cost_of, has_attribute, points_of, target_options
from engine.wizbits.dice import MainPoints, Stat
from engine.wizbits.effects import CardFilter, Counter, Damage, Destroy, Heal, ReturnToHand, Secede, Target
from engine.wizbits.model import Card, Category, Element, Tone, continuous
from engine.wizbits.pillar.tree import UnitKind
from engine.wizbits.statics import AttributeGrant, Group, StatBonus
from engine.wizbits.terms import Attribute
from tests.helpers.wizbits_table import Table, register


def banner(monkeypatch: Any, card_id: str, group: Group, steps: int) -> str:
    """A test-only Non-Element whose Continue ability moves Strength for ``group``."""
    return register(monkeypatch, Card(card_id, card_id.title(), Category.NON_ELEMENT, "Banner", Element.FIRE, 1,
                                      Tone.RED, abilities=(continuous(StatBonus(group, Stat.STRENGTH, steps)),)))


def strength(table: Table, iid: int) -> int:
    return points_of(table.state, table.perm(iid)).strength


def test_stat_bonus_groups_are_seen_from_the_controllers_side(monkeypatch: Any) -> None:
    table = Table()
    ours, theirs = table.put("pondskater-scout", 0), table.put("voidhopper-wanderer", 1)  # S d2, d4
    base = {iid: strength(table, iid) for iid in (table.main_0, ours, table.main_1, theirs)}
    assert base == {table.main_0: 6, ours: 2, table.main_1: 6, theirs: 4}
    for card_id, group, raised in (
            ("all-of-us", Group.YOUR_CHARACTERS, {table.main_0, ours}),
            ("the-main", Group.YOUR_MAIN, {table.main_0}),
            ("the-others", Group.OPPOSING_CHARACTERS, {table.main_1, theirs})):
        iid = table.put(banner(monkeypatch, card_id, group, 1), 0)
        now = {key: strength(table, key) for key in base}
        assert {key for key in base if now[key] != base[key]} == raised, card_id
        table.players[0].in_play.remove(table.perm(iid))


def test_other_characters_and_this_character_follow_the_source() -> None:
    table = Table()
    paladin = table.put("lantern-mantis-paladin", 0)  # your other characters: Strength +1
    monk = table.put("hollow-cicada-monk", 0)  # this character: Tough
    assert strength(table, paladin) == 8 and strength(table, table.main_0) == 8 and strength(table, monk) == 8
    assert strength(table, table.main_1) == 6
    assert has_attribute(table.state, table.perm(monk), Attribute.TOUGH)
    assert not has_attribute(table.state, table.perm(table.main_0), Attribute.TOUGH)


def test_changes_are_added_up_before_stepping_the_die() -> None:
    table = Table()
    table.put("lantern-mantis-paladin", 0)
    oracle = table.perm(table.main_0)  # S d6, +1 from the Paladin
    oracle.lasting_steps["strength"] = 9
    oracle.turn_steps["strength"] = -8
    # +1 +9 -8 = +2 from d6 gives d10; stepping one change at a time would stop at d20 and fall to d2.
    assert strength(table, table.main_0) == 10
    oracle.turn_steps["strength"] = -3
    assert strength(table, table.main_0) == 20


def test_seceded_cards_use_their_flip_continue_abilities() -> None:
    table = Table()
    bellows = table.put("bellows-of-the-hive", 0)
    scout = table.put("pondskater-scout", 0)
    assert strength(table, scout) == 3
    assert continue_units(table.state) == [(0, "Bellows of the Hive", {"iid": bellows, "ability": 0, "flip": False})]
    table.perm(bellows).seceded = True
    assert strength(table, scout) == 2
    assert continue_units(table.state) == [(0, "Bellows of the Hive", {"iid": bellows, "ability": 0, "flip": True})]


def test_cost_changes_apply_to_the_named_player_and_never_go_below_zero() -> None:
    table = Table()
    volley, resolve, quiet = (CARDS_BY_ID[card_id] for card_id in
                              ("sparkswarm-volley", "kindled-resolve", "quiet-between-wings"))
    table.put("nullfly-sentinel", 1)  # your opponent's Elements cost 1 more
    assert (cost_of(table.state, 0, volley), cost_of(table.state, 1, volley)) == (3, 2)
    table.put("bellows-of-the-hive", 0, seceded=True)  # flip: your Fire Elements cost 1 less
    assert cost_of(table.state, 0, volley) == 2 and cost_of(table.state, 0, resolve) == 1
    table.put("bellows-of-the-hive", 0, seceded=True)
    assert cost_of(table.state, 0, resolve) == 0 and cost_of(table.state, 0, quiet) == 1
    assert cost_of(table.state, 1, quiet) == 0


def test_effects_of_the_opponent_cant_choose_ward_but_yours_can() -> None:
    table = Table()
    warden = table.put("glowworm-warden", 1)  # Ward
    scout = table.put("pondskater-scout", 1)
    damage = Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1)
    assert target_options(table.state, 0, damage) == [table.main_1, scout]
    assert warden in target_options(table.state, 1, Heal(Target.CHOSEN_OWN_CHARACTER, 1))
    assert warden in target_options(table.state, 1, Damage(Target.CHOSEN_CHARACTER, 1))
    assert warden not in target_options(table.state, 0, Damage(Target.CHOSEN_CHARACTER, 1))
    table.perm(scout).turn_attributes.append("ward")
    assert target_options(table.state, 0, damage) == [table.main_1]


def test_moves_never_offer_a_main_character_and_secede_skips_seceded_cards() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1, seceded=True)
    orb = table.put("dewdrop-orb", 1)
    for effect in (Destroy(Target.CHOSEN_OPPOSING_CARD), ReturnToHand(Target.CHOSEN_OPPOSING_CARD)):
        assert target_options(table.state, 0, effect) == [scout, orb]
    assert target_options(table.state, 0, Secede(Target.CHOSEN_OPPOSING_CARD)) == [orb]
    assert target_options(table.state, 0, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1)) == [table.main_1, scout]
    assert target_options(table.state, 0, Destroy(Target.CHOSEN_OPPOSING_NON_ELEMENT)) == [orb]


def test_unit_choices_follow_owner_filter_and_the_excluded_unit() -> None:
    table = Table()
    pillar = table.state.pillar
    assert pillar is not None
    drift, monocle = table.put("pollen-drift", 1, "none"), table.put("sunglass-monocle", 1, "none")
    mine = pillar.play(UnitKind.CARD, 0, "Overgrowth", {"iid": table.put("overgrowth", 0, "none"), "targets": []})
    theirs = pillar.play(UnitKind.CARD, 1, "Pollen Drift", {"iid": drift, "targets": []})
    gear = pillar.play(UnitKind.CARD, 1, "Sunglass Monocle", {"iid": monocle, "targets": [None]})
    ability = pillar.play(UnitKind.ABILITY, 1, "ability", {"iid": table.main_1, "ability": 1, "flip": False,
                                                            "targets": [None]})
    opposing = Counter(Target.CHOSEN_OPPOSING_UNIT)
    assert target_options(table.state, 0, opposing) == [theirs.uid, gear.uid, ability.uid]
    assert target_options(table.state, 0, Counter(Target.CHOSEN_OPPOSING_UNIT, CardFilter(Category.ELEMENT))
                          ) == [theirs.uid]
    assert target_options(table.state, 1, Counter(Target.CHOSEN_UNIT), exclude_uid=ability.uid) == [
        mine.uid, theirs.uid, gear.uid]


def test_main_points_belong_to_characters_only() -> None:
    table = Table()
    orb = table.put("dewdrop-orb", 0)
    try:
        points_of(table.state, table.perm(orb))
    except ValueError as error:
        assert "not a character" in str(error)
    else:
        raise AssertionError("a Non-Element has no Main Points")
    assert points_of(table.state, table.perm(table.main_1)) == MainPoints(6, 8, 10, 5)


def test_attribute_grants_reach_their_group(monkeypatch: Any) -> None:
    table = Table()
    table.put("cobweb-cloak", 0)  # your Main Character: Elusive
    cloaked = register(monkeypatch, Card("shroud", "Shroud", Category.NON_ELEMENT, "Gear", Element.SHADOW, 1,
                                         Tone.BLACK, abilities=(continuous(
                                             AttributeGrant(Group.OPPOSING_CHARACTERS, Attribute.WARD)),)))
    table.put(cloaked, 1)
    oracle = table.perm(table.main_0)
    assert has_attribute(table.state, oracle, Attribute.ELUSIVE) and has_attribute(table.state, oracle, Attribute.WARD)
    assert not has_attribute(table.state, table.perm(table.main_1), Attribute.ELUSIVE)
    assert not has_attribute(table.state, table.perm(table.main_1), Attribute.WARD)
