"""The Pillar Lab engine: building a table, free plays, resolution as in a game, scenario JSON and files."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.flow import resolve_step
from engine.wizbits.lab.json_form import (
    MAX_SCENARIO_BYTES,
    LabFileError,
    dumps,
    loads,
    read_scenario,
    scenario_from_json,
    scenario_to_json,
    shipped_scenarios,
    write_scenario,
)
from engine.wizbits.lab.table import (
    LabCard,
    LabError,
    LabPlay,
    Scenario,
    add_play,
    build,
    card_choices,
    next_group,
    pass_priority,
    start,
    step,
    trigger_abilities,
)
from engine.wizbits.pillar.text import describe_group
from engine.wizbits.pillar.tree import UnitKind
from engine.wizbits.state import state_to_json
from engine.wizbits.terms import Category
from tests.helpers.wizbits_lab import table_scenario


def by_name(scenarios: list[Scenario], words: str) -> Scenario:
    return next(scenario for scenario in scenarios if words in scenario.title.lower())


def run_to_end(scenario: Scenario) -> tuple[list[tuple[str, ...]], list[str], object]:
    """Step a scenario to the end: the names of each step's units (strongest first), every event text, the table."""
    table, _ = start(build(scenario))
    steps, texts = [], []
    while next_group(table):
        if table.priority is not None:  # a trigger opened Priority: nobody answers it
            table, events = pass_priority(table)
            texts += [event.text for event in events]
            continue
        table, events, group = step(table)
        steps.append(tuple(unit.name for unit in reversed(group)))
        texts += [event.text for event in events]
    return steps, texts, table


# -- the table --------------------------------------------------------------------------------


def test_build_puts_the_cards_where_the_scenario_says() -> None:
    table = build(table_scenario())
    state = table.state
    ana, bo = state.players
    assert state.card(table.refs["0/main"]).card_id == "cinderwing-archmage"
    assert [state.cards[p.iid] for p in ana.in_play] == ["cinderwing-archmage", "halo-lantern", "emberbeetle-squire"]
    squire = ana.permanent(table.refs["0/table/2"])
    assert squire is not None and squire.seceded and squire.damage == 1
    assert state.permanent(table.refs["0/main"]).damage == 2  # type: ignore[union-attr]
    assert [state.cards[iid] for iid in ana.hand] == ["flickerwand"]
    # A starter deck without the copy of the Main Character that starts in play.
    assert len(ana.deck) == 59
    # A listed deck keeps its order: the first listed is the top (the state keeps the top last).
    assert [state.cards[iid] for iid in bo.deck] == ["riddle-cube", "dewdrop-orb"]


def test_constructed_stands_continue_units_and_limited_does_not() -> None:
    constructed = build(table_scenario()).pillar
    assert [unit.name for unit in constructed.continues] == ["Halo Lantern"]
    assert build(table_scenario(format="limited")).pillar.continues == ()


@pytest.mark.parametrize("changes, words", [
    ({"format": "sealed"}, "format"),
    ({"rtf": 3}, "Rules Text Format"),
    ({"base": "tower"}, "base"),
    ({"attackers": ("0/main",)}, "only a Damage base"),
    ({"base": "damage"}, "at least one attacker"),
])
def test_build_refuses_a_broken_scenario(changes: dict[str, object], words: str) -> None:
    with pytest.raises(LabError, match=words):
        build(table_scenario(**changes))


def test_build_refuses_impossible_tables() -> None:
    base = table_scenario()
    ana = base.sides[0]
    for side, words in [(replace(ana, main=LabCard("halo-lantern")), "must be a Character"),
                        (replace(ana, table=(LabCard("sparkswarm-volley"),)), "is an Element"),
                        (replace(ana, main=LabCard("cinderwing-archmage", seceded=True)), "never seceded"),
                        (replace(ana, table=(LabCard("halo-lantern", damage=1),)), "only characters take damage"),
                        (replace(ana, hand=("fireball",)), "unknown card"),
                        (replace(ana, deck="no-such-deck"), "starter deck")]:
        with pytest.raises(LabError, match=words):
            build(replace(base, sides=(side, base.sides[1])))


# -- playing ----------------------------------------------------------------------------------


