"""Wizbits Pillar: building, foundations, resolution order, texts and JSON."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.contract import canonical_json
from engine.wizbits.pillar.json_form import parse_pillar, pillar_to_json
from engine.wizbits.pillar.ranked_ids import RankedIds
from engine.wizbits.pillar.text import UnknownRtfError, describe_group, subpillar_word
from engine.wizbits.pillar.tree import (
    BASE_UID,
    IllegalFoundationError,
    InvalidPayloadError,
    MalformedPillarError,
    Pillar,
    PillarError,
    Unit,
    UnitKind,
    reverse_pillar_order,
)
from engine.wizbits.pillar.workload import random_pillar, resolve_all

CARD, ABILITY, TRIGGER, DAMAGE = UnitKind.CARD, UnitKind.ABILITY, UnitKind.TRIGGER, UnitKind.DAMAGE


def card(pillar: Pillar, name: str, on: int | None = None, owner: int = 0) -> Unit:
    return pillar.play(CARD, owner, name, {"card": name.lower()}, on=on)


def ability(pillar: Pillar, name: str, on: int | None = None, owner: int = 0) -> Unit:
    return pillar.play(ABILITY, owner, name, {"ability": name.lower()}, on=on)


def names(units: tuple[Unit, ...] | list[Unit]) -> list[str]:
    return [unit.name for unit in units]


def round_trip(pillar: Pillar) -> Pillar:
    data = pillar_to_json(pillar)
    again = parse_pillar(data)
    assert again == pillar
    assert canonical_json(pillar_to_json(again)) == canonical_json(data)
    assert again.foundations() == pillar.foundations()
    return again


def worked_example() -> tuple[Pillar, dict[str, Unit]]:
    """The issue's six steps, asserting the state after each one."""
    pillar = Pillar.open()
    a = card(pillar, "A", owner=0)  # 1. P1 plays A on the base
    assert (a.height, a.iph, a.branch, a.foundation) == (1, 1, 0, BASE_UID)
    assert pillar.main_tip() == a and not pillar.has_subpillars
    x = ability(pillar, "X", on=a.uid, owner=0)  # 2. P1's ability X on A
    assert (x.height, x.iph, x.foundation) == (2, 1, a.uid)
    assert x.branch == 1 and pillar.subpillar_tips() == {1: x.uid}
    assert pillar.main_tip() == a
    # 3. P1 passes (priority is the rules engine's business; nothing changes here).
    b = card(pillar, "B", on=pillar.main_tip_uid(), owner=1)  # 4. P2's B on the main tip
    assert (b.height, b.iph, b.branch) == (2, 2, 0) and pillar.main_tip() == b
    c = card(pillar, "C", on=x.uid, owner=1)  # 5. P2's C on S1's tip
    assert (c.height, c.iph, c.branch) == (3, 2, 1)
    assert pillar.subpillar_tips() == {1: c.uid} and pillar.main_tip() == b
    # 6. Both pass: the pillar resolves.
    return pillar, {"A": a, "X": x, "B": b, "C": c}


def test_worked_example_builds_and_resolves_as_the_issue_says() -> None:
    pillar, units = worked_example()
    assert pillar.foundations() == [units["B"].uid, units["C"].uid]
    assert describe_group(pillar.next_group(), 1) == (
        "Greatest remaining height: 3. C (IPH 2, Subpillar 1) resolves alone.")
    assert names(pillar.resolve_group()) == ["C"]
    assert pillar.subpillar_tips() == {1: units["X"].uid}
    step = pillar.next_group()
    assert names(step) == ["X", "B"]  # increasing precedence: B prevails
    assert describe_group(step, 1) == (
        "Greatest remaining height: 2. B (IPH 2) and X (IPH 1, Subpillar 1) resolve together; "
        "IPH 2 beats IPH 1, so B prevails on conflicts.")
    assert pillar.resolve_group() == step
    assert not pillar.has_subpillars and pillar.main_tip() == units["A"]
    assert describe_group(pillar.next_group(), 1) == (
        "Greatest remaining height: 1. A (IPH 1) resolves alone.")
    assert names(pillar.resolve_group()) == ["A"]
    assert pillar.is_resolved() and pillar.resolve_group() == ()


