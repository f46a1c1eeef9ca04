"""Coven's own themes, and the contrast arithmetic that proves the high-contrast one.

Two themes join Textual's built-in ones:

- **coven-high-contrast**: white and pure hues on black, every text and
  background pair at least WCAG AAA (7:1), which :func:`theme_pairs` and
  :func:`contrast_ratio` let a test compute from the theme itself (what
  widgets fade or tint, :mod:`tui.contrast_floor` holds to 7:1 as drawn);
- **coven-colour-blind**: the Okabe–Ito palette, whose eight colours stay
  apart for the common colour-vision deficiencies; Coven never tells two
  meanings apart by hue alone anyway (a symbol or letter goes with every
  colour that means something).

Each also names the six element colours as theme variables (``$element-fire``
…) for the widgets that draw elements, ``$victory`` for a winner's frame
(:mod:`tui.themed` gives every other theme their defaults), and WitchDraft's
potion hues (``potion-crimson``…, read by :mod:`tui.games.witchdraft.look`).
"""

from __future__ import annotations

from collections.abc import Iterator

from textual.color import Color
from textual.theme import Theme

OKABE_ITO = {
    "orange": "#E69F00", "sky-blue": "#56B4E9", "bluish-green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "reddish-purple": "#CC79A7", "grey": "#BBBBBB",
}
"""Okabe and Ito's colour-blind-safe palette (their black is the background)."""

HIGH_CONTRAST = Theme(
    name="coven-high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    accent="#FF9F1A",
    warning="#FFD000",
    error="#FF6B6B",
    success="#3CFF6B",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#1A1A1A",
    boost="#262626",
    dark=True,
    variables={
        "block-cursor-foreground": "#000000",
        "block-cursor-background": "#FFFF00",
        "block-cursor-blurred-foreground": "#FFFFFF",
        "block-cursor-blurred-background": "#404040",
        "footer-key-foreground": "#FFFF00",
        "footer-description-foreground": "#FFFFFF",
        "footer-background": "#000000",
        "input-selection-background": "#FFFF00 40%",
        "element-fire": "#FF7A4D", "element-water": "#5CC2FF", "element-nature": "#4DFF7A",
        "element-light": "#FFF04D", "element-shadow": "#D9A6FF", "element-void": "#E0E0E0",
        "victory": "#FFD000",
        # WitchDraft's potions: bright card colours on near-black insides, the ghost dark on bright.
        "potion-crimson": "#FF6B85", "potion-amber": "#FFB000", "potion-jade": "#3CFF9E",
        "potion-azure": "#5CC2FF", "potion-violet": "#D9A6FF",
        "potion-crimson-background": "#1F000A", "potion-amber-background": "#332200",
        "potion-jade-background": "#00331F", "potion-azure-background": "#002233",
        "potion-violet-background": "#220033",
        "potion-dragon-scale": "#5CE1FF", "potion-flea-grass": "#C8FF4D", "potion-fire-root": "#FF9F40",
        "potion-legal": "#000000", "potion-legal-background": "#3CFF6B",
        "potion-illegal": "#000000", "potion-illegal-background": "#FF6B6B",
    },
)

