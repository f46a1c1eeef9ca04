"""The contrast of what a screen actually draws: each segment's text colour against its own background.

Theme pairs prove a theme's variables; widgets then blend, tint, fade and dim
them. This reads the colours of the drawn segments instead, after all of that,
so a test can hold a screen in ``coven-high-contrast`` to its 7:1 promise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from textual.app import App
from textual.color import Color

from tui.contrast_floor import DIM_FACTOR, HIGH_CONTRAST_FLOOR
from tui.themes import contrast_ratio


@dataclass(frozen=True)
class DrawnText:
    """A run of drawn text and the contrast of its colours."""

    text: str
    row: int
    ratio: float


def _colour(colour: RichColor) -> Color:
    triplet = colour.get_truecolor()
    return Color(triplet.red, triplet.green, triplet.blue)


def segment_contrast(segment: Segment) -> float | None:
    """The contrast of a segment's text against its background as a terminal shows it, or None (no text)."""
    style = segment.style
    if style is None or not segment.text.strip() or style.color is None or style.bgcolor is None:
        return None
    foreground, background = _colour(style.color), _colour(style.bgcolor)
    if style.reverse:
        foreground, background = background, foreground
    if style.dim:
        foreground = background.blend(foreground, DIM_FACTOR)
    return contrast_ratio(foreground, background)


def drawn_texts(app: App[Any]) -> list[DrawnText]:
    """Every run of text on ``app``'s screen, with its contrast."""
    found: list[DrawnText] = []
    for row, strip in enumerate(app.screen._compositor.render_strips()):
        for segment in strip:
            ratio = segment_contrast(segment)
            if ratio is not None:
                found.append(DrawnText(segment.text.strip(), row, ratio))
    return found


def too_faint(app: App[Any], floor: float = HIGH_CONTRAST_FLOOR) -> list[tuple[str, int, float]]:
    """The drawn texts under ``floor``: (text, row, ratio rounded)."""
    return [(drawn.text, drawn.row, round(drawn.ratio, 2)) for drawn in drawn_texts(app) if drawn.ratio < floor]
