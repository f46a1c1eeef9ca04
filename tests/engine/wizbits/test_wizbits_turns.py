"""Wizbits turns through the rules: phase order, the Play Phase ending rule, Priority and resolution steps."""

from __future__ import annotations

import pytest

from engine import state_digest
from engine.core.errors import IllegalActionError
from engine.wizbits.actions import Activate, DiscardCards, Pass, Payment, Step
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.state import Phase
from tests.helpers.wizbits_game import RULES, Game, phase_ends

ELEMENT = "pollen-drift"  # cost 1, no targets: gain 3 Secession points
NON_ELEMENT = "empty-thimble"  # cost 0, no abilities


def test_a_whole_turn_records_the_end_of_every_phase_in_order() -> None:
    game = Game(3)
    first = game.state.active
    events = game.advance(lambda s: s.turn == 2)
    turn_one = phase_ends(events)[:phase_ends(events).index("turn_end") + 1]
    assert turn_one == [
        "reconcile_up", "test",
        "elements1", "non_elements1", "play1",
        "characters",
        "elements2", "non_elements2", "play2",
        "conflict", "battles",
        "elements3", "non_elements3", "play3",
        "second_test", "reconcile_down", "turn_end",
    ]
    assert game.state.turn == 2 and game.state.active == 1 - first


# Which seat (relative to the active one: 0 active, 1 the opponent) adds a unit to each pillar of Play Phase 1,
# None for a pillar nobody adds to; and the pillars the phase runs before it ends.
PLAY_PHASES = [
    ([None, None], ["elements1", "non_elements1", "play1"]),
    ([0, None, None, None], ["elements1", "non_elements1"] * 2 + ["play1"]),
    ([None, 1, None, None], ["elements1", "non_elements1"] * 2 + ["play1"]),
    ([1, None, None, 0, None, None], ["elements1", "non_elements1"] * 3 + ["play1"]),
]


@pytest.mark.parametrize(("adders", "expected"), PLAY_PHASES)
def test_play_phase_ends_after_a_quiet_elements_pillar_and_the_quiet_non_elements_pillar_after_it(
        adders: list[int | None], expected: list[str]) -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    active = game.state.active
    start = len(game.events)
    for adder in adders:
        assert game.state.phase in (Phase.ELEMENTS, Phase.NON_ELEMENTS) and game.state.play_round == 1
        if adder is not None:
            seat = (active + adder) % 2
            if seat != active:
                game.pass_()
            game.play(seat, ELEMENT if game.state.phase == Phase.ELEMENTS else NON_ELEMENT)
        ended = len(phase_ends(game.events[start:]))
        while len(phase_ends(game.events[start:])) == ended:
            if game.state.resolving:
                game.step()
            else:
                game.pass_()
    assert phase_ends(game.events[start:]) == expected
    assert game.state.phase == Phase.CHARACTERS


def test_the_active_player_has_priority_first_and_the_other_seat_is_refused() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    active = game.state.active
    assert RULES.to_act(game.state) == (active,) and game.state.priority == active
    digest = state_digest(RULES, game.state)
    with pytest.raises(IllegalActionError, match=f"seat {2 - active} is not to act now"):
        RULES.apply(game.state, 1 - active, RULES.action_to_json(Pass()))
    assert RULES.legal_actions(game.state, 1 - active) == []
    assert state_digest(RULES, game.state) == digest


def test_a_seat_adds_units_until_it_passes_and_two_passes_in_a_row_resolve() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    active = game.state.active
    game.play(active, ELEMENT)
    game.play(active, ELEMENT)
    assert game.state.priority == active  # adding a unit keeps Priority
    game.pass_()
    assert game.state.priority == 1 - active and not game.state.resolving
    game.pass_()
    assert game.state.resolving and game.state.priority is None
    assert RULES.to_act(game.state) == () and RULES.table_action(game.state) == Step("resolve")


def test_a_unit_added_after_a_pass_starts_the_run_of_passes_again() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    active = game.state.active
    game.pass_()
    game.play(1 - active, ELEMENT)
    game.pass_()
    assert game.state.priority == active and not game.state.resolving
    game.pass_()
    assert game.state.resolving


def test_an_empty_pillar_just_ends_without_a_resolution_step() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    start = len(game.events)
    game.pass_()
    events = game.pass_()
    assert [e.kind for e in events] == ["pass", "phase_end"]
    assert not [e for e in game.events[start:] if e.kind == "resolve_step"]
    assert game.state.phase == Phase.NON_ELEMENTS and game.state.priority == game.state.active


