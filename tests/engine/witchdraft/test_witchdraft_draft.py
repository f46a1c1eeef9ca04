"""WitchDraft's draft: hands, passing, the phase-1 return, Faster Game, views and whole games."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import IllegalActionError, MalformedActionError, state_digest
from engine.witchdraft.actions import Pick, Place, WitchDraftAction
from engine.witchdraft.cards import CARDS
from engine.witchdraft.rules import WitchDraftRules, area_of
from engine.witchdraft.state import WitchDraftState

RULES = WitchDraftRules()


def new_game(seats: int, seed: int = 1, **options: object) -> WitchDraftState:
    return RULES.new_state(options, seed, seats, [f"P{i + 1}" for i in range(seats)])


def random_action(state: WitchDraftState, seat: int, rng: random.Random) -> WitchDraftAction:
    """Picking: a uniformly random card from the hand. Placing: a random legal spot for the pick."""
    player = state.players[seat]
    if state.stage == "pick":
        return Pick(rng.choice(player.hand))
    assert player.picked is not None
    return Place(rng.choice(area_of(player).legal_placements(player.picked)))


def play_stage(state: WitchDraftState, rng: random.Random) -> WitchDraftState:
    """Every seat to act takes a random action: all pick, or all place."""
    for seat in RULES.to_act(state):
        state, _ = RULES.apply(state, seat, RULES.action_to_json(random_action(state, seat, rng)))
    return state


def play_round_of_picks(state: WitchDraftState, rng: random.Random) -> WitchDraftState:
    """Everyone picks, then everyone places."""
    return play_stage(play_stage(state, rng), rng)


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


@pytest.mark.parametrize("seats", [2, 3])
def test_faster_game_ends_with_seven_companions_and_the_apprentice(seats: int) -> None:
    state = new_game(seats, seed=seats, faster=True)
    rng = random.Random(seats)
    while RULES.result(state) is None:
        state = play_round_of_picks(state, rng)
    assert [len(p.area) for p in state.players] == [7 + 1] * seats


def test_everyone_picks_in_secret_then_the_picks_are_revealed_then_placed() -> None:
    state = new_game(3, seed=2)
    hand = list(state.players[0].hand)
    assert RULES.to_act(state) == (0, 1, 2) and RULES.progress(state) == "Phase 1, pick 1"
    assert all(isinstance(action, Pick) for action in RULES.legal_actions(state, 0))
    state, events = RULES.apply(state, 0, {"type": "pick", "card": hand[1]})
    assert [event.kind for event in events] == ["picked"] and hand[1] not in events[0].text
    assert RULES.to_act(state) == (1, 2)
    assert RULES.view(state, 0).players[0].pending == hand[1]
    assert RULES.view(state, 1).players[0].pending is None and RULES.view(state, 1).players[0].ready
    with pytest.raises(IllegalActionError, match="pick a card first"):
        RULES.apply(state, 1, {"type": "place", "x": 0, "y": 1, "rotation": 90})
    state, _ = RULES.apply(state, 1, {"type": "pick", "card": state.players[1].hand[0]})
    assert RULES.seat_has_secrets(state, 2)
    state, events = RULES.apply(state, 2, {"type": "pick", "card": state.players[2].hand[0]})
    reveal = events[-1]
    assert reveal.kind == "revealed" and reveal.data["picks"]["0"] == hand[1]
    for player in state.players:
        assert player.name in reveal.text and CARDS[str(player.picked)].name in reveal.text
    # Revealed: everyone sees every pick, and now everyone places their own.
    assert state.stage == "place" and RULES.to_act(state) == (0, 1, 2)
    assert RULES.progress(state) == "Phase 1, place 1"
    assert [p.picked for p in RULES.view(state, None).players] == [p.picked for p in state.players]
    assert state.players[0].hand == [card for card in hand if card != hand[1]]
    legal = RULES.legal_actions(state, 0)
    assert legal and all(isinstance(action, Place) for action in legal)
    with pytest.raises(IllegalActionError, match="place your card before picking again"):
        RULES.apply(state, 0, {"type": "pick", "card": state.players[0].hand[0]})
    state, events = RULES.apply(state, 0, RULES.action_to_json(legal[0]))
    assert [event.kind for event in events] == ["placed"] and state.players[0].area[-1][0] == hand[1]
    assert RULES.to_act(state) == (1, 2) and RULES.view(state, None).players[0].ready
    hands_before = [list(p.hand) for p in state.players]
    state = play_stage(state, random.Random(1))
    assert state.stage == "pick" and state.pick == 2
    assert [p.hand for p in state.players] == [hands_before[2], hands_before[0], hands_before[1]]


def test_placing_needs_a_curtain_only_for_secret_recipes() -> None:
    for face_up in (False, True):
        state = new_game(2, seed=3, face_up=face_up)
        for seat in (0, 1):
            state, _ = RULES.apply(state, seat, {"type": "pick", "card": state.players[seat].hand[0]})
        assert state.stage == "place"
        assert RULES.seat_has_secrets(state, 0) is not face_up


def test_an_old_pick_and_place_log_is_refused_with_a_reason() -> None:
    from saves import LiveSession, SeatInfo, SessionLoadError, SessionStore

    with pytest.raises(MalformedActionError, match="older Coven"):
        RULES.parse_action({"type": "pick", "card": "c01", "x": 0, "y": 1, "rotation": 90})
    with SessionStore() as store:
        live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
        card = live.state.players[0].hand[0]
        store.append_action(live.session_id, 1, 0, {"type": "pick", "card": card, "x": 0, "y": 1, "rotation": 90})
        with pytest.raises(SessionLoadError, match="cannot be resumed: action 1 is illegal: .*older Coven"):
            LiveSession.load(store, live.session_id)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_phase_one_passes_clockwise_and_phase_two_counter_clockwise(seats: int) -> None:
    rng = random.Random(7)
    state = new_game(seats, seed=seats)
    for expected_phase, step in ((1, 1), (2, -1)):
        while state.phase == expected_phase and len(state.players[0].hand) > 1:
            before = [list(p.hand) for p in state.players]
            picks = {seat: random_action(state, seat, rng) for seat in range(seats)}
            for seat, pick in picks.items():
                state, _ = RULES.apply(state, seat, RULES.action_to_json(pick))
            state = play_stage(state, rng)
            if state.phase != expected_phase or RULES.result(state) is not None:
                break
            for seat in range(seats):
                giver = (seat - step) % seats
                remaining = list(before[giver])
                pick = picks[giver]
                assert isinstance(pick, Pick)
                remaining.remove(pick.card)
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
    returned = [next(c for c in hand if c != card) for hand, card in zip(hands_before, placed, strict=False)]
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
        RULES.apply(state, 0, {"type": "pick", "card": not_in_hand})
    for seat in (0, 1):
        state, _ = RULES.apply(state, seat, {"type": "pick", "card": state.players[seat].hand[0]})
    with pytest.raises(IllegalActionError, match="overlaps a card"):
        RULES.apply(state, 0, {"type": "place", "x": 0, "y": 0, "rotation": 90})
    with pytest.raises(IllegalActionError, match="touches no card"):
        RULES.apply(state, 0, {"type": "place", "x": 9, "y": 9, "rotation": 0})
    with pytest.raises(IllegalActionError, match="perpendicular"):
        RULES.apply(state, 0, {"type": "place", "x": 0, "y": 1, "rotation": 0})


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_150_random_games_with_a_json_round_trip_at_every_step(seats: int) -> None:
    rng = random.Random(seats * 1000)
    for seed in range(150):
        state = new_game(seats, seed=seed, apprentices=rng.choice(["A", "B"]))
        while RULES.result(state) is None:
            seat = rng.choice(RULES.to_act(state))
            data = json.loads(json.dumps(RULES.action_to_json(random_action(state, seat, rng))))
            state, _ = RULES.apply(state, seat, data)
            restored = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
            assert state_digest(RULES, restored) == state_digest(RULES, state)
        result = RULES.result(state)
        assert result is not None and result.winners


def test_a_three_way_tie_names_the_winners_as_the_score_screen_does() -> None:
    state = new_game(3, seed=4)
    for player in state.players:
        player.recipe, player.ingredients, player.hand = state.players[0].recipe, state.players[0].ingredients, []
    event = RULES._finish(state)
    assert event.text.startswith("P1, P2 and P3 share the victory with ")
