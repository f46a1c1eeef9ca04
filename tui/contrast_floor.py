"""The high-contrast theme's floor: every drawn text at least 7:1 against its own background.

The theme's colours meet 7:1 (a test proves its pairs), but widgets then fade
them: a discarded wizard is tinted, a caption is ``$foreground 70%``, a hint is
Rich's ``dim``, a disabled key is faded. Under ``coven-high-contrast`` this
line filter reads each drawn segment's final colours and, where the text falls
under the floor, moves it toward white or black (whichever the background
allows more of) just far enough: faded things still look fainter than the
rest, but stay readable. A ``dim`` segment is given the dimmed colour outright
(the terminal's own faint attribute would fade it again, by an amount Coven
cannot know).
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from tui.themes import contrast_ratio

HIGH_CONTRAST_FLOOR = 7.0
"""WCAG AAA: what coven-high-contrast promises for every text against its background."""

DIM_FACTOR = 0.5
"""How far faint text goes toward its background (Textual's own dim filter's factor)."""

WHITE, BLACK = Color(255, 255, 255), Color(0, 0, 0)
NO_DIM = Style(dim=False)


def _textual(colour: RichColor) -> Color:
    triplet = colour.get_truecolor()
    return Color(triplet.red, triplet.green, triplet.blue)


@lru_cache(4096)
def lifted(foreground: Color, background: Color, floor: float = HIGH_CONTRAST_FLOOR) -> Color:
    """``foreground``, moved toward white or black just enough to reach ``floor`` against ``background``.

    Unchanged when it already does; the extreme itself when even that falls short.
    """
    if contrast_ratio(foreground, background) >= floor:
        return foreground
    target = WHITE if contrast_ratio(WHITE, background) >= contrast_ratio(BLACK, background) else BLACK
    low, high = 0.0, 1.0  # how far toward the target: the least that reaches the floor
    for _ in range(12):
        middle = (low + high) / 2
        if contrast_ratio(foreground.blend(target, middle), background) >= floor:
            high = middle
        else:
            low = middle
    return foreground.blend(target, high)


@lru_cache(1024)
def usable_background(background: Color, floor: float = HIGH_CONTRAST_FLOOR) -> Color:
    """``background``, or, when neither white nor black text reaches ``floor`` on it (a mid-tone highlight),
    the nearest colour toward black or white on which one of them does."""
    if max(contrast_ratio(WHITE, background), contrast_ratio(BLACK, background)) >= floor:
        return background
    darker = contrast_ratio(WHITE, background) >= contrast_ratio(BLACK, background)
    return lifted(background, WHITE if darker else BLACK, floor)


def _floored(style: Style, background: Color, floor: float) -> Style:
    """``style`` with its text colour at ``floor`` or above (dim resolved into the colour)."""
    back = style.bgcolor if style.bgcolor is not None and not style.bgcolor.is_default else None
    back_colour = _textual(back) if back is not None else background
    usable = usable_background(back_colour, floor)
    if style.reverse:
        # The text shows in the background colour on the foreground one: move the colour that fills the
        # cell (the ratio is the same both ways, and a black text on a grey fill can only gain that way).
        if back is None or style.color is None or style.color.is_default:
            return style
        return style + Style(color=lifted(_textual(style.color), usable_background(back_colour, floor),
                                          floor).rich_color)
    floored = style if usable == back_colour else style + Style(bgcolor=usable.rich_color)
    if style.color is None or style.color.is_default:
        return floored
    fore_colour = _textual(style.color)
    if style.dim:
        fore_colour = back_colour.blend(fore_colour, DIM_FACTOR)
    return floored + Style(color=lifted(fore_colour, usable, floor).rich_color) + NO_DIM


class ContrastFloor(LineFilter):
    """Lifts drawn text that falls under a contrast floor against its own background (see the module)."""

    def __init__(self, floor: float = HIGH_CONTRAST_FLOOR, enabled: bool = True) -> None:
        """Hold every text to ``floor``:1."""
        super().__init__(enabled=enabled)
        self.floor = floor

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Each segment's colours lifted where its text would fall short (a blank one keeps its colour, but
        shares a mid-tone background's move, so a highlighted row stays one colour)."""
        return [
            Segment(segment.text, _style_floored(segment.style, background, self.floor, bool(segment.text.strip())),
                    segment.control)
            if segment.style is not None and not segment.control else segment
            for segment in segments
        ]


@lru_cache(4096)
def _style_floored(style: Style, background: Color, floor: float, has_text: bool) -> Style:
    if has_text:
        return _floored(style, background, floor)
    if style.bgcolor is None or style.bgcolor.is_default or style.reverse:
        return style
    usable = usable_background(_textual(style.bgcolor), floor)
    return style if usable == _textual(style.bgcolor) else style + Style(bgcolor=usable.rich_color)