def test_the_worked_example_through_the_rules_resolves_c_then_x_and_b_then_a() -> None:
    game = Game(3, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.to_phase(Phase.ELEMENTS, 1)
    p1 = game.state.active
    p2 = 1 - p1
    orb = game.give(p1, "dewdrop-orb", "play")  # Trigger: Pay 2: draw 1
    pillar = game.pillar  # the state is replaced by every action: always ask the game
    # 1. P1 plays card A on the base.
    game.play(p1, "pollen-drift")
    a = game.newest_unit()
    assert (a.height, a.iph, a.kind) == (1, 1, UnitKind.CARD) and pillar().main_tip_uid() == a.uid
    # 2. P1 activates X on A: a new subpillar; the main tip stays A.
    game.act(p1, Activate(orb, 0, None, (), Payment(deck=2)))
    x = game.newest_unit()
    assert (x.height, x.iph, x.foundation, x.kind) == (2, 1, a.uid, UnitKind.ABILITY)
    assert pillar().main_tip_uid() == a.uid and pillar().foundations() == [a.uid, x.uid]
    # 3. P1 passes.
    game.pass_()
    # 4. P2 plays B on the main tip.
    game.play(p2, "quiet-between-wings")
    b = game.newest_unit()
    assert (b.height, b.iph, b.foundation) == (2, 2, a.uid) and pillar().main_tip_uid() == b.uid
    # 5. P2 plays C on S1's tip.
    game.play(p2, "quiet-between-wings", on=x.uid)
    c = game.newest_unit()
    assert (c.height, c.iph, c.foundation, c.branch) == (3, 2, x.uid, x.branch)
    assert pillar().foundations() == [b.uid, c.uid]
    # 6. P2 passes, then P1 passes.
    game.pass_()
    game.pass_()
    groups = []
    while game.state.phase == Phase.ELEMENTS and game.state.resolving:
        assert RULES.to_act(game.state) == ()
        steps = [e for e in game.step() if e.kind == "resolve_step"]
        assert len(steps) == 1  # each resolution step is its own table action
        groups.append(steps[0].data["units"])
    # Within a step the units come in increasing precedence: B (IPH 2) after X (IPH 1), so B's result stands.
    assert groups == [[c.uid], [x.uid, b.uid], [a.uid]]
    assert game.state.phase == Phase.NON_ELEMENTS


def test_a_trigger_set_off_while_resolving_goes_on_the_main_tip_and_priority_opens_again() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 1)
    active = game.state.active
    stag = game.give(1 - active, "mossback-stagbeetle", "play")  # Tough; when dealt damage: heal 1 from it
    game.play(active, ELEMENT)
    drift = game.newest_unit()
    game.play(active, "sparkswarm-volley", targets=[stag])  # 3 damage
    game.pass_()
    game.pass_()
    game.step()
    assert game.permanent(stag).damage == 2  # Tough ignored one point
    trigger = game.newest_unit()
    assert trigger.kind is UnitKind.TRIGGER and trigger.foundation == drift.uid and trigger.height == 2
    assert not game.state.resolving and RULES.to_act(game.state) == (active,)
    assert RULES.table_action(game.state) is None
    game.pass_()
    game.pass_()
    game.step()
    assert game.permanent(stag).damage == 1
    game.step()
    assert game.state.phase == Phase.NON_ELEMENTS


def test_reconcile_up_asks_for_discards_from_a_hand_over_seven_then_draws_nothing() -> None:
    game = Game(3)
    active = game.state.active
    extra = [game.give(active, ELEMENT) for _ in range(9)]
    assert RULES.to_act(game.state) == (active,) and RULES.table_action(game.state) is None
    legal = RULES.legal_actions(game.state, active)
    assert legal and all(isinstance(a, DiscardCards) and len(a.cards) == 2 for a in legal)
    with pytest.raises(IllegalActionError, match="discard exactly 2 different cards"):
        RULES.apply(game.state, active, RULES.action_to_json(DiscardCards((extra[0],))))
    deck = len(game.state.players[active].deck)
    game.act(active, DiscardCards((extra[0], extra[1])))
    game.step()
    player = game.state.players[active]
    assert len(player.hand) == 7 and player.discard[-2:] == extra[:2] and len(player.deck) == deck
    assert game.state.phase == Phase.TEST


def test_reconcile_down_discards_to_seven() -> None:
    game = Game(3)
    game.to_phase(Phase.ELEMENTS, 3)
    active = game.state.active
    extra = [game.give(active, NON_ELEMENT) for _ in range(3)]
    game.advance(lambda s: s.phase == Phase.RECONCILE_DOWN)
    assert RULES.to_act(game.state) == (active,)
    game.act(active, DiscardCards(tuple(extra[:len(game.state.players[active].hand) - 7])))
    assert len(game.state.players[active].hand) == 7
    game.step()
    assert game.state.turn == 2 and game.state.active == 1 - active
