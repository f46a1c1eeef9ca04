"""WitchDraft bots: view-only decisions, greedy gains, whole bot games."""

from __future__ import annotations

import dataclasses
import inspect
import random

from engine.witchdraft.actions import Pick, Place
from engine.witchdraft.bots import BOTS, normal_bot, open_edges, view_area
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS, WitchDraftRules
from engine.witchdraft.scoring import score_gain

RULES = WitchDraftRules()


def test_bots_take_only_a_view_legal_actions_and_a_generator() -> None:
    for bot in BOTS.values():
        assert list(inspect.signature(bot).parameters) == ["view", "legal", "rng"]


def test_bots_choose_the_same_when_only_hidden_information_differs() -> None:
    state = RULES.new_state({}, 3, 3, ["A", "B", "C"])
    other = dataclasses.replace(state, players=[
        state.players[0],
        dataclasses.replace(state.players[1], recipe=state.players[2].recipe, hand=state.players[2].hand),
        dataclasses.replace(state.players[2], recipe=state.players[1].recipe, hand=state.players[1].hand),
    ], draw_pile=list(reversed(state.draw_pile)))
    assert RULES.view(state, 0) == RULES.view(other, 0)
    for bot in BOTS.values():
        first = bot(RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(9))
        second = bot(RULES.view(other, 0), RULES.legal_actions(other, 0), random.Random(9))
        assert first == second


def test_normal_bot_takes_the_best_immediate_gain() -> None:
    rng = random.Random(4)
    state = RULES.new_state({}, 8, 2)
    for _ in range(4):
        view = RULES.view(state, 0)
        me = state.players[0]
        recipe, ingredients = RECIPE_CARDS[me.recipe], INGREDIENT_BY_ID[me.ingredients]
        area = view_area(view)
        best = max(score_gain(area, card, spot, recipe, ingredients)
                   for card in me.hand for spot in area.legal_placements(card))
        pick = normal_bot(view, RULES.legal_actions(state, 0), rng)
        assert isinstance(pick, Pick)
        state, _ = RULES.apply(state, 0, RULES.action_to_json(pick))
        state, _ = RULES.apply(state, 1, RULES.action_to_json(rng.choice(RULES.legal_actions(state, 1))))
        place = normal_bot(RULES.view(state, 0), RULES.legal_actions(state, 0), rng)
        assert isinstance(place, Place)
        assert score_gain(area, pick.card, place.placement, recipe, ingredients) == best
        state, _ = RULES.apply(state, 0, RULES.action_to_json(place))
        state, _ = RULES.apply(state, 1, RULES.action_to_json(rng.choice(RULES.legal_actions(state, 1))))


TIE_BREAK_SEED = 2
"""A 2-player game whose third placement has three spots of equal best gain, leaving 9, 12 and 12 open edges."""


def test_normal_bot_breaks_ties_toward_open_edges() -> None:
    state = RULES.new_state({}, TIE_BREAK_SEED, 2)
    rng = random.Random(TIE_BREAK_SEED)
    for round_ in range(3):
        for seat in (0, 1):
            state, _ = RULES.apply(state, seat, {"type": "pick", "card": state.players[seat].hand[0]})
        if round_ == 2:
            break
        for seat in (0, 1):
            state, _ = RULES.apply(state, seat, RULES.action_to_json(rng.choice(RULES.legal_actions(state, seat))))
    view, legal = RULES.view(state, 0), RULES.legal_actions(state, 0)
    me = state.players[0]
    recipe, ingredients = RECIPE_CARDS[me.recipe], INGREDIENT_BY_ID[me.ingredients]
    area = view_area(view)
    card = str(me.picked)
    spots = [action.placement for action in legal if isinstance(action, Place)]
    gains = {spot: score_gain(area, card, spot, recipe, ingredients) for spot in spots}
    tied = [spot for spot in spots if gains[spot] == max(gains.values())]
    edges = {spot: open_edges(area.with_card(card, spot)) for spot in tied}
    # The test only means something if the tie-break decides: the first tied spot (what a
    # greedy bot without it takes) and the fewest-edges spot both differ from the most-edges one.
    assert edges[tied[0]] < max(edges.values()) and min(edges.values()) < max(edges.values())
    choice = normal_bot(view, legal, random.Random(0))
    assert isinstance(choice, Place) and gains[choice.placement] == max(gains.values())
    assert edges[choice.placement] == max(edges.values())


def test_normal_bots_beat_easy_bots_on_average() -> None:
    rng = random.Random(5)
    normal_total = easy_total = 0
    for seed in range(6):
        state = RULES.new_state({}, seed, 2)
        levels = ["normal", "easy"] if seed % 2 == 0 else ["easy", "normal"]
        while RULES.result(state) is None:
            for seat in RULES.to_act(state):
                pick = BOTS[levels[seat]](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
                # A seat that has picked waits for the reveal; the loop comes back to place.
                state, _ = RULES.apply(state, seat, RULES.action_to_json(pick))
        totals = [sum(line.brew for line in RULES.scores(state, seat)) for seat in (0, 1)]
        normal_total += totals[levels.index("normal")]
        easy_total += totals[levels.index("easy")]
    assert normal_total > easy_total
