"""Wizbits rules through WizbitsRules: Secession, flip abilities, winning, and illegal actions with their reasons."""

from __future__ import annotations

import pytest

from engine import state_digest
from engine.core.contract import TABLE
from engine.core.errors import IllegalActionError
from engine.wizbits.actions import Action, Activate, Attack, ChooseTargets, Pass, Payment, PlayCard, Step
from engine.wizbits.continuous import cost_of, points_of
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK
from engine.wizbits.state import Phase
from tests.helpers.wizbits_game import RULES, Game, steer_rolls


def at(phase: str, seed: int = 3) -> tuple[Game, int]:
    """A game at its first moment in ``phase`` of Play Phase 1 (or the Characters pillar), and the active seat."""
    game = Game(seed, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(phase)
    return game, game.state.active


def refused(game: Game, seat: int | None, action: Action, reason: str) -> None:
    """The action is refused with ``reason`` (a regex) and the state is left as it was."""
    digest = state_digest(RULES, game.state)
    with pytest.raises(IllegalActionError, match=reason):
        RULES.apply(game.state, seat, RULES.action_to_json(action))
    assert state_digest(RULES, game.state) == digest


# -- paying and seceding ------------------------------------------------------------


def test_each_deck_point_discards_the_top_card_of_the_deck() -> None:
    game, me = at(Phase.ELEMENTS)
    volley = game.give(me, "sparkswarm-volley")
    deck = list(game.state.players[me].deck)
    game.act(me, PlayCard(volley, None, (game.state.players[1 - me].main,), Payment(deck=2)))
    player = game.state.players[me]
    assert player.deck == deck[:-2] and player.discard[-2:] == [deck[-1], deck[-2]]


def test_seceding_gives_two_points_and_offering_three() -> None:
    game, me = at(Phase.NON_ELEMENTS)
    wand = game.give(me, "flickerwand", "play")
    thimble = game.give(me, "empty-thimble", "play")  # Offering
    lantern = game.give(me, "halo-lantern")  # cost 3
    refused(game, me, PlayCard(lantern, pay=Payment(secede=(wand,))), "gathers 2 Secession points; 1 more needed")
    refused(game, me, PlayCard(lantern, pay=Payment(deck=1, secede=(thimble,))), "more than the 3 needed")
    refused(game, me, PlayCard(lantern, pay=Payment(deck=2, secede=(wand,))), "more than the 3 needed")
    deck = len(game.state.players[me].deck)
    game.act(me, PlayCard(lantern, pay=Payment(secede=(thimble,))))
    assert game.permanent(thimble).seceded and len(game.state.players[me].deck) == deck
    lantern_2 = game.give(me, "halo-lantern")
    game.act(me, PlayCard(lantern_2, pay=Payment(deck=1, secede=(wand,))))
    assert game.permanent(wand).seceded and len(game.state.players[me].deck) == deck - 1


def test_points_a_seceded_card_grants_as_it_flips_count_toward_that_payment() -> None:
    game, me = at(Phase.NON_ELEMENTS)
    drum = game.give(me, "acorn-drum", "play")  # Offering (3) and a flip Income that grants 1 point
    lantern = game.give(me, "halo-lantern")  # cost 3
    refused(game, me, PlayCard(lantern, pay=Payment(deck=1, secede=(drum,))), "gathers 5 .*more than the 3 needed")
    deck = len(game.state.players[me].deck)
    game.act(me, PlayCard(lantern, pay=Payment(secede=(drum,))))
    assert game.permanent(drum).seceded and len(game.state.players[me].deck) == deck
    assert game.state.players[me].points == 0  # the extra point vanished with the payment


def test_the_main_current_foundation_may_be_named_by_its_uid() -> None:
    game, me = at(Phase.ELEMENTS)
    game.play(me, "sparkswarm-volley", targets=(game.state.players[1 - me].main,))
    tip = game.pillar().main_tip_uid()
    second = game.give(me, "sparkswarm-volley")
    game.act(me, PlayCard(second, tip, (game.state.players[1 - me].main,), Payment(deck=2)))
    assert game.newest_unit().foundation == tip


def test_granted_points_are_spent_first_and_the_rest_vanish() -> None:
    game, me = at(Phase.ELEMENTS)
    game.state.players[me].points = 3
    volley = game.give(me, "sparkswarm-volley")  # cost 2
    target = (game.state.players[1 - me].main,)
    refused(game, me, PlayCard(volley, None, target, Payment(deck=1)), "more than the 0 needed")
    game.act(me, PlayCard(volley, None, target, Payment()))
    assert game.state.players[me].points == 0


def test_an_empty_deck_gives_no_points() -> None:
    game, me = at(Phase.ELEMENTS)
    game.empty_deck(me)
    drift = game.give(me, "pollen-drift")  # cost 1
    refused(game, me, PlayCard(drift, pay=Payment(deck=1)), "your deck has only 0 cards")
    assert not [a for a in RULES.legal_actions(game.state, me) if isinstance(a, PlayCard) and a.card == drift]
    thimble = game.give(me, "empty-thimble", "play")
    assert PlayCard(drift, None, (), Payment(secede=(thimble,))) in RULES.legal_actions(game.state, me)


def test_the_main_character_cannot_be_seceded_to_pay() -> None:
    game, me = at(Phase.ELEMENTS)
    drift = game.give(me, "pollen-drift")
    main = game.state.players[me].main
    refused(game, me, PlayCard(drift, pay=Payment(secede=(main,))), "never your Main Character")
    assert all(main not in a.pay.secede for a in RULES.legal_actions(game.state, me) if isinstance(a, PlayCard))


def test_a_card_already_seceded_cannot_be_seceded_again() -> None:
    game, me = at(Phase.ELEMENTS)
    thimble = game.give(me, "empty-thimble", "play", seceded=True)
    drift = game.give(me, "pollen-drift")
    refused(game, me, PlayCard(drift, pay=Payment(secede=(thimble,))), "not seceded")


def test_seceded_cards_of_both_players_are_discarded_at_the_end_of_the_turn() -> None:
    game, me = at(Phase.ELEMENTS)
    mine = game.give(me, "empty-thimble", "play")
    theirs = game.give(1 - me, "empty-thimble", "play", seceded=True)
    game.play(me, "pollen-drift", pay=Payment(secede=(mine,)))
    assert game.permanent(mine).seceded
    events = game.advance(lambda s: s.turn == 2)
    for seat, iid in ((me, mine), (1 - me, theirs)):
        assert game.state.permanent(iid) is None and iid in game.state.players[seat].discard
    assert len([e for e in events if e.kind == "seceded_discarded"]) == 2


def test_flip_abilities_replace_the_abilities_of_a_seceded_card() -> None:
    game, me = at(Phase.NON_ELEMENTS)
    bellows = game.give(me, "bellows-of-the-hive", "play")  # others +1 Strength; flip: Fire Elements cost 1 less
    squire = game.give(me, "emberbeetle-squire", "play")  # Strength d4
    orb = game.give(me, "dewdrop-orb", "play")  # Trigger: Pay 2: draw 1; flip: Income gain 2 points
    volley = game.give(me, "sparkswarm-volley")  # Fire Element, cost 2
    assert points_of(game.state, game.permanent(squire)).strength == 5  # d4 one die level up
    assert any(isinstance(a, Activate) and a.card == orb for a in RULES.legal_actions(game.state, me))
    game.play(me, "flickerwand", pay=Payment(secede=(bellows,)))
    assert points_of(game.state, game.permanent(squire)).strength == 4
    assert cost_of(game.state, me, game.state.card(volley)) == 1
    game.play(me, "flickerwand", pay=Payment(secede=(orb,)))
    assert not any(isinstance(a, Activate) and a.card == orb for a in RULES.legal_actions(game.state, me))
    refused(game, me, Activate(orb, 0, None, (), Payment()), "only Trigger abilities")


def test_a_flip_income_happens_in_the_action_that_secedes() -> None:
    game, me = at(Phase.ELEMENTS)
    kite = game.give(me, "prism-kite", "play")  # Offering; flip Income: draw 1
    hand = len(game.state.players[me].hand)
    game.play(me, "pollen-drift", pay=Payment(secede=(kite,)))
    assert len(game.state.players[me].hand) == hand + 1  # the drift left, one card came


def test_a_flip_income_with_a_target_waits_for_its_owner_to_choose_first() -> None:
    game, me = at(Phase.ELEMENTS)
    squire = game.give(me, "emberbeetle-squire", "play")  # flip Income: 1 damage to a chosen opposing character
    theirs = game.give(1 - me, "pondskater-scout", "play")
    their_main = game.state.players[1 - me].main
    game.play(me, "pollen-drift", pay=Payment(secede=(squire,)))
    assert game.state.pending and RULES.to_act(game.state) == (me,)
    assert set(RULES.legal_actions(game.state, me)) == {ChooseTargets((their_main,)), ChooseTargets((theirs,))}
    refused(game, me, Pass(), "choose targets for the flip ability first")
    refused(game, me, ChooseTargets((squire,)), "not legal targets")
    game.act(me, ChooseTargets((their_main,)))
    assert game.permanent(their_main).damage == 1 and not game.state.pending
    assert RULES.to_act(game.state) == (me,) and game.state.priority == me


def test_a_flip_income_owed_during_resolution_is_chosen_by_its_owner_before_the_table_goes_on() -> None:
    game, me = at(Phase.ELEMENTS)
    hexer = game.give(me, "duskmoth-hexer", "play")  # Pay 2: a chosen opposing character makes a Will Check 5 ...
    squire = game.give(1 - me, "emberbeetle-squire", "play")  # Will d2: the check can't succeed; flip: 1 damage
    main = game.state.players[me].main
    game.act(me, Activate(hexer, 1, None, (squire,), Payment(deck=2)))
    game.pass_()
    game.pass_()
    game.step()
    assert game.permanent(squire).seceded
    assert RULES.to_act(game.state) == (1 - me,) and RULES.table_action(game.state) is None
    assert set(RULES.legal_actions(game.state, 1 - me)) == {ChooseTargets((main,)), ChooseTargets((hexer,))}
    refused(game, me, Pass(), "not to act now")
    game.act(1 - me, ChooseTargets((hexer,)))
    assert game.permanent(hexer).damage == 1 and not game.state.pending
    assert RULES.to_act(game.state) == (me,)


# -- winning -----------------------------------------------------------------------


@pytest.mark.parametrize("phase", [Phase.TEST, Phase.SECOND_TEST])
def test_failing_a_test_phase_check_loses_the_game(phase: str) -> None:
    game = Game(5)
    if phase == Phase.SECOND_TEST:
        game.to_phase(Phase.ELEMENTS, 3)
        while game.state.phase != Phase.SECOND_TEST:
            game.pass_()
    else:
        game.step()  # Reconcile (Up)
    assert game.state.phase == phase
    me = game.state.active
    steer_rolls(game.state, [(game.state.players[me].main, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, False)])
    events = game.step()
    result = RULES.result(game.state)
    assert result is not None and result.winners == (1 - me,) and "Special Check Break Global Check" in result.reason
    assert [e for e in events if e.kind == "check"][0].data["success"] is False
    refused(game, TABLE, Step("reconcile"), "already over")


def test_having_to_draw_from_an_empty_deck_loses_the_game() -> None:
    game = Game(5)
    me = game.state.active
    game.empty_deck(me, keep=3)
    game.step()  # Reconcile (Up) needs 7
    result = RULES.result(game.state)
    assert result is not None and result.winners == (1 - me,) and "empty deck" in result.reason
    assert len(game.state.players[me].hand) == 3


def test_a_draw_effect_from_an_empty_deck_loses_the_game_mid_pillar() -> None:
    game, me = at(Phase.ELEMENTS)
    orb = game.give(me, "dewdrop-orb", "play")
    game.empty_deck(me, keep=2)
    game.act(me, Activate(orb, 0, None, (), Payment(deck=2)))  # the last two cards pay for it
    game.pass_()
    game.pass_()
    game.step()
    result = RULES.result(game.state)
    assert result is not None and result.winners == (1 - me,)


def test_a_card_in_the_step_where_the_game_ends_still_ends_up_in_a_zone() -> None:
    game, me = at(Phase.ELEMENTS)
    orb = game.give(me, "dewdrop-orb", "play")
    game.empty_deck(me, keep=2)
    game.act(me, Activate(orb, 0, None, (), Payment(deck=2)))  # height 1, IPH 1
    quiet = game.play(me, "quiet-between-wings")  # cost 0; also height 1, IPH 1, played later
    game.pass_()
    game.pass_()
    events = game.step()  # the draw from the empty deck comes first and ends the game
    assert [e.data["units"] for e in events if e.kind == "resolve_step"] == [[1, 2]]
    assert RULES.result(game.state) is not None
    assert quiet in game.state.players[me].discard


# -- illegal actions ------------------------------------------------------------------


def _bad_actions(game: Game, me: int) -> list[tuple[int | None, Action, str]]:
    state = game.state
    volley = game.give(me, "sparkswarm-volley")  # cost 2, one chosen opposing character
    beetle = game.give(me, "emberbeetle-squire")
    mine, theirs = state.players[me].main, state.players[1 - me].main
    pay = Payment(deck=2)
    return [
        (me, PlayCard(beetle, None, (), Payment(deck=1)),
         r"Emberbeetle Squire \(Character\) can't be played in the Elements pillar"),
        (1 - me, Pass(), f"seat {2 - me} is not to act now"),
        (me, PlayCard(volley, 42, (theirs,), pay), "build on the main Current Foundation"),
        (me, PlayCard(volley, None, (mine,), pay), "not a legal choice"),
        (me, PlayCard(volley, None, (), pay), "needs 1 chosen target"),
        (me, PlayCard(volley, None, (theirs,), Payment(deck=1)), "gathers 1 Secession point; 1 more needed"),
        (me, PlayCard(volley, None, (theirs,), Payment(deck=3)), "more than the 2 needed"),
        (me, PlayCard(theirs, None, (), pay), "not in your hand"),
        (me, Attack(()), "play a card, use an ability or pass"),
        (TABLE, Step("resolve"), "no automatic step is waiting"),
    ]


def test_illegal_actions_give_their_reason_and_leave_the_state_unchanged() -> None:
    game, me = at(Phase.ELEMENTS)
    for seat, action, reason in _bad_actions(game, me):
        refused(game, seat, action, reason)
        if seat is not None and seat in RULES.to_act(game.state):
            assert action not in RULES.legal_actions(game.state, seat)


def test_a_unit_that_is_no_longer_a_tip_is_not_a_foundation() -> None:
    game, me = at(Phase.ELEMENTS)
    game.play(me, "pollen-drift")
    first = game.newest_unit()
    game.play(me, "pollen-drift")
    drift = game.give(me, "pollen-drift")
    refused(game, me, PlayCard(drift, first.uid, (), Payment(deck=1)), "build on the main Current Foundation")


def test_units_of_one_step_read_the_state_as_the_step_began() -> None:
    # Sparkswarm Volley (3 damage) and Radiant Verdict (a Special Will Check) hit the same character at height 3.
    game = Game(1)
    game.to_phase(Phase.ELEMENTS, 1)
    me = game.state.active
    scout = game.give(1 - me, "pondskater-scout", "play")
    orb = game.give(me, "dewdrop-orb", "play")
    game.play(me, "pollen-drift")
    game.act(me, Activate(orb, 0, None, (), Payment(deck=2)))
    ability = game.newest_unit()
    game.play(me, "quiet-between-wings")
    game.play(me, "sparkswarm-volley", on=ability.uid, targets=[scout])
    volley = game.newest_unit()
    game.play(me, "radiant-verdict", targets=[scout])
    verdict = game.newest_unit()
    assert volley.height == verdict.height == 3 and verdict.precedence > volley.precedence
    scn_before = game.scn(scout)
    game.pass_()
    game.pass_()
    events = game.step()
    checks = [event for event in events if event.kind == "check"]
    assert len(checks) == 1
    # The Volley resolved first, yet the Verdict's check still rolls against the SCN the step began with.
    assert checks[0].data["number"] == scn_before
    if game.state.permanent(scout) is not None:
        assert game.scn(scout) == scn_before + 3
