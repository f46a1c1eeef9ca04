"""WitchDraft potion scoring: the eight categories of the recipe and ingredient cards.

:func:`count` counts a whole play area; :func:`score_gain` works out what one
more card would add without recounting, because bots call it for every legal
placement of every card in hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.witchdraft.cards import (
    CARDS,
    INGREDIENT_CARDS_BY_ID,
    RECIPES_BY_ID,
    Card,
    Colour,
    Ingredient,
    IngredientCard,
    Recipe,
)
from engine.witchdraft.geometry import (
    OPPOSITE,
    ROTATIONS,
    STEP,
    Cell,
    Direction,
    PlacedCard,
    Placement,
    PlayArea,
    cells,
    symbol_at,
    world_edges,
)
from engine.witchdraft.state import WitchDraftView

CATEGORIES: tuple[str, ...] = (
    "Companions", "Color Pairs", "Monochrome", "Gems",
    "Bonds", "Dragon Scale", "Flea Grass", "Fire Root",
)
"""Display names, in scoring order, spelt exactly as the rulebook's scoring example."""


@dataclass(frozen=True)
class Counts:
    """How many times each category scores, before multiplying by points."""

    companions: int = 0
    colour_pairs: int = 0
    monochrome: int = 0
    gem_pairs: int = 0
    bonds: int = 0
    dragon_scale: int = 0
    flea_grass: int = 0
    fire_root: int = 0

    def values(self) -> tuple[int, ...]:
        """The eight counts in scoring order."""
        return (self.companions, self.colour_pairs, self.monochrome, self.gem_pairs,
                self.bonds, self.dragon_scale, self.flea_grass, self.fire_root)


@dataclass(frozen=True)
class CategoryScore:
    """One scoring line: ``count`` times ``points`` brew points."""

    category: str
    count: int
    points: int

    @property
    def brew(self) -> int:
        """The brew points this category earns."""
        return self.count * self.points

    @property
    def line(self) -> str:
        """The line as printed, e.g. ``"Companions (2 x 2 = 4 BP)"``."""
        return f"{self.category} ({self.count} x {self.points} = {self.brew} BP)"


def points(recipe: Recipe, ingredient_card: IngredientCard) -> tuple[int, ...]:
    """Brew points per unit of each category, in scoring order."""
    return (recipe.companion_points, recipe.colour_pair_points, recipe.monochrome_points,
            recipe.gem_pair_points, ingredient_card.bond_points, ingredient_card.dragon_scale_points,
            ingredient_card.flea_grass_points, ingredient_card.fire_root_points)


def _colour_pairs(colours: Iterable[Colour | None], pair: tuple[Colour, Colour]) -> int:
    listed = list(colours)
    first, second = listed.count(pair[0]), listed.count(pair[1])
    if pair[0] == pair[1]:
        return first // 2  # a pair of one colour needs two cards of it
    return min(first, second)


def count(area: PlayArea, recipe: Recipe, cards: Mapping[str, Card] = CARDS) -> Counts:
    """Count every category for ``area``.

    Gem pairs are orthogonally adjacent gem cells, on one card or two. A bond
    is a unit edge between two cards where both sides show a half symbol,
    whatever they show; a bond of two identical halves also collects one of
    that ingredient, as does each circled symbol.
    """
    faces = area.faces(cards)
    taken = area.cell_map
    collected = dict.fromkeys(Ingredient, 0)
    gems: set[Cell] = set()
    bonds = 0
    for face, placed in zip(faces, area.cards, strict=False):
        both = cells(placed.placement)
        for cell, half in zip(both, face.halves, strict=False):
            if half.gem:
                gems.add(cell)
            if half.circle is not None:
                collected[half.circle] += 1
        for symbol, (cell, direction) in zip(face.edges, world_edges(placed.placement), strict=False):
            # Count each shared edge once, from its west or north side.
            if symbol is None or direction not in ("E", "S"):
                continue
            step = STEP[direction]
            hit = taken.get((cell[0] + step[0], cell[1] + step[1]))
            if hit is None:
                continue
            other = area.cards[hit[0]]
            facing = symbol_at(faces[hit[0]], other.placement, hit[1], OPPOSITE[direction])
            if facing is not None:
                bonds += 1
                if facing == symbol:
                    collected[symbol] += 1
    gem_pairs = sum((x + 1, y) in gems for x, y in gems) + sum((x, y + 1) in gems for x, y in gems)
    colours = [face.colour for face in faces]
    return Counts(
        companions=sum(face.animal is not None and face.animal == recipe.companion for face in faces),
        colour_pairs=_colour_pairs(colours, recipe.colour_pair),
        monochrome=sum(colour is not None and colour in recipe.monochrome for colour in colours),
        gem_pairs=gem_pairs,
        bonds=bonds,
        dragon_scale=collected[Ingredient.DRAGON_SCALE],
        flea_grass=collected[Ingredient.FLEA_GRASS],
        fire_root=collected[Ingredient.FIRE_ROOT],
    )


