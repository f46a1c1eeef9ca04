"""What a card is worth to a seat, fast enough to ask about every card many times a decision.

A card's brew-point gain splits in two. The **placing part** (gem pairs,
bonds and the ingredients bonds collect) depends only on where the card goes;
the **card part** (companion, colour pair, monochrome, circled ingredients)
only on the card and the cards already held. The placing part is computed on
the area's *spots*: every legal placement is boiled down to what surrounds it
(the half symbol facing each of the card's six outer edges, whether the cell
across is empty, the gems next to each half), and placements that look alike
are merged, so a card is scored on a few dozen spots instead of every
placement. The card part is kept as a running count, so a look-ahead can add
cards to a potion without placing them.

A placement is also worth the **open edges** it leaves: a half symbol facing an
empty cell may become a bond later, and one that a new card covers with a
blank edge never will. Hard counts open edges at ``edge_weight`` each.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.witchdraft.cards import CARDS, Card, Colour, IngredientCard, Recipe
from engine.witchdraft.geometry import OPPOSITE, STEP, Placement, PlayArea, cells, symbol_at, world_edges
from engine.witchdraft.scoring import points


@dataclass(frozen=True)
class Spot:
    """One kind of legal placement, as a card would meet it.

    Attributes:
        placement: The first legal placement (in the area's order) of this kind.
        facing: Per card-local edge, the half symbol across it (None if blank or empty).
        empty: Per card-local edge, whether the cell across is empty.
        gems_beside: Per half, the gem halves already next to it.
        covered: Open half symbols of placed cards that the card's two cells would cover, by ingredient.
    """

    placement: Placement
    facing: tuple[str | None, ...]
    empty: tuple[bool, ...]
    gems_beside: tuple[int, int]
    covered: tuple[str, ...]


def spots(area: PlayArea, placements: Sequence[Placement]) -> list[Spot]:
    """The distinct kinds among ``placements``, each with its first placement."""
    taken = area.cell_map
    placed = area.cards
    open_into: dict[tuple[int, int], tuple[str, ...]] = {}
    for card in placed:
        face = CARDS[card.card_id]
        for symbol, (cell, direction) in zip(face.edges, world_edges(card.placement), strict=False):
            if symbol is None:
                continue
            target = (cell[0] + STEP[direction][0], cell[1] + STEP[direction][1])
            if target not in taken:
                open_into[target] = (*open_into.get(target, ()), str(symbol))
    found: dict[tuple[object, ...], Spot] = {}
    for placement in placements:
        facing: list[str | None] = []
        empty: list[bool] = []
        for cell, direction in world_edges(placement):
            target = (cell[0] + STEP[direction][0], cell[1] + STEP[direction][1])
            hit = taken.get(target)
            if hit is None:
                facing.append(None)
                empty.append(True)
                continue
            other = placed[hit[0]]
            symbol = symbol_at(CARDS[other.card_id], other.placement, hit[1], OPPOSITE[direction])
            facing.append(None if symbol is None else str(symbol))
            empty.append(False)
        gems = []
        both = cells(placement)
        for x, y in both:
            near = 0
            for dx, dy in STEP.values():
                hit = taken.get((x + dx, y + dy))
                near += hit is not None and CARDS[placed[hit[0]].card_id].halves[hit[1]].gem
            gems.append(near)
        covered = tuple(sorted(open_into.get(both[0], ()) + open_into.get(both[1], ())))
        key = (tuple(facing), tuple(empty), gems[0], gems[1], covered)
        if key not in found:
            found[key] = Spot(placement, tuple(facing), tuple(empty), (gems[0], gems[1]), covered)
    return list(found.values())


class Scorer:
    """One seat's scoring card points, with the gain and open-edge value of a card on a spot."""

    def __init__(self, recipe: Recipe, ingredients: IngredientCard, edge_weight: float, match: float = 0.5) -> None:
        self.recipe = recipe
        values = points(recipe, ingredients)
        self.companion, self.pair_points, self.mono, self.gem = values[0], values[1], values[2], values[3]
        self.bond = values[4]
        self.ingredient = {"dragon scale": values[5], "flea grass": values[6], "fire root": values[7]}
        self.edge_value = {symbol: edge_weight * (self.bond + match * points) for symbol, points in self.ingredient.items()}
        """What an open half symbol is worth, by ingredient: a likely bond, perhaps a matching one."""

    def placing(self, card: Card, spot: Spot) -> tuple[int, float]:
        """The placing part of the gain on ``spot``, and the value of the open edges it adds less those it covers."""
        gain = self.gem if card.halves[0].gem and card.halves[1].gem else 0
        for half, beside in zip(card.halves, spot.gems_beside, strict=False):
            if half.gem:
                gain += self.gem * beside
        edge_value = self.edge_value
        opened = -sum(edge_value[symbol] for symbol in spot.covered)
        for symbol, facing, empty in zip(card.edges, spot.facing, spot.empty, strict=False):
            if symbol is None:
                continue
            if facing is not None:
                gain += self.bond + (self.ingredient[facing] if facing == symbol else 0)
            elif empty:
                opened += edge_value[symbol]
        return gain, opened

    def best_spot(self, card: Card, where: Sequence[Spot], plan: bool) -> tuple[float, int]:
        """The best placing value of ``card`` among ``where`` and the index of that spot.

        With ``plan`` the open edges' value counts; without it only the gain
        counts, ties going to more open edges' value, about as Normal places.
        """
        best, best_index, best_open = -1e9, 0, -1e9
        weight = 1.0 if plan else 0.0
        for index, spot in enumerate(where):
            gain, opened = self.placing(card, spot)
            value = gain + weight * opened
            if value > best or (value == best and opened > best_open):
                best, best_index, best_open = value, index, opened
        return best, best_index

    def card_part(self, card: Card, pairs: tuple[int, int]) -> int:
        """The gain that does not depend on the spot, holding ``pairs`` cards of the recipe's two pair colours."""
        recipe = self.recipe
        gain = self.companion if card.animal is not None and card.animal == recipe.companion else 0
        if card.colour is not None and card.colour in recipe.monochrome:
            gain += self.mono
        for half in card.halves:
            if half.circle is not None:
                gain += self.ingredient[str(half.circle)]
        if card.colour is not None and card.colour in recipe.colour_pair:
            gain += self.pair_points * (pair_count(add_colour(pairs, card.colour, recipe), recipe)
                                         - pair_count(pairs, recipe))
        return gain


def pair_colours(recipe: Recipe, colours: Iterable[Colour | None]) -> tuple[int, int]:
    """How many of ``colours`` are the recipe's first and second pair colour."""
    listed = list(colours)
    first, second = recipe.colour_pair
    if first == second:
        return listed.count(first), 0
    return listed.count(first), listed.count(second)


def add_colour(pairs: tuple[int, int], colour: Colour, recipe: Recipe) -> tuple[int, int]:
    """The pair-colour counts once a card of ``colour`` is added."""
    first, second = recipe.colour_pair
    if colour == first:
        return pairs[0] + 1, pairs[1]
    if colour == second:
        return pairs[0], pairs[1] + 1
    return pairs


def pair_count(pairs: tuple[int, int], recipe: Recipe) -> int:
    """Colour pairs from the counts; a pair of one colour needs two cards of it (its count is kept first)."""
    first, second = recipe.colour_pair
    return pairs[0] // 2 if first == second else min(pairs)
