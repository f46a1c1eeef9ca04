"""Wizbits rulings the rulebook settles: a unit's abilities in sequence, battle checks at once, Continue units
leaving with their cards, and the Lab stopping for Priority after a trigger.

The first two start from the Lab files that showed the defects (issue 13), which also ship as Lab examples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine.core.contract import Event
from engine.wizbits.lab.json_form import loads, shipped_scenarios
from engine.wizbits.lab.table import (
    LabError,
    LabPlay,
    LabTable,
    add_play,
    build,
    next_group,
    pass_priority,
    start,
    step,
)
from engine.wizbits.pillar.tree import UnitKind

ECLIPSE = """
{"lab": 1, "title": "Eclipse", "about": "x", "format": "limited", "rtf": 1, "base": "turn", "active": 0, "seed": 8,
 "sides": [{"name": "Ana", "main": {"card": "cinderwing-archmage"}, "table": [], "hand": [], "deck": "ember-dawn"},
           {"name": "Bo", "main": {"card": "tidewhisper-sage"}, "table": [], "hand": [], "deck": "tidal-dusk"}],
 "plays": [{"seat": 0, "card": "eclipse-sting", "on": null, "targets": ["1/main"]}]}
"""

BASE_CHECKS = """
{"lab":1,"title":"Base checks","about":"x","format":"limited","rtf":1,"base":"damage","active":0,"seed":1,
 "sides":[{"name":"Ana","main":{"card":"cinderwing-archmage"},"table":[{"card":"glowworm-warden","damage":20}],
           "hand":[],"deck":"ember-dawn"},
          {"name":"Bo","main":{"card":"tidewhisper-sage"},"table":[],"hand":[],"deck":"tidal-dusk"}],
 "plays":[],"battle":{"attackers":["0/table/1","0/main"],"defenders":["1/main"]}}
"""


def resolved(table: LabTable) -> tuple[LabTable, list[Event]]:
    """Start resolving and step to the end, nobody answering a trigger; the table and every event."""
    table, events = start(table)
    while next_group(table):
        if table.priority is not None:
            table, more = pass_priority(table)
        else:
            table, more, _ = step(table)
        events += more
    return table, events


def checks_of(events: list[Event], iid: int) -> list[Mapping[str, Any]]:
    return [event.data for event in events if event.kind == "check" and event.data["iid"] == iid]


def shipped(title: str) -> Any:
    return next(scenario for scenario in shipped_scenarios() if scenario.title == title)


# -- a unit's own abilities, one after another ---------------------------------------------------


def test_a_later_ability_of_a_unit_sees_what_an_earlier_one_did() -> None:
    table = build(loads(ECLIPSE))
    sage = table.refs["1/main"]
    table, events = resolved(table)
    damage = [event.data for event in events if event.kind == "damage" and event.data["iid"] == sage]
    assert damage[0]["amount"] == 2 and damage[0]["scn"] == 7
    (check,) = checks_of(events, sage)
    # The slow check comes after the conflict-speed damage on the Reverse Pillar, so it reads SCN 7, not 5.
    assert check["number"] == 7
    assert check["success"] is (check["total"] > 7)
    assert table.state.permanent(sage).damage == 2 + (0 if check["success"] else 1)  # type: ignore[union-attr]


def test_units_of_one_step_still_see_only_the_state_the_step_began_with() -> None:
    # At height 2: the Archmage's ability (IPH 1) deals 1 to Bo's Sage, Eclipse Sting (IPH 2) deals 2, then checks.
    scenario = replace(loads(ECLIPSE), plays=(
        LabPlay(0, card="morning-chorus"),
        LabPlay(0, source="0/main", ability=1, on="play/1"),
        LabPlay(0, card="eclipse-sting", on="play/1", targets=("1/main",)),
    ))
    table = build(scenario)
    sage = table.refs["1/main"]
    table, events = start(table)
    table, events, group = step(table)
    assert [unit.kind for unit in group] == [UnitKind.ABILITY, UnitKind.CARD]
    (check,) = checks_of(events, sage)
    # The Sting sees its own 2 damage (5 + 2) but not the ability's 1, which resolved in the same step.
    assert check["number"] == 7


def test_the_shipped_example_is_the_file_that_showed_it() -> None:
    example = shipped("Reverse Pillar is sequential")
    assert replace(example, title="Eclipse", about="x") == loads(ECLIPSE)
    assert "SCN 7" in example.about


# -- battle checks, all made before anyone is destroyed ---------------------------------------------


def test_every_battle_check_is_made_before_anyone_is_destroyed() -> None:
    table = build(loads(BASE_CHECKS))
    warden, archmage = table.refs["0/table/1"], table.refs["0/main"]
    table, events = resolved(table)
    (warden_check,) = checks_of(events, warden)
    (archmage_check,) = checks_of(events, archmage)
    assert not warden_check["success"]
    # The Warden's +1 Will still counts: the Archmage's printed d6 Will rolls as a d8.
    assert dict(zip(archmage_check["stats"], archmage_check["dice"], strict=True))["will"] == 8
    kinds = [event.kind for event in events]
    last_check = max(index for index, kind in enumerate(kinds) if kind == "check")
    assert kinds.index("destroy") > last_check
    assert warden in table.state.players[0].discard


def test_the_shipped_example_is_the_file_that_showed_it_for_battles() -> None:
    example = shipped("Battle checks are simultaneous")
    assert replace(example, title="Base checks", about="x") == loads(BASE_CHECKS)


# -- Continue units leave with their cards ----------------------------------------------------------

LANTERN = """
{"lab":1,"title":"Lantern","about":"x","format":"constructed","rtf":1,"base":"turn","active":0,"seed":1,
 "sides":[{"name":"Ana","main":{"card":"cinderwing-archmage"},"table":[{"card":"halo-lantern"}],"hand":[],
           "deck":"ember-dawn"},
          {"name":"Bo","main":{"card":"tidewhisper-sage"},"table":[],"hand":[],"deck":"tidal-dusk"}],
 "plays":[{"seat":1,"card":"prism-kite","on":null,"targets":[]},
          {"seat":1,"card":"tidal-recall","on":"play/1","targets":["0/table/1"]}]}