def score(area: PlayArea, recipe: Recipe, ingredient_card: IngredientCard,
          cards: Mapping[str, Card] = CARDS) -> list[CategoryScore]:
    """The eight scoring lines, in the rulebook's order."""
    counted = count(area, recipe, cards).values()
    return [CategoryScore(name, n, pts)
            for name, n, pts in zip(CATEGORIES, counted, points(recipe, ingredient_card), strict=False)]


def score_so_far(view: WitchDraftView, seat: int) -> list[CategoryScore] | None:
    """``seat``'s eight scoring lines as its potion stands, read from ``view`` alone.

    None when the view hides that seat's recipe or ingredient card, so a screen
    can only show what its viewer may know: its own score always, the others'
    when the cards are face up or the game is over.
    """
    player = view.players[seat]
    if player.recipe is None or player.ingredients is None:
        return None
    area = PlayArea(tuple(PlacedCard(card, Placement(x, y, rotation)) for card, x, y, rotation in player.area))
    return score(area, RECIPES_BY_ID[player.recipe], INGREDIENT_CARDS_BY_ID[player.ingredients])


def total(scores: Iterable[CategoryScore]) -> int:
    """The potion's total brew points."""
    return sum(line.brew for line in scores)


_REACH: dict[int, tuple[tuple[int, int, Direction], ...]] = {
    r: tuple((cx + STEP[d][0], cy + STEP[d][1], OPPOSITE[d]) for (cx, cy), d in world_edges(Placement(0, 0, r)))
    for r in ROTATIONS
}
"""Per rotation and edge, in edge order: the cell across the edge relative to
half A, and the direction the neighbour's matching edge faces."""


def gain_counts(area: PlayArea, card_id: str, placement: Placement, recipe: Recipe,
                cards: Mapping[str, Card] = CARDS) -> Counts:
    """How much each count would rise if the card were placed (legality not checked)."""
    card = cards[card_id]
    taken = area.cell_map
    placed = area.cards
    x, y = placement.x, placement.y
    collected = dict.fromkeys(Ingredient, 0)
    gem_pairs = int(card.halves[0].gem and card.halves[1].gem)
    for (cx, cy), half in zip(cells(placement), card.halves, strict=False):
        if half.circle is not None:
            collected[half.circle] += 1
        if half.gem:
            for dx, dy in STEP.values():
                hit = taken.get((cx + dx, cy + dy))
                if hit is not None and cards[placed[hit[0]].card_id].halves[hit[1]].gem:
                    gem_pairs += 1
    bonds = 0
    for symbol, (nx, ny, back) in zip(card.edges, _REACH[placement.rotation], strict=False):
        if symbol is None:
            continue
        hit = taken.get((x + nx, y + ny))
        if hit is None:
            continue
        other = placed[hit[0]]
        facing = symbol_at(cards[other.card_id], other.placement, hit[1], back)
        if facing is not None:
            bonds += 1
            if facing == symbol:
                collected[symbol] += 1
    colour_pairs = 0
    if card.colour is not None and card.colour in recipe.colour_pair:
        colours = [cards[other.card_id].colour for other in placed]
        before = _colour_pairs(colours, recipe.colour_pair)
        colour_pairs = _colour_pairs([*colours, card.colour], recipe.colour_pair) - before
    return Counts(
        companions=int(card.animal is not None and card.animal == recipe.companion),
        colour_pairs=colour_pairs,
        monochrome=int(card.colour is not None and card.colour in recipe.monochrome),
        gem_pairs=gem_pairs,
        bonds=bonds,
        dragon_scale=collected[Ingredient.DRAGON_SCALE],
        flea_grass=collected[Ingredient.FLEA_GRASS],
        fire_root=collected[Ingredient.FIRE_ROOT],
    )


def score_gain(area: PlayArea, card_id: str, placement: Placement, recipe: Recipe,
               ingredient_card: IngredientCard, cards: Mapping[str, Card] = CARDS) -> int:
    """Total brew points after placing the card minus before (legality not checked).

    Every category only grows around the new card, so this looks at its
    neighbours instead of rescoring the area.
    """
    rise = gain_counts(area, card_id, placement, recipe, cards).values()
    return sum(n * pts for n, pts in zip(rise, points(recipe, ingredient_card), strict=False))
