"""How the theme reaches every widget: the theme variables Coven's own styles use, with their defaults.

A widget's own ``.tcss`` (its ``DEFAULT_CSS``) colours an element's border or a
winner's frame with a fixed hue, so any Textual app can host it. Coven's app
adds :data:`THEMED_CSS` over those: the same rules written with theme
variables (``$element-fire``, ``$victory``…), which beat a widget's default
styles. Textual refuses a stylesheet naming a variable its theme does not
define, so :func:`theme_variable_defaults` gives every theme (Textual's own
too) the fixed hues; a theme that names one of them itself, as Coven's high
contrast and colour-blind themes do, wins.
"""

from __future__ import annotations

from pathlib import Path

from rich.color import Color as RichColor
from rich.terminal_theme import TerminalTheme

from tui.themes import COLOUR_BLIND, HIGH_CONTRAST, OKABE_ITO
from tui.widgets.element_look import ELEMENT_HUES, VICTORY_GOLD

VICTORY = VICTORY_GOLD
"""The gold of a winner's frame on the final screens, when the theme names no ``victory``."""

THEMED_CSS = Path(__file__).with_name("themed.tcss")
"""The rules that colour meanings by theme variables (in the app's ``CSS_PATH``)."""


def theme_variable_defaults() -> dict[str, str]:
    """Every variable :data:`THEMED_CSS` uses, at the hue it has when the theme does not name it."""
    defaults = {f"element-{name}": hue for name, hue in ELEMENT_HUES.items()}
    defaults["victory"] = VICTORY
    return defaults


def _ansi(background: str, foreground: str, hues: list[str]) -> TerminalTheme:
    """A terminal palette from hex colours: black, red, green, yellow, blue, magenta, cyan, white (bright alike)."""
    def rgb(hue: str) -> tuple[int, int, int]:
        triplet = RichColor.parse(hue).get_truecolor()
        return triplet.red, triplet.green, triplet.blue
    return TerminalTheme(rgb(background), rgb(foreground), [rgb(hue) for hue in hues], [rgb(hue) for hue in hues])


ANSI_COLOURS: dict[str, TerminalTheme] = {
    HIGH_CONTRAST.name: _ansi("#000000", "#FFFFFF", [
        "#000000", "#FF6B6B", "#3CFF6B", "#FFFF00", "#5CC2FF", "#D9A6FF", "#00FFFF", "#FFFFFF"]),
    COLOUR_BLIND.name: _ansi("#111111", "#F2F2F2", [
        "#111111", OKABE_ITO["vermillion"], OKABE_ITO["bluish-green"], OKABE_ITO["yellow"], OKABE_ITO["sky-blue"],
        OKABE_ITO["reddish-purple"], OKABE_ITO["sky-blue"], "#F2F2F2"]),
}
"""How Coven's own themes draw the named colours widgets write in Rich text ("bold green" for a success, "red"
for a refusal…): Textual maps those through the app's ANSI theme, so swapping it recolours them all at once.
Textual's themes keep Textual's mapping."""
