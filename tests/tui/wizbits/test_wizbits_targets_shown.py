"""Public facts of the Pillar reach every seat: chosen targets, triggers that wait, and why a step resolves.

Targets are chosen when a unit goes on the Pillar, and a trigger set off
outside a pillar waits for the next one; both are public, so every seat's
view and the spectator's carry them, and the log names targets with their owner.
"""

from __future__ import annotations

import json

from engine.wizbits.actions import Activate, Attack, PlayCard
from engine.wizbits.continuous import collect_triggers
from engine.wizbits.lab.json_form import loads, shipped_scenarios
from engine.wizbits.lab.table import build, next_group, start, step
from engine.wizbits.pillar.text import reverse_reason
from engine.wizbits.state import Phase
from engine.wizbits.terms import Speed, TriggerEvent
from engine.wizbits.unit_targets import TargetView, waiting_after
from engine.wizbits.views import make_view
from tests.helpers.wizbits_game import RULES, Game
from tui.games.wizbits.table import WizbitsUI

ECLIPSE = json.dumps({
    "lab": 1, "title": "Eclipse", "about": "x", "format": "limited", "rtf": 1, "base": "turn", "active": 0, "seed": 8,
    "sides": [{"name": "Ana", "main": {"card": "cinderwing-archmage"}, "table": [], "hand": [], "deck": "ember-dawn"},
              {"name": "Bo", "main": {"card": "tidewhisper-sage"}, "table": [], "hand": [], "deck": "tidal-dusk"}],
    "plays": [{"seat": 0, "card": "eclipse-sting", "on": None, "targets": ["1/main"]}]})


def test_every_seat_and_the_spectator_see_a_units_chosen_target() -> None:
    table = build(loads(ECLIPSE))
    state = table.state
    sage = state.players[1].main
    (uid,) = table.units
    for seat in (0, 1, None):
        view = make_view(state, seat)
        assert view.targets == {uid: (TargetView("card", sage, "Tidewhisper Sage", 1),)}, seat
    # The Lab's log names the target and its owner.
    assert "Ana plays Eclipse Sting → Bo's Tidewhisper Sage (Lab: no cost)." in [e.text for e in table.events]


def test_a_games_log_names_the_target_and_its_owner() -> None:
    game = Game()
    game.to_phase(Phase.ELEMENTS)
    seat = game.state.active
    iid = game.give(seat, "eclipse-sting")
    play = next(a for a in RULES.legal_actions(game.state, seat) if isinstance(a, PlayCard) and a.card == iid)
    (target,) = play.targets
    assert target is not None
    events = game.act(seat, play)
    owner = game.state.players[game.state.owner(target)].name
    target_name = game.state.card(target).name
    mover = game.state.players[seat].name
    assert f"{mover} plays Eclipse Sting → {owner}'s {target_name}." in [event.text for event in events]
    assert game.state.pillar is not None
    uid = max(unit.uid for unit in game.state.pillar.units())
    assert make_view(game.state, 1 - seat).targets[uid][0].ref == target


def test_a_trigger_waiting_for_a_pillar_is_in_every_view() -> None:
    game = Game()
    game.to_phase(Phase.ELEMENTS)
    state = game.state
    swarm = game.give(1, "gloomgnat-swarm", "play")
    triggers = collect_triggers(state, TriggerEvent.THIS_DESTROYED, swarm, 1)
    assert triggers
    state.waiting_triggers.extend(triggers)
    for seat in (0, 1, None):
        waiting = make_view(state, seat).waiting
        assert [(w.owner, w.name, w.iid, w.event) for w in waiting] == [
            (1, "Gloomgnat Swarm", swarm, "this card is destroyed")], seat


def test_the_damage_pillar_example_shows_the_swarms_trigger_waiting() -> None:
    scenario = next(s for s in shipped_scenarios() if s.title == "A Damage Pillar")
    table, _ = start(build(scenario))
    assert waiting_after(table.state, False) == ()
    while next_group(table):
        table, _, _ = step(table)
    assert table.done
    waiting = waiting_after(table.state, table.shown is not None)
    assert [(w.owner, w.name) for w in waiting] == [(1, "Gloomgnat Swarm")]
    assert waiting[0].event == "this card is destroyed"


def test_a_reverse_pillar_says_why_its_order_is_so() -> None:
    speeds = [Speed.CONFLICT, Speed.QUICK, Speed.QUICK]
    assert reverse_reason(speeds, 1) == "Reverse Pillar: Conflict Speed first"
    assert reverse_reason(speeds, 2) == "Reverse Pillar: Conflict Speed before quick"
    assert reverse_reason(speeds, 3) == "Reverse Pillar: same speed, printed order"
    assert reverse_reason([Speed.NORMAL, Speed.NORMAL], 1) == "Reverse Pillar: same speed, printed order"


def test_a_target_gone_to_its_owners_hand_is_no_longer_named() -> None:
    table = build(loads(ECLIPSE))
    state = table.state
    (uid,) = table.units
    bo = state.players[1]
    sage = bo.main
    # As if it had been returned to hand before the Sting resolved: a hand is private.
    bo.in_play = [p for p in bo.in_play if p.iid != sage]
    bo.hand.append(sage)
    for seat in (0, None):
        view = make_view(state, seat)
        assert view.targets[uid] == (TargetView("card", -1, "a card that left play", None),)
        assert sage not in view.cards


