"""WitchDraft bots: view-only decisions, greedy gains, whole bot games."""

from __future__ import annotations

import dataclasses
import inspect
import random

from engine.witchdraft.bots import BOTS, normal_bot, view_area
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
        legal = RULES.legal_actions(state, 0)
        me = state.players[0]
        recipe, ingredients = RECIPE_CARDS[me.recipe], INGREDIENT_BY_ID[me.ingredients]
        area = view_area(view)
        best = max(score_gain(area, p.card, p.placement, recipe, ingredients) for p in legal)
        choice = normal_bot(view, legal, rng)
        assert score_gain(area, choice.card, choice.placement, recipe, ingredients) == best
        state, _ = RULES.apply(state, 0, RULES.action_to_json(choice))
        other = RULES.legal_actions(state, 1)
        state, _ = RULES.apply(state, 1, RULES.action_to_json(rng.choice(other)))


def test_normal_bots_beat_easy_bots_on_average() -> None:
    rng = random.Random(5)
    normal_total = easy_total = 0
    for seed in range(6):
        state = RULES.new_state({}, seed, 2)
        levels = ["normal", "easy"] if seed % 2 == 0 else ["easy", "normal"]
        while RULES.result(state) is None:
            for seat in RULES.to_act(state):
                pick = BOTS[levels[seat]](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
                state, _ = RULES.apply(state, seat, RULES.action_to_json(pick))
        totals = [sum(line.brew for line in RULES.scores(state, seat)) for seat in (0, 1)]
        normal_total += totals[levels.index("normal")]
        easy_total += totals[levels.index("easy")]
    assert normal_total > easy_total