def test_cards_stack_height_and_iph_together_on_the_main_pillar() -> None:
    pillar = Pillar.open()
    played = [card(pillar, name) for name in "PQR"]
    assert [(unit.height, unit.iph, unit.branch) for unit in played] == [(1, 1, 0), (2, 2, 0), (3, 3, 0)]
    assert [unit.foundation for unit in played] == [BASE_UID, played[0].uid, played[1].uid]
    assert pillar.main_tip() == played[-1]


def test_non_card_units_restart_iph_but_keep_climbing_in_height() -> None:
    pillar = Pillar.open()
    low = card(pillar, "Low")
    high = card(pillar, "High")
    for kind in (ABILITY, TRIGGER, DAMAGE):
        unit = pillar.play(kind, 1, kind.value, {})
        assert (unit.height, unit.iph, unit.foundation) == (3, 1, high.uid)
    on_spire = card(pillar, "Spire card", on=pillar.foundations()[1])
    assert (on_spire.height, on_spire.iph) == (4, 2)
    assert low.iph == 1


def test_each_non_card_unit_starts_its_own_subpillar_and_leaves_tips_alone() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    first = ability(pillar, "First", on=a.uid)
    second = ability(pillar, "Second", on=a.uid)
    assert (first.branch, second.branch) == (1, 2)
    assert pillar.foundations() == [a.uid, first.uid, second.uid]  # main, then by age
    nested = ability(pillar, "Nested", on=first.uid)
    assert nested.branch == 3 and nested.height == 3
    assert pillar.subpillar_tips() == {1: first.uid, 2: second.uid, 3: nested.uid}
    topper = card(pillar, "Topper", on=second.uid)
    assert topper.branch == 2 and pillar.subpillar_tips()[2] == topper.uid
    assert pillar.main_tip() == a


def test_foundation_defaults_to_main_and_may_name_a_subpillar_tip() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    x = ability(pillar, "X")
    assert x.foundation == a.uid
    assert pillar.has_subpillars
    b = card(pillar, "B")  # None still means the main Current Foundation
    assert (b.foundation, b.branch) == (a.uid, 0)
    c = card(pillar, "C", on=x.uid)
    assert (c.foundation, c.branch) == (x.uid, x.branch)
    listed = pillar.foundations()
    assert pillar.foundation_count() == len(listed)
    assert [pillar.foundation_at(i) for i in range(len(listed))] == listed
    assert [pillar.is_foundation(uid) for uid in (a.uid, b.uid, x.uid, c.uid)] == [False, True, False, True]


@pytest.mark.parametrize("target", ["buried main", "buried subpillar", "base", "unknown", "resolved"])
def test_building_on_anything_but_a_tip_is_refused(target: str) -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    x = ability(pillar, "X")
    card(pillar, "C", on=x.uid)
    b = card(pillar, "B")
    extra = ability(pillar, "Extra", on=b.uid)
    card(pillar, "Over extra", on=extra.uid)
    pillar.resolve_group()  # "Over extra" leaves at height 4
    on = {"buried main": a.uid, "buried subpillar": x.uid, "base": BASE_UID, "unknown": 99,
          "resolved": extra.uid + 1}[target]
    before = pillar_to_json(pillar)
    with pytest.raises(IllegalFoundationError) as caught:
        card(pillar, "Nope", on=on)
    assert isinstance(caught.value, ValueError)
    assert pillar_to_json(pillar) == before  # nothing was placed
    message = str(caught.value)
    if target.startswith("buried"):
        assert "not a legal foundation" in message and f"unit {b.uid}" in message
    elif target == "base":
        assert "base" in message
    else:
        assert f"no unit {on}" in message


def test_the_greatest_height_resolves_together_across_branches() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    x = ability(pillar, "X", on=a.uid)
    y = ability(pillar, "Y", on=a.uid)
    card(pillar, "B")
    card(pillar, "OnX", on=x.uid)
    card(pillar, "OnY", on=y.uid)
    assert pillar.top_height() == 3
    assert names(pillar.resolve_group()) == ["OnX", "OnY"]
    assert pillar.subpillar_tips() == {1: x.uid, 2: y.uid}  # tips fall back
    assert sorted(names(pillar.resolve_group())) == ["B", "X", "Y"]
    assert not pillar.has_subpillars and pillar.foundations() == [a.uid]
    assert pillar.remaining() == 1


