"""WitchDraft bots. They see only their own seat's view and legal picks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.witchdraft.actions import Pick
from engine.witchdraft.cards import CARDS
from engine.witchdraft.geometry import Placement, PlacedCard, PlayArea, edge_symbols
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS
from engine.witchdraft.scoring import score_gain
from engine.witchdraft.state import WitchDraftView

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def easy_bot(view: WitchDraftView, legal: Sequence[Pick], rng: random.Random) -> Pick:
    """Any legal pick, uniformly at random."""
    return rng.choice(list(legal))


def view_area(view: WitchDraftView) -> PlayArea:
    """The viewing seat's own play area."""
    assert view.me is not None
    return PlayArea(tuple(PlacedCard(card, Placement(x, y, rotation)) for card, x, y, rotation in view.me.area))


def open_edges(area: PlayArea) -> int:
    """Half symbols facing an empty cell: the chances left for future bonds."""
    occupied = area.occupied()
    count = 0
    for placed in area.cards:
        for (cell, direction) in edge_symbols(CARDS[placed.card_id], placed.placement):
            dx, dy = STEP[direction]
            count += (cell[0] + dx, cell[1] + dy) not in occupied
    return count


def normal_bot(view: WitchDraftView, legal: Sequence[Pick], rng: random.Random) -> Pick:
    """Greedy: the pick with the best immediate gain, ties toward more open edges."""
    me = view.me
    if me is None or me.recipe is None or me.ingredients is None:
        return rng.choice(list(legal))
    area = view_area(view)
    recipe, ingredients = RECIPE_CARDS[me.recipe], INGREDIENT_BY_ID[me.ingredients]
    gains = {pick: score_gain(area, pick.card, pick.placement, recipe, ingredients) for pick in legal}
    best_gain = max(gains.values())
    best = [pick for pick in legal if gains[pick] == best_gain]
    if len(best) == 1:
        return best[0]
    return max(best, key=lambda pick: open_edges(area.with_card(pick.card, pick.placement)))


BOTS: dict[str, Callable[[WitchDraftView, Sequence[Pick], random.Random], Pick]] = {
    "easy": easy_bot,
    "normal": normal_bot,
}
"""Bot levels, weakest first."""