"""


def test_a_continue_unit_leaves_the_pillar_when_its_card_returns_to_hand() -> None:
    table = build(loads(LANTERN))
    lantern = table.refs["0/table/1"]
    assert [int(unit.payload["iid"]) for unit in table.pillar.continues] == [lantern]
    table, _ = start(table)
    table, events, _ = step(table)  # Tidal Recall sends the Lantern home; Prism Kite still stands
    assert any(event.kind == "return" for event in events) and not table.done
    assert table.pillar.continues == ()
    table, _, _ = step(table)
    assert table.done and table.pillar.continues == ()


def test_a_continue_unit_leaves_the_shown_pillar_when_the_last_step_takes_its_card() -> None:
    scenario = loads(LANTERN)
    table = build(replace(scenario, plays=(replace(scenario.plays[1], on=None),)))  # the Recall alone
    table, _ = resolved(table)
    assert table.done and table.pillar.continues == ()


# -- the Lab stops for Priority after a trigger -------------------------------------------------------


def test_the_lab_stops_for_priority_after_a_trigger_and_takes_an_answer() -> None:
    scenario = next(s for s in shipped_scenarios() if s.title == "Destroyed or sent home?")
    table, _ = start(build(scenario))
    triggered = None
    while next_group(table):
        table, events, _ = step(table)
        if any(unit.kind is UnitKind.TRIGGER for unit in table.pillar.units()):
            triggered = table
            break
    assert triggered is not None, "the Swarm's trigger went on the pillar"
    # Nobody passed for the players: the active player holds Priority, and resolution waits.
    assert [event.kind for event in events].count("pass") == 0
    assert table.priority == scenario.active == table.state.priority and not table.state.resolving
    with pytest.raises(LabError, match="Priority"):
        step(table)
    with pytest.raises(LabError, match="holds Priority"):
        add_play(table, LabPlay(1, card="prism-kite"))
    # Ana answers: her card goes on the pillar; the scenario keeps only what was built before resolving.
    answered = add_play(table, LabPlay(0, card="prism-kite"))
    assert len(answered.scenario.plays) == len(scenario.plays)
    assert answered.state.pillar is not None and answered.state.pillar.remaining() == table.pillar.remaining() + 1
    answered, events = pass_priority(answered)
    assert answered.priority == 1 - scenario.active
    answered, events = pass_priority(answered)
    assert answered.priority is None and answered.state.resolving
    answered, _, group = step(answered)
    # Built on the main tip beside the trigger, the answer resolves with it, before the units below.
    assert {unit.name for unit in group} == {"Prism Kite", "Gloomgnat Swarm"}