def test_greater_iph_prevails_whatever_the_play_order() -> None:
    pillar = Pillar.open()
    side = ability(pillar, "Side")  # height 1, on the base
    card(pillar, "A")
    card(pillar, "Tall")  # height 2, IPH 2, played before the ability
    ability(pillar, "Short", on=side.uid)  # height 2, IPH 1
    group = pillar.next_group()
    assert names(group) == ["Short", "Tall"]
    # Applying in the given order leaves the prevailing unit's result standing.
    weather: dict[str, str] = {}
    for unit in group:
        weather["sky"] = unit.name
    assert weather["sky"] == "Tall"


def test_at_equal_iph_the_later_play_prevails() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    ability(pillar, "Sooner", on=a.uid, owner=1)
    ability(pillar, "Later", on=a.uid, owner=0)
    group = pillar.next_group()
    assert names(group) == ["Sooner", "Later"]
    assert describe_group(group, 1) == ("Greatest remaining height: 2. Later (IPH 1, Subpillar 2) and Sooner "
                                        "(IPH 1, Subpillar 1) resolve together; "
                                        "same IPH: played later, so Later prevails on conflicts.")


def test_reverse_pillar_resolves_income_fastest_first_then_printed_order() -> None:
    assert reverse_pillar_order([(0, 1), (1, 3), (2, 2)]) == (1, 2, 0)
    assert reverse_pillar_order([(2, 5), (0, 5), (1, 9)]) == (1, 0, 2)
    assert reverse_pillar_order([]) == ()
    with pytest.raises(ValueError):
        reverse_pillar_order([(0, 1), (0, 2)])


def test_triggers_go_on_the_highest_remaining_main_unit_in_play_order() -> None:
    pillar, units = worked_example()
    pillar.resolve_group()  # C leaves
    placed = pillar.place_triggers([(1, "Echo", {"t": 1}), (0, "Spark", {"t": 2})])
    assert names(placed) == ["Echo", "Spark"]
    assert all(unit.kind is TRIGGER and unit.foundation == units["B"].uid for unit in placed)
    assert [(unit.height, unit.iph) for unit in placed] == [(3, 1), (3, 1)]
    assert [unit.branch for unit in placed] == [2, 3]  # each its own subpillar, after S1
    assert pillar.main_tip() == units["B"]
    assert names(pillar.resolve_group()) == ["Echo", "Spark"]  # they resolve before X and B
    assert names(pillar.resolve_group()) == ["X", "B"]
    pillar.resolve_group()
    late = pillar.place_triggers([(0, "Aftershock", {})])
    assert (late[0].height, late[0].foundation) == (1, BASE_UID)


def test_constructed_stands_continue_units_below_the_base_and_never_resolves_them() -> None:
    pillar = Pillar.open("turn", "constructed", [(0, "Aura", {"a": 1}), (1, "Ward", {})])
    assert [(unit.kind, unit.height, unit.owner) for unit in pillar.continues] == [
        (UnitKind.CONTINUE, -1, 0), (UnitKind.CONTINUE, -1, 1)]
    assert pillar.is_resolved() and pillar.remaining() == 0 and pillar.next_group() == ()
    assert pillar.foundations() == [BASE_UID]
    a = card(pillar, "A")
    assert (a.height, a.foundation) == (1, BASE_UID)
    assert resolve_all(pillar) == 1
    assert len(pillar.continues) == 2 and pillar.is_resolved()
    with pytest.raises(PillarError):
        pillar.play(UnitKind.CONTINUE, 0, "Sneaky", {})


def test_limited_keeps_continue_abilities_off_the_pillar() -> None:
    pillar = Pillar.open("turn", "limited", [(0, "Aura", {})])
    assert pillar.continues == ()
    assert pillar.add_continue(1, "Ward", {}) is None
    assert pillar == Pillar.open("turn", "limited")


