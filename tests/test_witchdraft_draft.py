"""WitchDraft's draft: hands, passing, the phase-1 return, Faster Game, views and whole games."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import IllegalActionError, state_digest
from engine.witchdraft.actions import Pick
from engine.witchdraft.geometry import Placement
from engine.witchdraft.rules import WitchDraftRules, area_of
from engine.witchdraft.state import WitchDraftState

RULES = WitchDraftRules()


def new_game(seats: int, seed: int = 1, **options: object) -> WitchDraftState:
    return RULES.new_state(options, seed, seats, [f"P{i + 1}" for i in range(seats)])


def random_pick(state: WitchDraftState, seat: int, rng: random.Random) -> Pick:
    """A uniformly random card from the hand at a random legal spot for it."""
    player = state.players[seat]
    card = rng.choice(player.hand)
    return Pick(card, rng.choice(area_of(player).legal_placements(card)))


def play_round_of_picks(state: WitchDraftState, rng: random.Random) -> WitchDraftState:
    for seat in RULES.to_act(state):
        state, _ = RULES.apply(state, seat, RULES.action_to_json(random_pick(state, seat, rng)))
    return state


@pytest.mark.parametrize("seats,hand,final", [(2, 6, 11), (3, 5, 9), (4, 4, 7), (5, 4, 7)])
def test_hand_sizes_and_final_counts(seats: int, hand: int, final: int) -> None:
    state = new_game(seats)
    assert [len(p.hand) for p in state.players] == [hand] * seats
    assert len(state.draw_pile) == 35 - hand * seats
    rng = random.Random(seats)
    while RULES.result(state) is None:
        state = play_round_of_picks(state, rng)
    assert [len(p.area) for p in state.players] == [final + 1] * seats


@pytest.mark.parametrize("seats,hand", [(2, 4), (3, 4), (4, 4), (5, 4)])
def test_faster_game_uses_the_larger_tables_hand_size(seats: int, hand: int) -> None:
    assert [len(p.hand) for p in new_game(seats, faster=True).players] == [hand] * seats


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_phase_one_passes_clockwise_and_phase_two_counter_clockwise(seats: int) -> None:
    rng = random.Random(7)
    state = new_game(seats, seed=seats)
    for expected_phase, step in ((1, 1), (2, -1)):
        while state.phase == expected_phase and len(state.players[0].hand) > 1:
            before = [list(p.hand) for p in state.players]
            picks = {seat: random_pick(state, seat, rng) for seat in range(seats)}
            for seat, pick in picks.items():
                state, _ = RULES.apply(state, seat, RULES.action_to_json(pick))
            if state.phase != expected_phase or RULES.result(state) is not None:
                break
            for seat in range(seats):
                giver = (seat - step) % seats
                remaining = list(before[giver])
                remaining.remove(picks[giver].card)
                assert state.players[seat].hand == remaining
        if expected_phase == 1:
            assert state.phase == 2


def test_phase_one_last_cards_return_to_the_pile_which_is_shuffled() -> None:
    rng = random.Random(3)
    state = new_game(3, seed=21)
    while len(state.players[0].hand) > 2:
        state = play_round_of_picks(state, rng)
    assert state.phase == 1
    hands_before = [list(p.hand) for p in state.players]
    pile_before = list(state.draw_pile)
    state = play_round_of_picks(state, rng)
    placed = [p.area[-1][0] for p in state.players]
    returned = [next(c for c in hand if c != card) for hand, card in zip(hands_before, placed)]
    assert state.phase == 2 and state.pick == 1
    assert [len(p.hand) for p in state.players] == [5, 5, 5]
    dealt = [card for p in state.players for card in p.hand]
    assert sorted(dealt + state.draw_pile) == sorted(pile_before + returned)
    assert dealt + state.draw_pile != pile_before + returned  # shuffled, not appended in order


def test_shared_victory_when_totals_tie() -> None:
    state = new_game(2, seed=4)
    second = state.players[1]
    second.recipe, second.ingredients = state.players[0].recipe, state.players[0].ingredients
    state.players[0].hand, second.hand = [], []
    event = RULES._finish(state)
    result = RULES.result(state)
    assert result is not None and result.winners == (0, 1) and "share" in event.text


def test_recipes_and_hands_are_hidden_unless_face_up() -> None:
    state = new_game(3, seed=5)
    view = RULES.view(state, 0)
    assert view.players[0].recipe == state.players[0].recipe and view.players[0].hand == tuple(state.players[0].hand)
    for other in view.players[1:]:
        assert (other.recipe, other.ingredients, other.hand, other.pending) == (None, None, None, None)
    swapped = dataclasses.replace(state, players=[
        state.players[0], dataclasses.replace(state.players[1], recipe=state.players[2].recipe,
                                              hand=list(reversed(state.players[1].hand))), state.players[2]])
    assert RULES.view(swapped, 0) == view
    face_up = new_game(3, seed=5, face_up=True)
    assert RULES.view(face_up, 0).players[1].recipe == face_up.players[1].recipe
    assert RULES.view(face_up, 0).players[1].hand is None


def test_illegal_picks_are_rejected_with_reasons() -> None:
    state = new_game(2, seed=6)
    not_in_hand = next(card for card in state.draw_pile)
    with pytest.raises(IllegalActionError, match="not in your hand"):
        RULES.apply(state, 0, {"type": "pick", "card": not_in_hand, "x": 0, "y": 1, "rotation": 0})
    card = state.players[0].hand[0]
    with pytest.raises(IllegalActionError, match="overlaps a card"):
        RULES.apply(state, 0, {"type": "pick", "card": card, "x": 0, "y": 0, "rotation": 90})
    with pytest.raises(IllegalActionError, match="touches no card"):
        RULES.apply(state, 0, {"type": "pick", "card": card, "x": 9, "y": 9, "rotation": 0})
    with pytest.raises(IllegalActionError, match="perpendicular"):
        RULES.apply(state, 0, {"type": "pick", "card": card, "x": 0, "y": 1, "rotation": 0})


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_300_random_games_with_a_json_round_trip_at_every_step(seats: int) -> None:
    rng = random.Random(seats * 1000)
    for seed in range(300):
        state = new_game(seats, seed=seed, apprentices=rng.choice(["A", "B"]))
        while RULES.result(state) is None:
            seat = rng.choice(RULES.to_act(state))
            data = json.loads(json.dumps(RULES.action_to_json(random_pick(state, seat, rng))))
            state, _ = RULES.apply(state, seat, data)
            restored = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
            assert state_digest(RULES, restored) == state_digest(RULES, state)
        result = RULES.result(state)
        assert result is not None and result.winners