def test_the_log_says_your_to_the_one_seat_looking_and_names_owners_otherwise() -> None:
    game = Game()
    game.to_phase(Phase.ELEMENTS)
    seat = game.state.active
    iid = game.give(seat, "eclipse-sting")
    play = next(a for a in RULES.legal_actions(game.state, seat) if isinstance(a, PlayCard) and a.card == iid)
    (target,) = play.targets
    assert target is not None
    (event,) = [event for event in game.act(seat, play) if event.kind == "play"]
    owner = game.state.owner(target)
    owner_name = game.state.players[owner].name
    name = game.state.card(target).name
    mover = game.state.players[seat].name
    ui = WizbitsUI()
    assert ui.log_lines([event], owner) == [f"{mover} plays Eclipse Sting → your {name}."]
    assert ui.log_lines([event], 1 - owner) == [f"{mover} plays Eclipse Sting → {owner_name}'s {name}."]
    assert ui.log_lines([event]) == [event.text]  # pass-and-play: the log is shared, owners are named


def two_volleys_and_a_counter(twin: bool = False) -> tuple[Game, int]:
    """Ana's Sparkswarm Volleys stand on the Elements pillar and Bo's Ripple of Doubt counters one of them.

    Plain: the Volleys stand at heights 1 and 2 of the main pillar and the lower one is countered. ``twin``:
    an ability of Ana's Archmage opens Subpillar 1 on the first Volley, and Volleys go on both tips, so two
    stand at height 3; the one on Subpillar 1 is countered. Returns the game and the countered Volley's uid.
    """
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(Phase.ELEMENTS)
    ana = game.state.active
    scout = game.give(1 - ana, "pondskater-scout", "play")
    game.play(ana, "sparkswarm-volley", targets=[scout])
    aimed = game.newest_unit().uid
    if twin:
        archmage = game.state.players[ana].main
        ping = next(a for a in RULES.legal_actions(game.state, ana) if isinstance(a, Activate) and a.card == archmage)
        game.act(ana, ping)
        ability = game.newest_unit().uid
        game.play(ana, "sparkswarm-volley", targets=[scout])
        game.play(ana, "sparkswarm-volley", on=ability, targets=[scout])
        aimed = game.newest_unit().uid
    game.play(ana, "sparkswarm-volley", targets=[scout])
    game.pass_()
    game.play(1 - ana, "ripple-of-doubt", targets=[aimed])
    return game, aimed


def test_a_unit_aimed_at_is_named_with_its_height_in_the_log_the_transcript_and_every_view() -> None:
    game, aimed = two_volleys_and_a_counter()
    ana, bo = game.state.active, 1 - game.state.active
    (event,) = [event for event in game.events if event.kind == "play" and event.data["card"] == "ripple-of-doubt"]
    assert event.text == "Bo plays Ripple of Doubt → Ana's Sparkswarm Volley (h1)."
    ui = WizbitsUI()
    assert ui.log_lines([event], ana) == ["Bo plays Ripple of Doubt → your Sparkswarm Volley (h1)."]
    assert ui.log_lines([event], bo) == [event.text]
    ripple = game.newest_unit().uid
    for seat in (ana, bo, None):
        assert make_view(game.state, seat).targets[ripple] == (TargetView("unit", aimed, "Sparkswarm Volley (h1)", ana),)


def test_two_units_of_one_name_at_one_height_are_told_apart_by_their_branch() -> None:
    game, aimed = two_volleys_and_a_counter(twin=True)
    heights = [unit.height for unit in game.pillar().units() if unit.name == "Sparkswarm Volley"]
    assert sorted(heights) == [1, 2, 3, 3]
    (event,) = [event for event in game.events if event.kind == "play" and event.data["card"] == "ripple-of-doubt"]
    assert event.text == "Bo plays Ripple of Doubt → Ana's Sparkswarm Volley (h3, Subpillar 1)."
    assert make_view(game.state, None).targets[game.newest_unit().uid][0].ref == aimed


def test_an_opponent_plays_an_element_trigger_has_its_own_line_in_the_log_and_the_transcript() -> None:
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(Phase.ELEMENTS)
    ana = game.state.active
    mayfly = game.give(1 - ana, "mayfly-tidecaller", "play")
    game.play(ana, "sparkswarm-volley", targets=[game.state.players[1 - ana].main])
    names = [player.name for player in game.state.players]
    (play,) = [event for event in game.events if event.kind == "play"]
    (trigger,) = [event for event in game.events if event.kind == "trigger"]
    assert game.events.index(trigger) == game.events.index(play) + 1  # right after the Element, as on the tree
    line = f"{names[1 - ana]}'s Mayfly Tidecaller triggers: when your opponent plays an Element."
    assert trigger.text == line and trigger.data["iid"] == mayfly
    assert any(unit.kind.value == "trigger" and unit.payload["iid"] == mayfly for unit in game.pillar().units())
    ui = WizbitsUI()
    for viewer in (ana, 1 - ana, None):
        assert line in ui.log_lines([play, trigger], viewer)


def test_a_trigger_set_off_outside_a_pillar_says_it_waits() -> None:
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(Phase.ELEMENTS)
    ana = game.state.active
    squire = game.give(ana, "emberbeetle-squire", "play")
    game.to_phase(Phase.ATTACK)
    events = game.act(ana, Attack((squire,)))
    name = game.state.players[ana].name
    assert [event.text for event in events if event.kind == "trigger"] == [
        f"{name}'s Emberbeetle Squire triggers: when this character is declared as an attacker. "
        "It waits for the next pillar."]