def test_damage_pillar_has_a_damage_base() -> None:
    pillar = Pillar.open("damage")
    assert pillar.base_name == "Damage Base Foundation"
    assert Pillar.open().base_name == "Turn Base Foundation"
    hit = pillar.play(DAMAGE, 0, "3 damage", {"amount": 3, "target": "c7"})
    assert (hit.height, hit.iph, hit.branch) == (1, 1, 1)
    assert round_trip(pillar).base == "damage"


def test_rtf_names_subpillars_in_texts() -> None:
    assert (subpillar_word(1), subpillar_word(2)) == ("Subpillar", "Spire")
    with pytest.raises(UnknownRtfError):
        subpillar_word(3)
    pillar, _ = worked_example()
    assert describe_group(pillar.next_group(), 2) == (
        "Greatest remaining height: 3. C (IPH 2, Spire 1) resolves alone.")
    pillar.resolve_group()
    assert "X (IPH 1, Spire 1)" in describe_group(pillar.next_group(), 2)


def test_three_units_at_once_name_the_whole_precedence_chain() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    ability(pillar, "Ward", on=a.uid)
    ability(pillar, "Hex", on=a.uid)
    card(pillar, "Sunder", on=a.uid)
    assert describe_group(pillar.next_group(), 1) == (
        "Greatest remaining height: 2. Sunder (IPH 2), Hex (IPH 1, Subpillar 2) and Ward (IPH 1, Subpillar 1) "
        "resolve together; on conflicts Sunder prevails (IPH 2 beats IPH 1), then Hex (same IPH: played later).")
    with pytest.raises(ValueError):
        describe_group((), 1)


def test_payloads_are_private_copies_of_json_values() -> None:
    pillar = Pillar.open()
    payload: dict[str, Any] = {"targets": [1, 2], "pick": (3, 4)}
    unit = pillar.play(CARD, 0, "A", payload)
    payload["targets"].append(9)
    assert unit.payload == {"targets": [1, 2], "pick": [3, 4]}
    for bad in ({"x": {1, 2}}, {"x": math.nan}, {1: "int key"}, ["not", "a", "dict"]):
        with pytest.raises(InvalidPayloadError):
            pillar.play(CARD, 0, "Bad", bad)  # type: ignore[arg-type]
    assert pillar.remaining() == 1


def test_pillars_built_alike_are_equal_and_copies_are_independent() -> None:
    first, _ = worked_example()
    second, _ = worked_example()
    assert first == second and first != Pillar.open()
    twin = copy.deepcopy(first)
    assert twin == first
    twin.resolve_group()
    assert twin != first and first.remaining() == 4
    card(second, "D")
    assert first != second


def test_json_round_trips_mid_resolution_and_keeps_counting() -> None:
    pillar, units = worked_example()
    pillar.resolve_group()
    pillar.place_triggers([(1, "Echo", {"deep": {"list": [1, None, True, 2.5, "s"]}})])
    again = round_trip(pillar)
    assert again.next_branch == pillar.next_branch == 3
    assert ability(again, "Next", on=units["B"].uid) == ability(pillar, "Next", on=units["B"].uid)
    round_trip(Pillar.open("damage", "constructed", [(1, "Aura", {})]))


