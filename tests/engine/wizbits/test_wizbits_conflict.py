"""Wizbits Conflict through the rules: attackers, blockers, assignments, Elusive, battles, damage and its checks."""

from __future__ import annotations

import pytest

from engine import state_digest
from engine.core.contract import Event
from engine.core.errors import IllegalActionError
from engine.wizbits.actions import Action, Assign, Attack, Block, Divide, Payment, PlayCard
from engine.wizbits.conflict import current_battle
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK, SPECIAL_CHECK_GLOBAL_CHECK
from engine.wizbits.state import Battle, Phase
from tests.helpers.wizbits_game import RULES, Game, phase_ends, steer_rolls


def at_conflict(mine: list[str], theirs: list[str], seed: int = 3) -> tuple[Game, int, list[int], list[int]]:
    """A game at the declaration of attackers, with these characters in play for the active seat and the other."""
    game = Game(seed, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(Phase.ELEMENTS, 1)
    me = game.state.active
    own = [game.give(me, card, "play") for card in mine]
    other = [game.give(1 - me, card, "play") for card in theirs]
    game.to_phase(Phase.ATTACK)
    return game, me, own, other


def refused(game: Game, seat: int, action: Action, reason: str) -> None:
    digest = state_digest(RULES, game.state)
    with pytest.raises(IllegalActionError, match=reason):
        RULES.apply(game.state, seat, RULES.action_to_json(action))
    assert state_digest(RULES, game.state) == digest
    assert action not in RULES.legal_actions(game.state, seat)


def test_attackers_are_the_active_players_unseceded_characters_main_included() -> None:
    game, me, (mayfly, thimble), (herbalist,) = at_conflict(["mayfly-tidecaller", "empty-thimble"],
                                                            ["bumblebee-herbalist"])
    seceded = game.give(me, "dawnfly-oracle", "play", seceded=True)
    main = game.state.players[me].main
    assert RULES.to_act(game.state) == (me,)
    for bad in ((herbalist,), (seceded,), (thimble,), (mayfly, mayfly)):
        refused(game, me, Attack(bad), "your own characters in play that are not seceded")
    legal = {frozenset(a.attackers) for a in RULES.legal_actions(game.state, me) if isinstance(a, Attack)}
    assert legal == {frozenset(), frozenset({main}), frozenset({mayfly}), frozenset({main, mayfly})}
    game.act(me, Attack((main,)))
    assert game.state.phase == Phase.BLOCK and RULES.to_act(game.state) == (1 - me,)


def test_elusive_characters_battle_only_elusive_ones_both_ways() -> None:
    game, me, (duelist, mayfly), (scout, herbalist) = at_conflict(
        ["ashmoth-duelist", "mayfly-tidecaller"], ["pondskater-scout", "bumblebee-herbalist"])
    game.act(me, Attack((duelist, mayfly)))
    them = 1 - me
    refused(game, them, Block(((herbalist, duelist),)), "only Elusive characters can battle an Elusive character")
    refused(game, them, Block(((scout, mayfly),)), "only Elusive characters can battle an Elusive character")
    refused(game, them, Block(((herbalist, duelist + 1000),)), "only battle a declared attacker")
    refused(game, them, Block(((herbalist, mayfly), (herbalist, mayfly))), "may battle one attacker")
    for action in RULES.legal_actions(game.state, them):
        assert isinstance(action, Block)
        assert all((d == scout) == (a == duelist) for d, a in action.blocks)
    game.act(them, Block(((scout, duelist), (herbalist, mayfly))))
    assert game.state.battles == [Battle([duelist], [scout]), Battle([mayfly], [herbalist])]
    assert game.state.phase == Phase.RESPOND


def test_battles_form_around_blocked_attackers_then_around_defenders_attackers_were_sent_at() -> None:
    game, me, (sq1, sq2), (gnat1, gnat2) = at_conflict(
        ["mayfly-tidecaller", "bumblebee-herbalist"], ["gloomgnat-swarm", "dawnfly-oracle"])
    main, their_main = game.state.players[me].main, game.state.players[1 - me].main
    game.act(me, Attack((main, sq1, sq2)))
    game.act(1 - me, Block(((their_main, main), (gnat1, main))))
    assert game.state.phase == Phase.ASSIGN and RULES.to_act(game.state) == (me,)
    refused(game, me, Assign(((sq1, their_main),)), "not already in a battle")
    refused(game, me, Assign(((main, gnat2),)), "each unblocked attacker")
    refused(game, me, Assign(((sq1, gnat2), (sq1, gnat2))), "each unblocked attacker")
    assert Assign(()) in RULES.legal_actions(game.state, me)  # holding them back is allowed
    events = game.act(me, Assign(((sq1, gnat2), (sq2, gnat2))))
    assert game.state.battles == [Battle([main], [their_main, gnat1]), Battle([sq1, sq2], [gnat2])]
    assert [e.data for e in events if e.kind == "battles"] == [{"battles": [[[main], [their_main, gnat1]],
                                                                           [[sq1, sq2], [gnat2]]]}]
    assert phase_ends(events) == ["conflict"]
    assert game.state.phase == Phase.RESPOND and game.state.priority == me


def fight_battles(game: Game) -> list[str]:
    """Fight every battle with the first legal splits, every Damage Base check succeeding; the phases ended."""
    start = len(game.events)
    while game.state.phase in (Phase.RESPOND, Phase.DIVIDE, Phase.DAMAGE):
        state = game.state
        if state.phase == Phase.DIVIDE:
            seat = RULES.to_act(state)[0]
            game.act(seat, RULES.legal_actions(state, seat)[0])
        elif state.resolving and state.phase == Phase.DAMAGE:
            battle = current_battle(state)
            members = battle.attackers + battle.defenders
            mains = {player.main for player in state.players}
            steer_rolls(state, [(iid, SPECIAL_CHECK_BREAK_GLOBAL_CHECK if iid in mains else SPECIAL_CHECK_GLOBAL_CHECK,
                                 True) for iid in members], damage={iid: _dealt(game, iid) for iid in members})
            game.step()
        elif state.resolving:
            game.step()
        else:
            game.pass_()
    return phase_ends(game.events[start:])


def test_each_battle_gets_its_own_respond_and_damage_pillars_in_order() -> None:
    game, me, (mayfly, herbalist), (gnat, oracle) = at_conflict(
        ["mayfly-tidecaller", "bumblebee-herbalist"], ["gloomgnat-swarm", "dawnfly-oracle"])
    game.act(me, Attack((mayfly, herbalist)))
    game.act(1 - me, Block(((oracle, herbalist), (gnat, mayfly))))
    assert game.state.battles == [Battle([mayfly], [gnat]), Battle([herbalist], [oracle])]
    assert fight_battles(game) == ["respond", "damage", "respond", "damage", "battles"]
    for iid, dealt in ((gnat, 4), (mayfly, 4), (oracle, 2), (herbalist, 6)):
        assert game.permanent(iid).damage == dealt
    assert game.state.phase == Phase.ELEMENTS and game.state.play_round == 3


def test_attackers_held_back_fight_no_battle() -> None:
    game, me, (mayfly,), (herbalist,) = at_conflict(["mayfly-tidecaller"], ["bumblebee-herbalist"])
    game.act(me, Attack((mayfly,)))
    game.act(1 - me, Block(()))
    events = game.act(me, Assign(()))
    assert game.state.battles == [] and phase_ends(events) == ["conflict", "battles"]
    assert game.state.phase == Phase.ELEMENTS and game.state.play_round == 3


def test_only_conflict_speed_cards_may_be_played_in_a_battle() -> None:
    game, me, (mayfly,), (herbalist,) = at_conflict(["mayfly-tidecaller"], ["bumblebee-herbalist"])
    game.act(me, Attack((mayfly,)))
    game.act(1 - me, Block(((herbalist, mayfly),)))
    drift = game.give(me, "pollen-drift")
    refused(game, me, PlayCard(drift, None, (), Payment(deck=1)), r"can't be played in the Battle \(Respond\)")
    game.play(me, "kindled-resolve", targets=[mayfly])  # Conflict Speed: +2 Strength die levels
    game.pass_()
    game.pass_()
    game.step()
    # Strength d4 two die levels up is d6: all 6 go to the Herbalist, the only character to take them.
    assert game.state.phase == Phase.DAMAGE
    assert [u.payload["damage"] for u in game.pillar().units() if u.owner == me] == [[[herbalist, 6]]]


def test_battle_damage_raises_scn_and_characters_failing_the_damage_base_check_are_destroyed() -> None:
    game, me, (mayfly,), (herbalist, druid) = at_conflict(
        ["mayfly-tidecaller"], ["bumblebee-herbalist", "thistledown-druid"])  # S4 SCN4 | S2 SCN3, S6 SCN5
    them = 1 - me
    start = len(game.events)
    game.act(me, Attack((mayfly,)))
    game.act(them, Block(((herbalist, mayfly), (druid, mayfly))))
    game.pass_()
    game.pass_()  # an empty Respond pillar
    # The blockers have only the Mayfly to deal damage to: only the attacker is asked to divide.
    assert game.state.phase == Phase.DIVIDE and RULES.to_act(game.state) == (me,)
    assert RULES.view(game.state, me).divided == (them == 0, them == 1)  # that it divided, not how
    refused(game, me, Divide(((herbalist, 3),)), "divide exactly 4 points")
    refused(game, me, Divide(((herbalist, 4), (druid, 0))), "at least 1 point")
    refused(game, me, Divide(((mayfly, 4),)), "other side of this battle")
    game.act(me, Divide(((herbalist, 3), (druid, 1))))
    damage_units = [u for u in game.pillar().units() if u.kind.value == "damage"]
    assert [(u.owner, u.height) for u in damage_units] == [(me, 1), (them, 1)]
    game.pass_()
    game.pass_()
    steer_rolls(game.state, [(mayfly, SPECIAL_CHECK_GLOBAL_CHECK, False),
                             (herbalist, SPECIAL_CHECK_GLOBAL_CHECK, False),
                             (druid, SPECIAL_CHECK_GLOBAL_CHECK, True)],
                damage={mayfly: 8, herbalist: 3, druid: 1})
    events = game.step()
    assert {e.data["iid"]: e.data["scn"] for e in events if e.kind == "damage"} == {herbalist: 6, druid: 6, mayfly: 12}
    checks = [(e.data["iid"], e.data["number"], e.data["success"]) for e in events if e.kind == "check"]
    assert checks == [(mayfly, 12, False), (herbalist, 6, False), (druid, 6, True)]
    assert {e.data["iid"] for e in events if e.kind == "destroy"} == {mayfly, herbalist}
    assert mayfly in game.state.players[me].discard and herbalist in game.state.players[them].discard
    assert game.permanent(druid).damage == 1 and game.scn(druid) == 6
    assert phase_ends(game.events[start:]) == ["conflict", "respond", "damage", "battles"]
    assert game.state.phase == Phase.ELEMENTS and game.state.play_round == 3


def _main_battle(seed: int = 3) -> tuple[Game, int, int, int]:
    game, me, _, _ = at_conflict([], [], seed)
    main, their_main = game.state.players[me].main, game.state.players[1 - me].main
    game.act(me, Attack((main,)))
    game.act(1 - me, Block(()))
    game.act(me, Assign(((main, their_main),)))
    game.pass_()
    game.pass_()
    assert game.state.phase == Phase.DAMAGE  # one character on each side: all its damage goes there, unasked
    game.pass_()
    game.pass_()
    return game, me, main, their_main


def _dealt(game: Game, iid: int) -> int:
    return sum(points for split in game.state.pillar.units() for target, points in split.payload.get("damage", [])
               if target == iid) if game.state.pillar else 0


@pytest.mark.parametrize(("mine_ok", "theirs_ok", "winners"), [(True, False, "me"), (False, True, "them"),
                                                                (False, False, "nobody")])
def test_a_main_character_failing_its_check_after_a_battle_loses(mine_ok: bool, theirs_ok: bool,
                                                                  winners: str) -> None:
    game, me, main, their_main = _main_battle()
    assert game.state.phase == Phase.DAMAGE and game.state.resolving
    steer_rolls(game.state, [(main, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, mine_ok),
                             (their_main, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, theirs_ok)],
                damage={main: _dealt(game, main), their_main: _dealt(game, their_main)})
    game.step()
    result = RULES.result(game.state)
    assert result is not None
    assert result.winners == {"me": (me,), "them": (1 - me,), "nobody": ()}[winners]
    assert game.state.permanent(main) is not None and game.state.permanent(their_main) is not None


def _one_on_one(version: int | None = None) -> tuple[Game, int, int, int, list[Event]]:
    """The Mayfly attacks and the Herbalist blocks it; the Respond pillar passes. Returns the game, the
    attacking seat, both characters and the events since the attack."""
    game, me, (mayfly,), (herbalist,) = at_conflict(["mayfly-tidecaller"], ["bumblebee-herbalist"])
    if version is not None:
        game.state.rules_version = version
    start = len(game.events)
    game.act(me, Attack((mayfly,)))
    game.act(1 - me, Block(((herbalist, mayfly),)))
    game.pass_()
    game.pass_()
    return game, me, mayfly, herbalist, game.events[start:]


def test_a_side_with_one_character_to_hit_deals_it_all_there_without_being_asked() -> None:
    game, me, mayfly, herbalist, events = _one_on_one()
    assert game.state.phase == Phase.DAMAGE and RULES.to_act(game.state) == (game.state.priority,)
    names = [player.name for player in game.state.players]
    said = [event.text for event in events if event.kind == "divided"]
    assert said == [f"{names[me]} deals all their damage to Bumblebee Herbalist, the only character to take it.",
                    f"{names[1 - me]} deals all their damage to Mayfly Tidecaller, the only character to take it."]
    dealt = {u.owner: u.payload["damage"] for u in game.pillar().units()}
    assert dealt == {me: [[herbalist, 4]], 1 - me: [[mayfly, 2]]}


def test_a_session_begun_under_version_3_still_asks_for_a_division_with_one_character_to_hit() -> None:
    game, me, mayfly, herbalist, _ = _one_on_one(version=3)
    assert game.state.phase == Phase.DIVIDE and set(RULES.to_act(game.state)) == {0, 1}
    assert RULES.legal_actions(game.state, me) == [Divide(((herbalist, 4),))]
