"""How WitchDraft cards look everywhere on screen: one glyph and one colour per thing.

The potion grid, the hand panel and the score screen all draw from these
tables, so a raven is the same symbol on the grid as in the hand, and no
companion shares a letter with an ingredient.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import TypeVar

from rich.text import Text

from engine.witchdraft.cards import Animal, Colour, Ingredient
from tui.widgets.element_look import LOOK

E = TypeVar("E", bound=StrEnum)


class _ThemeHues(Mapping[E, str]):
    """Fixed hues that a theme may recolour: key ``k`` reads the theme's ``potion-<k><suffix>`` variable where the
    theme names one (Coven's high-contrast and colour-blind themes do), at every draw."""

    def __init__(self, hues: dict[E, str], suffix: str = "") -> None:
        self._hues, self._suffix = hues, suffix

    def __getitem__(self, key: E) -> str:
        hue = self._hues[key]
        return LOOK.theme.get(f"potion-{key.value.lower().replace(' ', '-')}{self._suffix}", hue)

    def __iter__(self) -> Iterator[E]:
        return iter(self._hues)

    def __len__(self) -> int:
        return len(self._hues)


ANIMAL_GLYPHS: dict[Animal, str] = {
    Animal.OWL: "◎",
    Animal.CAT: "ω",
    Animal.TOAD: "ö",
    Animal.RAVEN: "Ѵ",
    Animal.NEWT: "∿",
}
"""A one-cell symbol per companion (never a letter, so it can't be read as an ingredient)."""

APPRENTICE_GLYPH = "⌂"
"""The apprentice card's symbol."""

COLOUR_STYLES: Mapping[Colour, str] = _ThemeHues({
    Colour.CRIMSON: "#ff6b81",
    Colour.AMBER: "#ffbb4d",
    Colour.JADE: "#4fdc9c",
    Colour.AZURE: "#66b8ff",
    Colour.VIOLET: "#c79bff",
})
"""Text colour of each card colour (the grid's card borders and names); a theme's ``potion-crimson``…"""

COLOUR_BACKGROUNDS: Mapping[Colour, str] = _ThemeHues({
    Colour.CRIMSON: "#5a1a2b",
    Colour.AMBER: "#5a3d0c",
    Colour.JADE: "#114a33",
    Colour.AZURE: "#153a66",
    Colour.VIOLET: "#3f2166",
}, "-background")
"""Inside of a card of each colour on the grid; a theme's ``potion-crimson-background``…"""

COLOUR_LETTERS: dict[Colour, str] = {
    Colour.CRIMSON: "c", Colour.AMBER: "a", Colour.JADE: "j", Colour.AZURE: "z", Colour.VIOLET: "v",
}
"""With the "Colour-blind letters" setting, each grid card's colour as a letter in its second half: lower case,
so it never reads as an ingredient's capital beside it."""


def colour_letter(colour: Colour | None) -> str:
    """The card colour's letter while the setting asks for letters, else "" (apprentices have no colour)."""
    return COLOUR_LETTERS[colour] if LOOK.letters and colour is not None else ""


INGREDIENT_LETTERS: dict[Ingredient, str] = {
    Ingredient.DRAGON_SCALE: "D",
    Ingredient.FLEA_GRASS: "F",
    Ingredient.FIRE_ROOT: "R",
}
"""Half symbols are drawn as these letters; a whole one in a circle as the letter on its colour."""

INGREDIENT_STYLES: Mapping[Ingredient, str] = _ThemeHues({
    Ingredient.DRAGON_SCALE: "#8fe3ff",
    Ingredient.FLEA_GRASS: "#c2f56b",
    Ingredient.FIRE_ROOT: "#ffa25c",
})
"""Text colour of each ingredient's symbols (the chips' colour); a theme's ``potion-dragon-scale``…"""

GHOST_HUES: dict[bool, tuple[str, str]] = {True: ("#d8ffd8", "#2f8f3f"), False: ("#ffe0e0", "#b02a2a")}
"""The card being placed, (text, inside): green on a legal spot (True), red on an illegal one."""


def ghost_hues(legal: bool) -> tuple[str, str]:
    """The ghost's (text, inside) colours now: a theme's ``potion-legal``/``potion-illegal`` (and ``-background``)."""
    name = "potion-legal" if legal else "potion-illegal"
    text, inside = GHOST_HUES[legal]
    return LOOK.theme.get(name, text), LOOK.theme.get(f"{name}-background", inside)

CHIP_TEXT = "#101010"
"""The letter of a whole (circled) ingredient, dark on the ingredient's colour."""

GEM = "◆"
GEM_COLOUR = "#f4f8ff"
GEM_STYLE = f"bold {GEM_COLOUR}"
BOND = "∞"


def chip_text(ingredient: Ingredient) -> Text:
    """A whole ingredient symbol in a circle: its letter on the ingredient's colour."""
    return Text(INGREDIENT_LETTERS[ingredient], style=f"bold {CHIP_TEXT} on {INGREDIENT_STYLES[ingredient]}")


def legend_text() -> Text:
    """The key to every glyph, in lines of at most 30 cells for a side panel."""
    text = Text("Key", style="bold")

    def entry(glyph: Text | str, words: str, first: bool = False) -> None:
        text.append("\n " if first else "  ")
        text.append_text(glyph if isinstance(glyph, Text) else Text(glyph, style="bold"))
        text.append(f" {words}", style="dim")

    glyphs = list(ANIMAL_GLYPHS.items())
    for index, (animal, glyph) in enumerate(glyphs[:3]):
        entry(glyph, animal.value.lower(), first=index == 0)
    for index, (animal, glyph) in enumerate(glyphs[3:]):
        entry(glyph, animal.value.lower(), first=index == 0)
    entry(APPRENTICE_GLYPH, "apprentice")
    entry(Text(GEM, style=GEM_STYLE), "gem", first=True)
    entry(BOND, "bond: two halves meet")
    names = {Ingredient.DRAGON_SCALE: "dragon scale", Ingredient.FLEA_GRASS: "flea grass",
             Ingredient.FIRE_ROOT: "fire root"}
    for index, (ingredient, name) in enumerate(names.items()):
        letter = Text(INGREDIENT_LETTERS[ingredient], style=f"bold {INGREDIENT_STYLES[ingredient]}")
        entry(letter, name, first=index != 1)
    entry("D", "half symbol, on an edge", first=True)
    entry(chip_text(Ingredient.DRAGON_SCALE), "whole symbol, in a circle", first=True)
    # The running score's recipe labels: Cr+Az scores pairs of both colours, Am/Ja each card of either.
    entry("+", "colour pair", first=True)
    entry("/", "either colour")
    entry("2×3=6", "count × points = BP", first=True)
    if LOOK.letters:
        for index, (colour, initial) in enumerate(COLOUR_LETTERS.items()):
            entry(Text(initial, style=f"bold {COLOUR_STYLES[colour]}"), colour.value.lower(), first=index in (0, 3))
    return text
