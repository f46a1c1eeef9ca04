"""WitchDraft Hard: legal and view-only choices, deferring a card that comes back, and denial.

Its strength against Normal is measured by `coven bench witchdraft-bots`, a benchmark, not here.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine import get_game
from engine.core.rng import seeded_rng
from engine.witchdraft.actions import Pick, Place, WitchDraftAction
from engine.witchdraft.bots import BOTS, normal_bot
from engine.witchdraft.cards import APPRENTICE_A, COMPANIONS
from engine.witchdraft.geometry import PlayArea
from engine.witchdraft.hard import Tuning, decide, hard_bot
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS, WitchDraftRules
from engine.witchdraft.scoring import score_gain
from engine.witchdraft.state import WitchDraftState

RULES = WitchDraftRules()


def test_hard_is_the_strongest_level() -> None:
    assert list(BOTS) == ["easy", "normal", "hard"]
    assert get_game("witchdraft").bot_levels[-1] == "hard"


def play(state: WitchDraftState, levels: list[str], seed: int, check: bool = False) -> WitchDraftState:
    """Play to the end; with ``check`` every Hard action must be one of the legal actions it was given."""
    steps = 0
    while RULES.result(state) is None:
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        action = BOTS[levels[seat]](RULES.view(state, seat), legal, seeded_rng(seed, "test", seat, steps))
        if check and levels[seat] == "hard":
            assert action in legal
        state, _ = RULES.apply(state, seat, action)
        steps += 1
    return state


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("face_up", [False, True])
def test_hard_plays_only_legal_actions(seats: int, face_up: bool) -> None:
    levels = (["hard", "normal", "easy", "hard", "normal"])[:seats]
    options = {"face_up": face_up, "apprentices": "B" if seats % 2 else "A", "faster": seats == 3}
    state = play(RULES.new_state(options, 70 + seats, seats), levels, 70 + seats, check=True)
    assert all(len(player.area) > 1 for player in state.players)


def hidden_twin(state: WitchDraftState, seat: int, rng: random.Random) -> WitchDraftState:
    """The same table for ``seat``: the others' hands swapped with the pile and, if secret, their cards swapped."""
    twin = copy.deepcopy(state)
    for other in range(len(state.players)):
        if other != seat:
            varied = RULES.vary_secrets(twin, other, rng)
            if varied is not None:
                twin = varied
    if not state.face_up:
        others = [player for index, player in enumerate(twin.players) if index != seat]
        recipes = [player.recipe for player in others]
        ingredients = [player.ingredients for player in others]
        for player, recipe, card in zip(others, recipes[1:] + recipes[:1], ingredients[1:] + ingredients[:1],
                                        strict=True):
            player.recipe, player.ingredients = recipe, card
    return twin


@pytest.mark.parametrize("seats,face_up", [(2, False), (3, False), (2, True)])
def test_hard_decides_from_its_view_alone(seats: int, face_up: bool) -> None:
    state = RULES.new_state({"face_up": face_up}, 5, seats)
    rng = random.Random(5)
    checked = 0
    while RULES.result(state) is None and checked < 14:
        seat = RULES.to_act(state)[0]
        twin = hidden_twin(state, seat, rng)
        assert RULES.view(twin, seat) == RULES.view(state, seat)
        assert twin.players != state.players or seats == 2 and state.stage == "place"
        first = hard_bot(RULES.view(state, seat), RULES.legal_actions(state, seat), random.Random(checked))
        second = hard_bot(RULES.view(twin, seat), RULES.legal_actions(twin, seat), random.Random(checked))
        assert first == second
        state, _ = RULES.apply(state, seat, first)
        checked += 1
    assert checked == 14


def best_gain(card: str, recipe: str, ingredients: str) -> int:
    """A card's best immediate gain on a potion holding only the A apprentice, by the engine's scoring."""
    area = PlayArea.start(APPRENTICE_A.card_id)
    return max(score_gain(area, card, spot, RECIPE_CARDS[recipe], INGREDIENT_BY_ID[ingredients])
               for spot in area.legal_placements(card))


def late_table(mine: list[str], theirs: list[str], pick: int) -> WitchDraftState:
    """Two apprentices in phase 2 with these hands, recipes face up: mine Purring Draught, theirs Midnight Elixir."""
    state = RULES.new_state({"face_up": True}, 1, 2)
    state.phase, state.pick = 2, pick
    me, them = state.players
    me.recipe, me.ingredients = "recipe-2", "ingredients-2"
    them.recipe, them.ingredients = "recipe-4", "ingredients-4"
    me.hand, them.hand = list(mine), list(theirs)
    state.draw_pile = [card.card_id for card in COMPANIONS if card.card_id not in mine + theirs]
    return state


