"""WitchDraft for the card lookup: every companion, apprentice, recipe and ingredient card, and where one stands.

Companion and apprentice cards say where they lie in a potion, cell by cell as the linear rendering names
cells; a recipe or ingredient card is named only where the seat's view shows it (its own, or a table playing
them face up).
"""

from __future__ import annotations

from engine.witchdraft.cards import (
    APPRENTICE_A,
    APPRENTICES_B,
    COMPANIONS,
    INGREDIENT_CARDS,
    RECIPES,
    Card,
    Half,
    IngredientCard,
    Recipe,
)
from engine.witchdraft.geometry import Placement, cells
from engine.witchdraft.state import ApprenticeView, WitchDraftView
from tui.games.lookup import CardEntry
from tui.games.witchdraft.narration import column_name
from tui.narration import possessive

EDGE_NAMES = ("half A top", "half A left end", "half A bottom", "half B top", "half B right end", "half B bottom")
"""The six outer edges in :attr:`Card.edges` order, as the card lies drawn with half A on the left."""


def _half(half: Half) -> str:
    if half.gem:
        return "a gem"
    if half.circle is not None:
        return f"{half.circle.value} in a circle"
    return "plain"


def card_text(card: Card) -> str:
    """A companion or apprentice card as plain lines: companion, colour, both halves and the six edges."""
    lines = []
    if card.animal is not None and card.colour is not None:
        lines.append(f"Companion: {card.animal.value}. Colour: {card.colour.value}.")
    else:
        lines.append("Apprentice card: no companion and no colour; it starts a potion.")
    lines.append(f"Half A: {_half(card.halves[0])}. Half B: {_half(card.halves[1])}.")
    symbols = [f"{where}: half a {symbol.value}" for where, symbol in zip(EDGE_NAMES, card.edges, strict=True)
               if symbol is not None]
    lines.append("Half symbols on its edges: " + ("; ".join(symbols) if symbols else "none") + ".")
    return "\n".join(lines)


def recipe_text(recipe: Recipe) -> str:
    """A recipe card's four scoring lines."""
    first, second = recipe.colour_pair
    mono_a, mono_b = recipe.monochrome
    return "\n".join((
        f"Companions: {recipe.companion_points} brew points per card showing the {recipe.companion.value}.",
        f"Color Pairs: {recipe.colour_pair_points} per pair of {first.value} and {second.value}.",
        f"Monochrome: {recipe.monochrome_points} per card of {mono_a.value} or {mono_b.value}.",
        f"Gem Pairs: {recipe.gem_pair_points} per pair of neighbouring gems.",
    ))


def ingredients_text(card: IngredientCard) -> str:
    """An ingredient card's four scoring lines."""
    return "\n".join((
        f"Bonds: {card.bond_points} brew points per bond.",
        f"Dragon scale: {card.dragon_scale_points} per dragon scale collected.",
        f"Flea grass: {card.flea_grass_points} per flea grass collected.",
        f"Fire root: {card.fire_root_points} per fire root collected.",
    ))


def card_index() -> list[CardEntry]:
    """Every WitchDraft card a player can meet: companions, apprentice sides, recipes and ingredient cards."""
    entries = [CardEntry(card.card_id, card.name, "companion", card_text(card)) for card in COMPANIONS]
    entries.append(CardEntry(APPRENTICE_A.card_id, APPRENTICE_A.name, "apprentice, side A", card_text(APPRENTICE_A)))
    entries += [CardEntry(card.card_id, card.name, "apprentice, side B", card_text(card)) for card in APPRENTICES_B]
    entries += [CardEntry(recipe.card_id, recipe.name, "recipe", recipe_text(recipe)) for recipe in RECIPES]
    entries += [CardEntry(card.card_id, card.name, "ingredient card", ingredients_text(card))
                for card in INGREDIENT_CARDS]
    return entries


def _cells(player: ApprenticeView, key: str) -> str | None:
    """``"half A at B2, half B at C2"`` where ``key`` lies in the potion (cells named as the linear view does)."""
    every = [cell for _, x, y, rotation in player.area for cell in cells(Placement(x, y, rotation))]
    for card_id, x, y, rotation in player.area:
        if card_id == key and every:
            left, top = min(cx for cx, _ in every), min(cy for _, cy in every)
            halves = [f"half {'AB'[half]} at {column_name(cx - left)}{cy - top + 1}"
                      for half, (cx, cy) in enumerate(cells(Placement(x, y, rotation)))]
            return ", ".join(halves)
    return None


def _places(view: WitchDraftView, index: int, player: ApprenticeView, key: str) -> list[str]:
    whose = "your" if index == view.seat else possessive(player.name)
    places = []
    found = _cells(player, key)
    if found is not None:
        places.append(f"in {whose} potion, {found}")
    if player.hand is not None and key in player.hand:
        places.append(f"in {whose} hand")
    if player.pending == key:
        places.append(f"{whose} secret pick")
    if player.picked == key:
        places.append(f"{whose} revealed pick, waiting to be placed")
    if player.recipe == key:
        places.append(f"{whose} recipe")
    if player.ingredients == key:
        places.append(f"{whose} ingredient card")
    return places


def card_now(view: WitchDraftView, seat: int | None, key: str) -> str | None:
    """Where card ``key`` stands for the seat looking; None when its view shows it nowhere."""
    places = [place for index, player in enumerate(view.players) for place in _places(view, index, player, key)]
    if not places:
        return None
    text = "; ".join(places)
    return f"Now: {text[:1].upper()}{text[1:]}."