COLOUR_BLIND = Theme(
    name="coven-colour-blind",
    primary=OKABE_ITO["sky-blue"],
    secondary=OKABE_ITO["reddish-purple"],
    accent=OKABE_ITO["orange"],
    warning=OKABE_ITO["yellow"],
    error=OKABE_ITO["vermillion"],
    success=OKABE_ITO["bluish-green"],
    foreground="#F2F2F2",
    background="#111111",
    surface="#1A1A1A",
    panel="#262626",
    dark=True,
    variables={
        "block-cursor-foreground": "#111111",
        "block-cursor-background": OKABE_ITO["sky-blue"],
        "footer-key-foreground": OKABE_ITO["orange"],
        "element-fire": OKABE_ITO["vermillion"], "element-water": OKABE_ITO["sky-blue"],
        "element-nature": OKABE_ITO["bluish-green"], "element-light": OKABE_ITO["yellow"],
        "element-shadow": OKABE_ITO["reddish-purple"], "element-void": OKABE_ITO["grey"],
        "victory": OKABE_ITO["yellow"],
        # WitchDraft's potions in Okabe-Ito hues; a legal ghost is blue and an illegal one vermillion.
        "potion-crimson": OKABE_ITO["vermillion"], "potion-amber": OKABE_ITO["orange"],
        "potion-jade": OKABE_ITO["bluish-green"], "potion-azure": OKABE_ITO["sky-blue"],
        "potion-violet": OKABE_ITO["reddish-purple"],
        "potion-crimson-background": "#2E1400", "potion-amber-background": "#332300",
        "potion-jade-background": "#00241A", "potion-azure-background": "#122733",
        "potion-violet-background": "#2D1B25",
        "potion-dragon-scale": OKABE_ITO["sky-blue"], "potion-flea-grass": OKABE_ITO["yellow"],
        "potion-fire-root": OKABE_ITO["orange"],
        "potion-legal": "#FFFFFF", "potion-legal-background": OKABE_ITO["blue"],
        "potion-illegal": "#000000", "potion-illegal-background": OKABE_ITO["vermillion"],
    },
)

COVEN_THEMES: tuple[Theme, ...] = (HIGH_CONTRAST, COLOUR_BLIND)
"""Registered by the app at start, beside Textual's own."""

TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    ("foreground", "background"), ("foreground", "surface"), ("foreground", "panel"),
    ("text", "background"), ("text", "surface"), ("text", "panel"), ("text-muted", "background"),
    ("text-primary", "background"), ("text-secondary", "background"), ("text-accent", "background"),
    ("text-warning", "background"), ("text-error", "background"), ("text-success", "background"),
    ("primary", "background"), ("secondary", "background"), ("accent", "background"), ("warning", "background"),
    ("error", "background"), ("success", "background"),
    ("footer-key-foreground", "footer-background"), ("footer-description-foreground", "footer-background"),
    ("footer-foreground", "footer-background"),
    ("block-cursor-foreground", "block-cursor-background"),
    ("element-fire", "background"), ("element-water", "background"), ("element-nature", "background"),
    ("element-light", "background"), ("element-shadow", "background"), ("element-void", "background"),
    ("victory", "background"),
    ("potion-crimson", "potion-crimson-background"), ("potion-amber", "potion-amber-background"),
    ("potion-jade", "potion-jade-background"), ("potion-azure", "potion-azure-background"),
    ("potion-violet", "potion-violet-background"), ("potion-legal", "potion-legal-background"),
    ("potion-illegal", "potion-illegal-background"),
)
"""The text-on-background pairs a screen draws (as theme variables)."""


def _resolve(value: str, under: Color) -> Color:
    """A theme variable's colour drawn over ``under`` ("auto 87%" is the readable one of black or white)."""
    value = value.strip()
    if value.startswith("auto"):
        alpha = float(value.split()[1].rstrip("%")) / 100 if len(value.split()) > 1 else 1.0
        return under.blend(under.get_contrast_text(1.0), alpha)
    if value == "transparent":
        return under
    color = Color.parse(value.split()[0])
    if len(value.split()) > 1 and value.split()[1].endswith("%"):
        color = color.with_alpha(float(value.split()[1].rstrip("%")) / 100)
    return under.blend(color.with_alpha(1.0), color.a) if color.a < 1 else color


def relative_luminance(color: Color) -> float:
    """WCAG's relative luminance of an opaque colour."""
    def channel(value: int) -> float:
        scaled = value / 255
        return scaled / 12.92 if scaled <= 0.04045 else ((scaled + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast_ratio(first: Color, second: Color) -> float:
    """WCAG's contrast ratio of two opaque colours, from 1 to 21."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def theme_pairs(theme: Theme) -> Iterator[tuple[str, str, float]]:
    """Each of :data:`TEXT_PAIRS` the theme defines, with its contrast ratio as drawn."""
    variables = theme.to_color_system().generate() | theme.variables
    for text, back in TEXT_PAIRS:
        if text not in variables or back not in variables:
            continue
        background = _resolve(variables[back], _resolve(variables["background"], Color(0, 0, 0)))
        yield text, back, contrast_ratio(_resolve(variables[text], background), background)