def test_plays_cost_nothing_and_leave_the_old_table_alone() -> None:
    table = build(table_scenario())
    before = state_to_json(table.state)
    # Cinderwing Archmage costs 4 and its ability 2: nothing is paid, whatever the phase.
    played = add_play(table, LabPlay(1, card="cinderwing-archmage", targets=("0/table/2",)))
    played = add_play(played, LabPlay(0, source="0/main", ability=1, on="play/1"))
    assert state_to_json(table.state) == before
    for old, new in zip(table.state.players, played.state.players, strict=False):
        assert (len(new.deck), len(new.hand), new.points, len(new.in_play)) == \
               (len(old.deck), len(old.hand), old.points, len(old.in_play))
    units = list(played.pillar.units())
    assert [(u.kind, u.owner, u.height, u.iph) for u in units] == [(UnitKind.CARD, 1, 1, 1), (UnitKind.ABILITY, 0, 2, 1)]
    assert played.scenario.plays[1].source == "0/main"


def test_a_covered_unit_is_no_foundation() -> None:
    table = build(table_scenario())
    table = add_play(table, LabPlay(0, card="morning-chorus"))
    table = add_play(table, LabPlay(1, card="quiet-between-wings"))
    with pytest.raises(LabError, match="not a legal foundation.*main Current Foundation"):
        add_play(table, LabPlay(0, card="prism-kite", on="play/1"))


def test_targets_must_be_legal_choices() -> None:
    table = build(table_scenario())
    # Sparkswarm Volley hits a chosen opposing character: for Ana, Bo's Sage or Scout.
    assert card_choices(table, 0, "sparkswarm-volley") == [["1/main", "1/table/1"]]
    with pytest.raises(LabError, match="not a legal choice"):
        add_play(table, LabPlay(0, card="sparkswarm-volley", targets=("0/table/2",)))
    with pytest.raises(LabError, match="needs 1 chosen target"):
        add_play(table, LabPlay(0, card="sparkswarm-volley"))


def test_only_trigger_abilities_of_your_own_cards_are_offered() -> None:
    table = build(table_scenario())
    offered = {(ref, index) for ref, index, _ in trigger_abilities(table, 0)}
    assert offered == {("0/main", 1), ("0/table/1", 1)}  # the seceded Squire's flip side has no Trigger
    with pytest.raises(LabError, match="no Trigger ability"):
        add_play(table, LabPlay(0, source="0/main", ability=0))
    with pytest.raises(LabError, match="has no"):
        add_play(table, LabPlay(1, source="0/main", ability=1))


def test_damage_units_only_on_a_damage_base() -> None:
    with pytest.raises(LabError, match="Damage base"):
        add_play(build(table_scenario()), LabPlay(0, damage=(("1/table/1", 2),)))


def test_an_element_sets_off_the_opponents_trigger_as_in_a_game() -> None:
    base = table_scenario()
    bo = replace(base.sides[1], table=(LabCard("mayfly-tidecaller"),))
    table = add_play(build(replace(base, sides=(base.sides[0], bo))), LabPlay(0, card="morning-chorus"))
    kinds = [unit.kind for unit in table.pillar.units()]
    assert kinds == [UnitKind.CARD, UnitKind.TRIGGER]


def test_no_plays_once_resolution_started() -> None:
    table, _ = start(add_play(build(table_scenario()), LabPlay(0, card="morning-chorus")))
    with pytest.raises(LabError, match="resolving"):
        add_play(table, LabPlay(0, card="prism-kite"))


# -- resolving --------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(shipped_scenarios())))
def test_each_step_is_the_games_own_step(index: int) -> None:
    scenario = shipped_scenarios()[index]
    table, _ = start(build(scenario))
    while next_group(table):
        if table.priority is not None:
            table, _ = pass_priority(table)
            continue
        expected_group = table.state.pillar.next_group()  # type: ignore[union-attr]
        game = copy.deepcopy(table.state)
        game_events: list = []
        resolve_step(game, game_events)
        table, events, group = step(table)
        assert group == expected_group
        assert events[0].kind == "resolve_step" and events[0].text == describe_group(group, scenario.rtf)
        # The Lab's events start with exactly what the game's step logged.
        assert [e.text for e in events[:len(game_events)]] == [e.text for e in game_events]
    assert table.done and table.pillar.is_resolved()


def test_the_worked_example_resolves_as_the_rules_say() -> None:
    steps, _, _ = run_to_end(by_name(shipped_scenarios(), "worked"))
    assert steps == [("Moth-eaten Memory",), ("Tidal Recall", "Cinderwing Archmage ability"), ("Sparkswarm Volley",)]


