"""WitchDraft bots. They see only their own seat's view and legal actions.

A round asks each bot twice: which card to pick (in secret), then, once the
picks are revealed, where to place it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.witchdraft.actions import Pick, Place, WitchDraftAction
from engine.witchdraft.cards import CARDS
from engine.witchdraft.geometry import PlacedCard, Placement, PlayArea, edge_symbols
from engine.witchdraft.hard import hard_bot
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS
from engine.witchdraft.scoring import score_gain
from engine.witchdraft.state import WitchDraftView

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def easy_bot(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random) -> WitchDraftAction:
    """Any legal action, uniformly at random: a random card, then a random legal spot for it."""
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


def best_spot(view: WitchDraftView, options: Sequence[tuple[str, Placement]]) -> tuple[str, Placement]:
    """The (card, spot) with the best immediate gain; ties go to the one leaving more open edges.

    Among full ties the first in ``options`` wins, so the choice is repeatable.
    """
    me = view.me
    assert me is not None and me.recipe is not None and me.ingredients is not None
    area = view_area(view)
    recipe, ingredients = RECIPE_CARDS[me.recipe], INGREDIENT_BY_ID[me.ingredients]
    gains = [score_gain(area, card, placement, recipe, ingredients) for card, placement in options]
    best_gain = max(gains)
    best = [option for option, gain in zip(options, gains, strict=False) if gain == best_gain]
    if len(best) == 1:
        return best[0]
    # Only the tied options pay for the open-edge count.
    return max(best, key=lambda option: open_edges(area.with_card(*option)))


def normal_bot(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random) -> WitchDraftAction:
    """Greedy: pick the card whose best spot gains most, then place it at that best spot.

    Both steps use :func:`best_spot` on the same area, so the card is placed
    where it looked best when it was picked.
    """
    me = view.me
    if me is None or me.recipe is None or me.ingredients is None or not legal:
        return rng.choice(list(legal))
    if isinstance(legal[0], Pick):
        area = view_area(view)
        options = [(action.card, placement) for action in legal if isinstance(action, Pick)
                   for placement in area.legal_placements(action.card)]
        card, _ = best_spot(view, options)
        return Pick(card)
    picked = me.picked
    assert picked is not None
    _, spot = best_spot(view, [(picked, action.placement) for action in legal if isinstance(action, Place)])
    return Place(spot)


Bot = Callable[[WitchDraftView, Sequence[WitchDraftAction], random.Random], WitchDraftAction]

BOTS: dict[str, Bot] = {
    "easy": easy_bot,
    "normal": normal_bot,
    "hard": hard_bot,
}
"""Bot levels, weakest first."""