def _tamper(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    pillar, _ = worked_example()
    data = pillar_to_json(Pillar.open("turn", "constructed", [(0, "Aura", {})]))
    data = pillar_to_json(pillar) if path[0] == "units" else data
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(("path", "value"), [
    (("base",), "night"),
    (("format",), "draft"),
    (("next_uid",), True),
    (("next_uid",), 1),  # not above the uids in use
    (("next_branch",), KeyError),
    (("units",), {"not": "a list"}),
    (("units", 0, "kind"), "spell"),
    (("units", 0, "name"), 7),
    (("units", 0, "payload"), [1]),
    (("units", 0, "height"), 5),  # not one above its foundation
    (("units", 1, "iph"), 2),  # an ability's IPH restarts at 1
    (("units", 2, "branch"), 1),  # B is a card on the main pillar
    (("units", 3, "iph"), 3),  # C's IPH is one above X's
    (("units", 3, "on"), 1),  # C on A, which is buried under B
    (("units", 3, "order"), 99),
    (("units", 0, "extra"), 1),
    (("continues", 0, "height"), 0),
    (("format",), "limited"),  # Limited has no Continue units
])
def test_malformed_json_is_rejected(path: tuple[Any, ...], value: Any) -> None:
    with pytest.raises(MalformedPillarError):
        parse_pillar(_tamper(path, value))


def test_subpillar_ids_must_follow_play_order() -> None:
    pillar = Pillar.open()
    a = card(pillar, "A")
    ability(pillar, "X", on=a.uid)
    ability(pillar, "Y", on=a.uid)
    data = pillar_to_json(pillar)
    data["units"][1]["branch"], data["units"][2]["branch"] = 2, 1
    with pytest.raises(MalformedPillarError):
        parse_pillar(data)


def test_non_objects_are_not_pillars() -> None:
    samples: tuple[object, ...] = (None, [], "pillar", 3)
    for data in samples:
        with pytest.raises(MalformedPillarError):
            parse_pillar(data)


def test_workload_is_reproducible_and_resolves_everything() -> None:
    pillar = random_pillar(300, seed=5)
    assert pillar.remaining() == 300 and pillar == random_pillar(300, seed=5)
    assert pillar != random_pillar(300, seed=6)
    heights = {unit.height for unit in pillar.units()}
    assert resolve_all(pillar) == len(heights) and pillar.is_resolved()


@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "nth"]), st.integers(1, 200)), max_size=120))
def test_ranked_ids_agree_with_a_sorted_list(operations: list[tuple[str, int]]) -> None:
    ranked, model = RankedIds(), set[int]()
    for operation, value in operations:
        if operation == "add":
            ranked.add(value)
            model.add(value)
        elif operation == "remove":
            ranked.discard(value)
            model.discard(value)
        assert len(ranked) == len(model)
        assert [ranked.nth(i) for i in range(len(model))] == sorted(model)
    with pytest.raises(IndexError):
        ranked.nth(len(model))


def _check_shape(pillar: Pillar) -> None:
    by_branch: dict[int, list[Unit]] = {}
    for unit in pillar.units():
        by_branch.setdefault(unit.branch, []).append(unit)
        below = 0 if unit.foundation == BASE_UID else pillar.unit(unit.foundation).height
        assert unit.height == below + 1
    for units in by_branch.values():
        heights = [unit.height for unit in units]
        assert heights == sorted(set(heights)), "heights rise strictly along a branch"
    listed = pillar.foundations()
    assert [pillar.foundation_at(i) for i in range(pillar.foundation_count())] == listed


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_builds_keep_the_pillar_rules(data: st.DataObject) -> None:
    pillar = Pillar.open("turn", data.draw(st.sampled_from(["constructed", "limited"])), [(0, "Aura", {})])
    played: list[int] = []
    resolved: list[int] = []
    for _ in range(data.draw(st.integers(0, 40))):
        move = data.draw(st.sampled_from(["card", "card", "ability", "step"]))
        if move == "step":
            group = pillar.resolve_group()
            resolved += [unit.uid for unit in group]
            triggers = [(0, f"T{i}", {"i": i}) for i in range(data.draw(st.integers(0, 2)))] if group else []
            played += [unit.uid for unit in pillar.place_triggers(triggers)]
        else:
            on = pillar.foundation_at(data.draw(st.integers(0, pillar.foundation_count() - 1)))
            kind = CARD if move == "card" else ABILITY
            played.append(pillar.play(kind, 1, move, {"on": on}, on=on).uid)
        _check_shape(pillar)
        pillar = round_trip(pillar)
    last_height = math.inf
    while not pillar.is_resolved():
        group = pillar.resolve_group()
        assert len({unit.height for unit in group}) == 1 and group[0].height <= last_height
        assert [unit.precedence for unit in group] == sorted(unit.precedence for unit in group)
        last_height = group[0].height
        resolved += [unit.uid for unit in group]
        pillar = round_trip(pillar)
    assert sorted(resolved) == sorted(played) and len(set(resolved)) == len(resolved)