ROUND_TRIP = ("cat-5", "raven-5", "raven-4")
"""My best card now, my second best which the other seat wants most, and one it wants more than my best."""


def test_a_card_sure_to_come_back_is_deferred() -> None:
    best, wanted, spare = ROUND_TRIP
    gains = {card: best_gain(card, "recipe-2", "ingredients-2") for card in ROUND_TRIP}
    theirs = {card: best_gain(card, "recipe-4", "ingredients-4") for card in ROUND_TRIP}
    # Greedy takes `best`; the other seat would take `wanted`, and would rather have `spare` than `best`.
    assert gains[best] > gains[wanted] > gains[spare] + 3
    assert theirs[wanted] > theirs[spare] > theirs[best]
    state = late_table(list(ROUND_TRIP), ["owl-6", "newt-6", "toad-1"], pick=4)
    view, legal = RULES.view(state, 0), RULES.legal_actions(state, 0)
    assert normal_bot(view, legal, random.Random(1)) == Pick(best)
    # Without any weight on denial, only the card coming back explains the choice.
    assert decide(view, legal, random.Random(1), Tuning(deny=0.0)) == Pick(wanted)
    kept = {}
    for level in ("hard", "normal"):
        end = play(copy.deepcopy(state), [level, "normal"], 3)
        kept[level] = {str(card) for card, *_ in end.players[0].area}
    # Played out against Normal, the deferred card did come back: Hard ends with both, Normal without `wanted`.
    assert {best, wanted} <= kept["hard"] and wanted not in kept["normal"]


def test_a_costless_pick_denies_the_next_seats_visible_need() -> None:
    plain, needed = "cat-1", "newt-4"
    # The last two cards of a hand: the one not picked goes to the other seat. Both gain me the same now;
    # `needed` gains them 7 more.
    state = late_table([plain, needed], ["owl-6", "newt-6"], pick=5)
    assert best_gain(plain, "recipe-2", "ingredients-2") == best_gain(needed, "recipe-2", "ingredients-2")
    assert best_gain(needed, "recipe-4", "ingredients-4") >= best_gain(plain, "recipe-4", "ingredients-4") + 7
    view, legal = RULES.view(state, 0), RULES.legal_actions(state, 0)
    assert decide(view, legal, random.Random(2)) == Pick(needed)
    # Its own look-ahead slightly prefers `plain` (open edges for later): the denial is what decides.
    assert decide(view, legal, random.Random(2), Tuning(deny=0.0)) == Pick(plain)
    # With the recipes secret, the other seat's need is not visible and Hard keeps its own preference.
    state.face_up = False
    assert decide(RULES.view(state, 0), legal, random.Random(2)) == Pick(plain)


def test_hard_keeps_a_much_better_card_over_a_denial() -> None:
    mine, theirs = "cat-3", "raven-2"
    state = late_table([theirs, mine], ["owl-6", "newt-6"], pick=5)
    # Denying `theirs` would keep 3 points from them and cost me 6.
    assert best_gain(mine, "recipe-2", "ingredients-2") >= best_gain(theirs, "recipe-2", "ingredients-2") + 6
    assert best_gain(theirs, "recipe-4", "ingredients-4") >= best_gain(mine, "recipe-4", "ingredients-4") + 3
    view, legal = RULES.view(state, 0), RULES.legal_actions(state, 0)
    assert decide(view, legal, random.Random(2)) == Pick(mine)


def test_hard_places_where_it_planned_a_legal_spot() -> None:
    state = RULES.new_state({}, 11, 2)
    for seat in (0, 1):
        state, _ = RULES.apply(state, seat, Pick(state.players[seat].hand[0]))
    legal = RULES.legal_actions(state, 0)
    action: WitchDraftAction = hard_bot(RULES.view(state, 0), legal, random.Random(0))
    assert isinstance(action, Place) and action in legal


@pytest.mark.usefixtures("wide_output")
def test_bench_witchdraft_bots_prints_rates_intervals_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    assert main(["bench", "witchdraft-bots", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "of 2 games" in out and "95% interval" in out and "brew-point margin" in out
    for row in ("hard decisions, wall clock (44)", "picks (22)", "places (22)", "normal bot decision (44)"):
        assert row in out
    assert "p50" in out and "p95" in out and "max" in out
