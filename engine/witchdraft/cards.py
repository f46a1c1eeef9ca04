"""WitchDraft card data: companions, apprentices, recipes and ingredient cards.

Pure data. Geometry (:mod:`engine.witchdraft.geometry`) turns a card's local
symbols into world positions, and :mod:`engine.witchdraft.scoring` counts them.

A card is a domino of two halves, A and B. Each half may show a gem or a
circled (whole) ingredient in its middle, and each of the card's six outer
unit edges may show half of an ingredient symbol. Drawn at rotation 0, half A
is the left cell and half B the right cell, and :attr:`Card.edges` lists the
edges in this card-local order::

    index 0: A top        index 3: B top
    index 1: A left end   index 4: B right end
    index 2: A bottom     index 5: B bottom
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Animal(StrEnum):
    """The companion animals."""

    OWL = "Owl"
    CAT = "Cat"
    TOAD = "Toad"
    RAVEN = "Raven"
    NEWT = "Newt"


class Colour(StrEnum):
    """The card colours."""

    CRIMSON = "Crimson"
    AMBER = "Amber"
    JADE = "Jade"
    AZURE = "Azure"
    VIOLET = "Violet"


class Ingredient(StrEnum):
    """The three ingredients a potion collects."""

    DRAGON_SCALE = "dragon scale"
    FLEA_GRASS = "flea grass"
    FIRE_ROOT = "fire root"


@dataclass(frozen=True)
class Half:
    """The middle of one half of a card.

    Attributes:
        gem: Whether the half shows a gem.
        circle: The whole ingredient symbol in a circle, if any.
    """

    gem: bool = False
    circle: Ingredient | None = None


@dataclass(frozen=True)
class Card:
    """A companion or apprentice card.

    Attributes:
        card_id: The stable id used in actions and saves.
        name: The display name.
        animal: The companion shown; None on apprentice cards.
        colour: The card's colour; None on apprentice cards.
        halves: Half A then half B.
        edges: The six outer unit edges' half symbols, in the order given in
            the module docstring; None where an edge is blank.
    """

    card_id: str
    name: str
    animal: Animal | None
    colour: Colour | None
    halves: tuple[Half, Half]
    edges: tuple[Ingredient | None, ...]

    def __post_init__(self) -> None:
        # Geometry indexes edges blindly; a short tuple would fail far from its cause.
        if len(self.edges) != 6:
            raise ValueError(f"card {self.card_id!r} must have 6 edges, not {len(self.edges)}")


_SYMBOL: dict[str, Ingredient | None] = {
    "D": Ingredient.DRAGON_SCALE,
    "F": Ingredient.FLEA_GRASS,
    "R": Ingredient.FIRE_ROOT,
    ".": None,
}


def _half(code: str) -> Half:
    # "g" is a gem, "-" a plain half, and D/F/R a circled ingredient.
    if code == "g":
        return Half(gem=True)
    return Half(circle=_SYMBOL.get(code))


def parse_card(card_id: str, name: str, animal: Animal | None, colour: Colour | None,
               halves: str, edges: str) -> Card:
    """Build a card from a compact code, used by the tables below and by tests.

    Args:
        card_id: The card id.
        name: The display name.
        animal: The companion, or None.
        colour: The colour, or None.
        halves: Two letters, A then B: ``g`` gem, ``-`` plain, ``D``/``F``/``R``
            a circled dragon scale, flea grass or fire root.
        edges: Six letters in edge order: ``D``/``F``/``R`` or ``.`` for blank.
    """
    if len(halves) != 2 or len(edges) != 6:
        raise ValueError(f"bad card code for {card_id!r}")
    return Card(card_id, name, animal, colour, (_half(halves[0]), _half(halves[1])),
                tuple(_SYMBOL[letter] for letter in edges))


_companion = parse_card
A, C = Animal, Colour

COMPANIONS: tuple[Card, ...] = (
    _companion("owl-1", "Lantern Owl", A.OWL, C.CRIMSON, "gF", "RFD.RF"),
    _companion("cat-1", "Sootpaw Cat", A.CAT, C.AMBER, "g-", "DD.FDF"),
    _companion("toad-1", "Bogwart Toad", A.TOAD, C.JADE, "FR", ".D..D."),
    _companion("raven-1", "Inkwing Raven", A.RAVEN, C.AZURE, "RR", "DF..DF"),
    _companion("newt-1", "Ember Newt", A.NEWT, C.VIOLET, "F-", ".DD..."),
    _companion("owl-2", "Hushwing Owl", A.OWL, C.AMBER, "gF", ".R.D.F"),
    _companion("cat-2", "Cinder Cat", A.CAT, C.JADE, "--", ".DR..F"),
    _companion("toad-2", "Puddle Toad", A.TOAD, C.AZURE, "RR", "DD.F.R"),
    _companion("raven-2", "Ashfeather Raven", A.RAVEN, C.VIOLET, "R-", "D..RRR"),
    _companion("newt-2", "Glimmer Newt", A.NEWT, C.CRIMSON, "-g", "DRR.FF"),
    _companion("owl-3", "Quill Owl", A.OWL, C.JADE, "gR", "..R.F."),
    _companion("cat-3", "Velvet Cat", A.CAT, C.AZURE, "gF", "FFRD.R"),
    _companion("toad-3", "Mossback Toad", A.TOAD, C.VIOLET, "g-", "DFRF.F"),
    _companion("raven-3", "Thornbeak Raven", A.RAVEN, C.CRIMSON, "Rg", ".R...R"),
    _companion("newt-3", "Brook Newt", A.NEWT, C.AMBER, "gD", "DR...."),
    _companion("owl-4", "Moonwatch Owl", A.OWL, C.AZURE, "D-", "FFR..."),
    _companion("cat-4", "Hearthkeeper Cat", A.CAT, C.VIOLET, "-D", "FFR.F."),
    _companion("toad-4", "Cauldron Toad", A.TOAD, C.CRIMSON, "FF", "DFDR.."),
    _companion("raven-4", "Hexwing Raven", A.RAVEN, C.AMBER, "D-", ".....R"),
    _companion("newt-4", "Speckle Newt", A.NEWT, C.JADE, "DD", ".RR.R."),
    _companion("owl-5", "Tallowlight Owl", A.OWL, C.VIOLET, "DR", "R...FD"),
    _companion("cat-5", "Moonwhisker Cat", A.CAT, C.CRIMSON, "g-", "FF.R.F"),
    _companion("toad-5", "Lilypad Toad", A.TOAD, C.AMBER, "D-", "R.FR.."),
    _companion("raven-5", "Rookery Raven", A.RAVEN, C.JADE, "-F", "....FD"),
    _companion("newt-5", "Ripple Newt", A.NEWT, C.AZURE, "Rg", "FRD.F."),
    _companion("owl-6", "Bramble Owl", A.OWL, C.CRIMSON, "gF", "....F."),
    _companion("cat-6", "Thimble Cat", A.CAT, C.AMBER, "-g", "...DR."),
    _companion("toad-6", "Grumble Toad", A.TOAD, C.JADE, "-g", "DRFF.D"),
    _companion("raven-6", "Cinderquill Raven", A.RAVEN, C.AZURE, "g-", "..F.F."),
    _companion("newt-6", "Saltmarsh Newt", A.NEWT, C.VIOLET, "gF", "...DF."),
    _companion("owl-7", "Duskeye Owl", A.OWL, C.AMBER, "FR", "R.F.D."),
    _companion("cat-7", "Midnight Cat", A.CAT, C.JADE, "-R", "D.DDDD"),
    _companion("toad-7", "Mudlark Toad", A.TOAD, C.AZURE, "DR", ".D...D"),
    _companion("raven-7", "Nightcaller Raven", A.RAVEN, C.VIOLET, "Fg", "RRRDD."),
    _companion("newt-7", "Fennel Newt", A.NEWT, C.CRIMSON, "F-", "R..RFR"),
)
"""The 35 companion cards: each animal and each colour appears on 7."""

APPRENTICE_A: Card = parse_card("apprentice-a", "Apprentice's Bench", None, None, "--", "RDFFDR")
"""The symmetrical A side, the same for every apprentice."""

APPRENTICES_B: tuple[Card, ...] = (
    parse_card("apprentice-b1", "Cracked Cauldron", None, None, "g-", "D.RF.."),
    parse_card("apprentice-b2", "Herb Shelf", None, None, "F-", ".RDDR."),
    parse_card("apprentice-b3", "Crystal Windowsill", None, None, "gg", "R....F"),
    parse_card("apprentice-b4", "Ember Hearth", None, None, "-R", "FF.D.R"),
    parse_card("apprentice-b5", "Scale Cabinet", None, None, "D-", ".R.FFD"),
    parse_card("apprentice-b6", "Mossy Doorstep", None, None, "-g", "DD.R.F"),
)
"""The asymmetrical B sides, one per apprentice drawn."""


@dataclass(frozen=True)
class Recipe:
    """A secret recipe card: brew points for categories 1-4.

    Attributes:
        card_id: The stable id.
        name: The display name.
        companion: The animal scored by Companions.
        companion_points: Brew points per card showing ``companion``.
        colour_pair: The two colours scored by Color Pairs.
        colour_pair_points: Brew points per pair of those colours.
        monochrome: The two colours scored by Monochrome.
        monochrome_points: Brew points per card of either colour.
        gem_pair_points: Brew points per adjacent gem pair.
    """

    card_id: str
    name: str
    companion: Animal
    companion_points: int
    colour_pair: tuple[Colour, Colour]
    colour_pair_points: int
    monochrome: tuple[Colour, Colour]
    monochrome_points: int
    gem_pair_points: int


RECIPES: tuple[Recipe, ...] = (
    Recipe("recipe-1", "Owlfeather Tonic", A.OWL, 2, (C.CRIMSON, C.AZURE), 4, (C.AMBER, C.JADE), 1, 2),
    Recipe("recipe-2", "Purring Draught", A.CAT, 3, (C.AMBER, C.VIOLET), 3, (C.CRIMSON, C.AZURE), 1, 2),
    Recipe("recipe-3", "Bog Broth", A.TOAD, 2, (C.JADE, C.CRIMSON), 4, (C.VIOLET, C.AMBER), 1, 3),
    Recipe("recipe-4", "Midnight Elixir", A.RAVEN, 3, (C.AZURE, C.VIOLET), 3, (C.JADE, C.CRIMSON), 2, 1),
    Recipe("recipe-5", "Glowing Philtre", A.NEWT, 2, (C.AMBER, C.JADE), 5, (C.AZURE, C.VIOLET), 1, 2),
    Recipe("recipe-6", "Whisker Brew", A.CAT, 2, (C.CRIMSON, C.VIOLET), 4, (C.JADE, C.AZURE), 2, 1),
    Recipe("recipe-7", "Rookwing Infusion", A.RAVEN, 2, (C.AMBER, C.AZURE), 4, (C.CRIMSON, C.VIOLET), 1, 3),
    Recipe("recipe-8", "Lily Cordial", A.TOAD, 3, (C.VIOLET, C.JADE), 3, (C.AMBER, C.AZURE), 1, 2),
    Recipe("recipe-9", "Starlit Syrup", A.OWL, 3, (C.JADE, C.AZURE), 3, (C.CRIMSON, C.AMBER), 2, 1),
    Recipe("recipe-10", "Ember Essence", A.NEWT, 3, (C.CRIMSON, C.AMBER), 4, (C.JADE, C.VIOLET), 1, 2),
)
"""The recipe cards; each apprentice draws one in secret."""


@dataclass(frozen=True)
class IngredientCard:
    """A secret ingredient card: brew points for categories 5-8.

    Attributes:
        card_id: The stable id.
        name: The display name.
        bond_points: Brew points per bond.
        dragon_scale_points: Brew points per collected dragon scale.
        flea_grass_points: Brew points per collected flea grass.
        fire_root_points: Brew points per collected fire root.
    """

    card_id: str
    name: str
    bond_points: int
    dragon_scale_points: int
    flea_grass_points: int
    fire_root_points: int


INGREDIENT_CARDS: tuple[IngredientCard, ...] = (
    IngredientCard("ingredients-1", "Scaly Pantry", 3, 2, 3, 1),
    IngredientCard("ingredients-2", "Meadow Basket", 2, 1, 3, 2),
    IngredientCard("ingredients-3", "Root Cellar", 2, 2, 1, 3),
    IngredientCard("ingredients-4", "Dragon's Hoard", 1, 3, 2, 2),
    IngredientCard("ingredients-5", "Tangled Satchel", 3, 1, 2, 2),
    IngredientCard("ingredients-6", "Ember Jar", 2, 2, 2, 2),
    IngredientCard("ingredients-7", "Fleabane Pouch", 1, 2, 3, 2),
    IngredientCard("ingredients-8", "Smouldering Crate", 2, 3, 1, 2),
    IngredientCard("ingredients-9", "Witch's Larder", 3, 2, 2, 1),
)
"""The ingredient cards; each apprentice draws one in secret."""

CARDS: dict[str, Card] = {card.card_id: card for card in (*COMPANIONS, APPRENTICE_A, *APPRENTICES_B)}
"""Companion and apprentice cards by card id."""

RECIPES_BY_ID: dict[str, Recipe] = {recipe.card_id: recipe for recipe in RECIPES}
"""Recipe cards by card id."""

INGREDIENT_CARDS_BY_ID: dict[str, IngredientCard] = {card.card_id: card for card in INGREDIENT_CARDS}
"""Ingredient cards by card id."""
