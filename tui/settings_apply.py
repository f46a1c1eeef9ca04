"""Putting a player's settings into effect on the running app (theme, colour, motion).

Kept apart from :mod:`tui.player_settings` (what the settings are) so the CLI can read
and write settings without Textual. Works on any Textual app; the attributes
Coven's own app adds (``colourless``, ``base_auto_delay``, ``auto_delay``) are
set only where it has them.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from tui.player_settings import Settings
from tui.widgets.element_look import set_element_look

FALLBACK_THEME = "textual-dark"
"""The theme used when the chosen one is not registered (an older or newer Coven's name)."""


def apply_settings(app: App[Any], settings: Settings) -> None:
    """Set the theme, colour and motion of ``app`` from ``settings``."""
    theme = str(settings["theme"])
    app.theme = theme if theme in app.available_themes else FALLBACK_THEME
    if hasattr(app, "kept_theme"):
        app.kept_theme = app.theme  # what the player's settings hold: no need to keep it again
    # Without colour, a colour's letter is the only thing on the grid that names it: letters join the symbols.
    colourless = bool(settings["no_color"]) or bool(getattr(app, "no_color", False))
    set_element_look(bool(settings["glyphs"]) or colourless, app.current_theme.variables)
    app.animation_level = "none" if settings["reduced_motion"] else "full"
    if hasattr(app, "colourless"):
        app.colourless = bool(settings["no_color"])
    base = getattr(app, "base_auto_delay", None)
    if isinstance(base, float | int):
        # Reduced motion: automatic steps follow one another without the pause that shows each.
        app.auto_delay = 0.0 if settings["reduced_motion"] else float(base)  # type: ignore[attr-defined]
    app.refresh(layout=False)
    for screen in app.screen_stack:
        screen.refresh()
