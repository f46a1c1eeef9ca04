"""How WitchDraft cards and secret cards read as text, wherever they are shown.

The hand, the running score, the potion grid and the score screen draw cards
with these helpers, so a card reads the same on every screen.
"""

from __future__ import annotations

from rich.text import Text

from engine.witchdraft.cards import (
    CARDS,
    INGREDIENT_CARDS_BY_ID,
    RECIPES_BY_ID,
    Animal,
    Card,
    Colour,
    Half,
    Ingredient,
)
from tui.games.witchdraft.look import (
    ANIMAL_GLYPHS,
    BOND,
    COLOUR_STYLES,
    GEM,
    GEM_STYLE,
    INGREDIENT_LETTERS,
    INGREDIENT_STYLES,
    chip_text,
)


def colour_text(colour: Colour | None, short: bool = False, bare: bool = False) -> Text:
    """``"■ Crimson"`` in the colour's style; ``"Cr"`` when ``short``, ``"Crimson"`` when ``bare``."""
    if colour is None:
        return Text("—", style="dim")
    label = colour.value[:2] if short else colour.value if bare else f"■ {colour.value}"
    return Text(label, style=COLOUR_STYLES[colour])


def animal_text(animal: Animal | None) -> Text:
    """The companion's glyph and name."""
    if animal is None:
        return Text("apprentice", style="dim")
    return Text(f"{ANIMAL_GLYPHS[animal]} {animal.value}", style="bold")


def _half_text(half: Half) -> Text:
    if half.gem:
        return Text(GEM, style=GEM_STYLE)
    if half.circle is not None:
        return chip_text(half.circle)
    return Text(" ")


def _edge_text(symbol: Ingredient | None) -> Text:
    if symbol is None:
        return Text("─", style="dim")
    return Text(INGREDIENT_LETTERS[symbol], style=f"bold {INGREDIENT_STYLES[symbol]}")


def halves_text(card: Card) -> Text:
    """The card's two halves as ``[◆|Ⓕ]``."""
    return Text.assemble(("[", "dim"), _half_text(card.halves[0]), ("|", "dim"), _half_text(card.halves[1]),
                         ("]", "dim"))


def half_symbols_text(card: Card, prefix: bool = True) -> Text:
    """The card's half symbols, grouped by ingredient: ``½ DDFR`` (without ``½`` unless ``prefix``)."""
    text = Text("½ ", style="dim") if prefix else Text()
    for ingredient, letter in INGREDIENT_LETTERS.items():
        count = sum(edge == ingredient for edge in card.edges)
        if count:
            text.append(letter * count, style=INGREDIENT_STYLES[ingredient])
    if not any(card.edges) and prefix:
        text.append("none", style="dim")
    return text


HAND_LEGEND = "[left|right half] ½ symbols"
"""How to read a hand's rows past the companion and colour, under the hand while it is picked from."""


def card_row(card_id: str) -> Text:
    """One line per card: companion, colour, halves and half symbols (about 28 cells)."""
    card = CARDS[card_id]
    text = animal_text(card.animal)
    text.pad_right(8 - text.cell_len)
    colour = colour_text(card.colour, bare=True)
    colour.pad_right(8 - colour.cell_len)
    return Text.assemble(text, colour, halves_text(card), " ", half_symbols_text(card, prefix=False))


def card_picture(card_id: str) -> list[Text]:
    """Three lines drawing the card at rotation 0 with its six edges, half A left."""
    card = CARDS[card_id]
    edge = [_edge_text(symbol) for symbol in card.edges]
    left = edge[1] if card.edges[1] else Text("│", style="dim")
    right = edge[4] if card.edges[4] else Text("│", style="dim")
    top = Text.assemble(("┌─", "dim"), edge[0], ("─┬─", "dim"), edge[3], ("─┐", "dim"))
    middle = Text.assemble(left, " ", _half_text(card.halves[0]), (" │ ", "dim"), _half_text(card.halves[1]), " ",
                           right)
    bottom = Text.assemble(("└─", "dim"), edge[2], ("─┴─", "dim"), edge[5], ("─┘", "dim"))
    return [top, middle, bottom]


def recipe_text(recipe_id: str) -> Text:
    """The recipe card over two lines: companion, colour pair, monochrome, gem pairs."""
    recipe = RECIPES_BY_ID[recipe_id]
    first, second = recipe.colour_pair
    mono_a, mono_b = recipe.monochrome
    return Text.assemble(
        ("Recipe ", "bold"), (recipe.name, "italic"), "\n",
        " ", animal_text(recipe.companion), (f" {recipe.companion_points}", "bold"), ("  pair ", "dim"),
        colour_text(first, short=True), ("+", "dim"), colour_text(second, short=True),
        (f" {recipe.colour_pair_points}", "bold"), "\n",
        (" mono ", "dim"), colour_text(mono_a), ("/", "dim"), colour_text(mono_b),
        (f" {recipe.monochrome_points}", "bold"),
        ("  ", ""), (GEM * 2, GEM_STYLE), (f" {recipe.gem_pair_points}", "bold"),
    )


def ingredient_points(card_id: str) -> list[tuple[Text, int]]:
    card = INGREDIENT_CARDS_BY_ID[card_id]
    return [
        (Text(BOND, style="bold"), card.bond_points),
        (Text("D", style=INGREDIENT_STYLES[Ingredient.DRAGON_SCALE]), card.dragon_scale_points),
        (Text("F", style=INGREDIENT_STYLES[Ingredient.FLEA_GRASS]), card.flea_grass_points),
        (Text("R", style=INGREDIENT_STYLES[Ingredient.FIRE_ROOT]), card.fire_root_points),
    ]


def ingredients_text(card_id: str) -> Text:
    """The ingredient card: points per bond, dragon scale, flea grass and fire root, two to a line."""
    card = INGREDIENT_CARDS_BY_ID[card_id]
    text = Text.assemble(("Ingredients ", "bold"), (card.name, "italic"))
    labels = ("bond", "scale", "grass", "root")
    for index, ((glyph, points), label) in enumerate(zip(ingredient_points(card_id), labels, strict=False)):
        entry = Text.assemble(glyph, (f" {label}", "dim"), (f" {points}", "bold"))
        if index % 2 == 0:
            text.append("\n ")
            entry.pad_right(12 - entry.cell_len)
        text.append_text(entry)
    return text


def secret_line(recipe_id: str, ingredients_id: str) -> Text:
    """Both secret cards on one short line, e.g. ``◎3 Cr+Az4 Am/Ja1 ◆◆2 ∞3 D2 F3 R1``."""
    recipe = RECIPES_BY_ID[recipe_id]
    text = Text.assemble(
        (f"{ANIMAL_GLYPHS[recipe.companion]}{recipe.companion_points} ", "bold"),
        colour_text(recipe.colour_pair[0], True), ("+", "dim"), colour_text(recipe.colour_pair[1], True),
        f"{recipe.colour_pair_points} ",
        colour_text(recipe.monochrome[0], True), ("/", "dim"), colour_text(recipe.monochrome[1], True),
        f"{recipe.monochrome_points} ", (GEM * 2, GEM_STYLE), f"{recipe.gem_pair_points}",
    )
    for glyph, points in ingredient_points(ingredients_id):
        text.append(" ")
        text.append_text(glyph)
        text.append(str(points))
    return text
