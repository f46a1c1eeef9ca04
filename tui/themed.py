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

from tui.widgets.element_look import ELEMENT_HUES

VICTORY = "#ffd75e"
"""The gold of a winner's frame on the final screens, when the theme names no ``victory``."""

THEMED_CSS = Path(__file__).with_name("themed.tcss")
"""The rules that colour meanings by theme variables (in the app's ``CSS_PATH``)."""


def theme_variable_defaults() -> dict[str, str]:
    """Every variable :data:`THEMED_CSS` uses, at the hue it has when the theme does not name it."""
    defaults = {f"element-{name}": hue for name, hue in ELEMENT_HUES.items()}
    defaults["victory"] = VICTORY
    return defaults