def test_the_greater_iph_stands_in_a_contradiction() -> None:
    scenario = by_name(shipped_scenarios(), "destroyed or sent home")
    _, texts, table = run_to_end(scenario)
    swarm = build(scenario).refs["1/table/1"]
    bo = table.state.players[1]  # type: ignore[attr-defined]
    assert swarm in bo.hand and swarm not in bo.discard
    assert any("destroyed" in text for text in texts) and any("overrules" in text for text in texts)
    # The Swarm's "when destroyed" trigger still fired and reopened Priority: Ana discarded a card.
    assert any(text.startswith("Ana discards") for text in texts)


def test_a_damage_pillar_ends_with_the_base_checks() -> None:
    _, texts, table = run_to_end(by_name(shipped_scenarios(), "damage pillar"))
    checks = [e for e in table.events if e.kind == "check"]  # type: ignore[attr-defined]
    assert len(checks) == 2 and all(e.data["check"] == "Special Check Global Check" for e in checks)
    assert texts.index(next(t for t in texts if "Special Check" in t)) > texts.index(
        next(t for t in texts if "takes" in t and "damage" in t))


def test_starting_an_empty_pillar_finishes_it() -> None:
    table, events = start(build(table_scenario()))
    assert table.done and not next_group(table)
    assert [e.kind for e in events][:2] == ["pass", "pass"]
    with pytest.raises(LabError):
        step(table)


def test_the_same_scenario_rolls_the_same_dice() -> None:
    scenario = by_name(shipped_scenarios(), "damage pillar")
    assert run_to_end(scenario)[1] == run_to_end(scenario)[1]


# -- JSON -------------------------------------------------------------------------------------


def test_shipped_scenarios_teach_the_five_lessons() -> None:
    scenarios = shipped_scenarios()
    assert len(scenarios) >= 5
    for scenario in scenarios:
        assert scenario.title and len(scenario.about) > 80
    assert {s.base for s in scenarios} == {"turn", "damage"}
    assert any(len(CARDS_BY_ID[p.card].incomes) > 1 for s in scenarios for p in s.plays if p.card)


def test_json_round_trips() -> None:
    for scenario in [*shipped_scenarios(), table_scenario()]:
        assert scenario_from_json(scenario_to_json(scenario)) == scenario
        assert loads(dumps(scenario)) == scenario


def test_card_names_are_read_as_ids() -> None:
    data = scenario_to_json(table_scenario())
    data["sides"][0]["hand"] = ["Sparkswarm Volley"]
    assert scenario_from_json(data).sides[0].hand == ("sparkswarm-volley",)


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d.pop("title"), "missing key 'title'"),
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d.update(lab=2), "format 1"),
    (lambda d: d.update(rtf=True), "rtf"),
    (lambda d: d.update(sides=d["sides"][:1]), "exactly two sides"),
    (lambda d: d["sides"][1]["table"].append({"card": "fireball"}), r"sides\[1\].table\[1\].card: unknown card"),
    (lambda d: d["plays"].append({"seat": 0, "card": "sparkswarm-volley", "targets": ["Bo"]}),
     r"plays\[0\].targets\[0\]: 'Bo' is not a reference"),
    (lambda d: d["plays"].append({"seat": 0, "card": "prism-kite", "ability_of": "0/main"}), "exactly one of"),
    (lambda d: d["plays"].append({"seat": 0, "card": "prism-kite", "on": "play/4"}), "play 1"),
    (lambda d: d["sides"][0]["main"].update(damage=-1), "damage"),
])
def test_malformed_scenarios_say_what_is_wrong(mutate: object, words: str) -> None:
    data = scenario_to_json(table_scenario())
    mutate(data)  # type: ignore[operator]
    with pytest.raises(LabFileError, match=words):
        scenario_from_json(data)


# Mistakes in separate fields of one file: each must be found whatever the others are.
INDEPENDENT_MISTAKES = [
    (lambda d: d.pop("title"), "missing key 'title'"),
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d.update(rtf=True), r"^rtf"),
    (lambda d: d["sides"][0]["main"].update(damage=-1), r"^sides\[0\].main.damage"),
    (lambda d: d["sides"][1]["table"].append({"card": "fireball"}), r"^sides\[1\].table\[1\].card: unknown card"),
    (lambda d: d["plays"].append({"seat": 0, "card": "sparkswarm-volley", "targets": ["Bo"]}),
     r"^plays\[0\].targets\[0\]: 'Bo' is not a reference"),
    (lambda d: d["plays"].append({"seat": 0, "card": "prism-kite", "ability_of": "0/main"}),
     r"^plays\[1\]: a play has exactly one of"),
]


def test_a_file_with_many_mistakes_reports_every_one_with_where_it_is(tmp_path: Path) -> None:
    data = scenario_to_json(table_scenario())
    for mutate, _ in INDEPENDENT_MISTAKES:
        mutate(data)  # type: ignore[operator]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LabFileError) as caught:
        read_scenario(path)
    mistakes = caught.value.mistakes
    assert len(mistakes) == len(INDEPENDENT_MISTAKES), mistakes
    for _, words in INDEPENDENT_MISTAKES:
        assert sum(bool(re.search(words, mistake)) for mistake in mistakes) == 1, (words, mistakes)
    # The message names the file on every line, as a compiler does, so each line stands alone.
    assert str(caught.value).splitlines() == [f"{path}: {mistake}" for mistake in mistakes]


def test_every_mistake_of_the_set_up_is_reported_together() -> None:
    scenario = table_scenario()
    first, second = scenario.sides
    element = next(card.card_id for card in CARDS_BY_ID.values() if card.category is Category.ELEMENT)
    broken = replace(scenario, format="draft", sides=(
        replace(first, table=(*first.table, LabCard(element))),
        replace(second, hand=("no-such-card",)),
    ))
    with pytest.raises(LabError) as caught:
        build(broken)
    mistakes = caught.value.mistakes
    assert len(mistakes) == 3, mistakes
    assert mistakes[0].startswith("format is one of")
    assert mistakes[1].startswith(f"seat 1 table card {len(first.table) + 1}: ")
    assert mistakes[2].startswith("seat 2 hand card 1: ")


def test_files_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    scenario = shipped_scenarios()[0]
    path = tmp_path / "lab.json"
    write_scenario(path, scenario)
    assert read_scenario(path) == scenario
    bad = {
        "not-json.json": b"{ nope",
        "nan.json": json.dumps({"lab": 1}).replace("1", "NaN").encode(),
        "latin1.json": "{\"title\": \"caf\xe9\"}".encode("latin-1"),
        "big.json": b" " * (MAX_SCENARIO_BYTES + 1),
        "list.json": b"[]",
    }
    for name, raw in bad.items():
        (tmp_path / name).write_bytes(raw)
        with pytest.raises(LabFileError, match=name):
            read_scenario(tmp_path / name)
    with pytest.raises(LabFileError, match="not a regular file"):
        read_scenario(tmp_path)
    with pytest.raises(LabFileError, match="Could not read"):
        read_scenario(tmp_path / "missing.json")
    with pytest.raises(LabFileError, match="Could not write"):
        write_scenario(tmp_path / "no" / "such" / "dir.json", scenario)


# -- changing the set-up ----------------------------------------------------------------------


def test_set_up_edits() -> None:
    from engine.wizbits.lab.model import edit_card, put_in_play

    scenario = put_in_play(table_scenario(), 1, "gloomgnat-swarm")
    assert [card.card for card in scenario.sides[1].table] == ["pondskater-scout", "gloomgnat-swarm"]
    scenario = edit_card(edit_card(scenario, "1/table/2", "damage+"), "1/table/2", "damage+")
    scenario = edit_card(scenario, "0/table/2", "secede")  # the seceded Squire flips back
    table = build(edit_card(scenario, "0/main", "damage-"))
    assert table.state.permanent(table.refs["1/table/2"]).damage == 2  # type: ignore[union-attr]
    assert not table.state.permanent(table.refs["0/table/2"]).seceded  # type: ignore[union-attr]
    assert table.state.permanent(table.refs["0/main"]).damage == 1  # type: ignore[union-attr]
    assert [card.card for card in edit_card(scenario, "1/table/1", "remove").sides[1].table] == ["gloomgnat-swarm"]
    with pytest.raises(LabError, match="always stays in play"):
        edit_card(scenario, "1/main", "remove")
    with pytest.raises(LabError, match="Only a Damage base"):
        edit_card(scenario, "1/table/1", "battle")
    damage = replace(scenario, base="damage", attackers=("0/main",), defenders=("1/main",))
    battle = edit_card(edit_card(damage, "1/table/2", "battle"), "0/main", "battle")
    assert (battle.attackers, battle.defenders) == ((), ("1/main", "1/table/2"))
    with pytest.raises(LabError, match="not a card of the set-up"):
        edit_card(scenario, "play/1", "damage+")
