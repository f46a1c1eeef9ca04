"""Drawing helpers for :class:`tui.games.witchdraft.potion_grid.PotionGrid`.

A :class:`Canvas` holds characters at world character positions: cell
``(x, y)`` of the play area starts at character ``(x * width, y * height)`` for
the zoom's cell size. :func:`draw_card` paints one card (or the ghost of one)
and :func:`draw_dots` marks empty cells, so the widget only has to crop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from rich.text import Text

from engine.witchdraft.cards import CARDS, Half, Ingredient
from engine.witchdraft.geometry import DIRECTIONS, Cell, Placement, cells, edge_symbols
from tui.games.witchdraft.look import (
    ANIMAL_GLYPHS,
    APPRENTICE_GLYPH,
    CHIP_TEXT,
    COLOUR_BACKGROUNDS,
    COLOUR_STYLES,
    GEM,
    GEM_COLOUR,
    INGREDIENT_LETTERS,
    INGREDIENT_STYLES,
    colour_letter,
    ghost_hues,
)

Zoom = str
"""``"compact"`` or ``"detailed"``."""

CELL_SIZES: dict[Zoom, tuple[int, int]] = {"compact": (4, 2), "detailed": (8, 4)}
"""Characters per play-area cell (width, height) at each zoom level."""


@dataclass(frozen=True)
class Palette:
    """How a card is painted: ``fg`` for borders and names, ``bg`` inside the card."""

    fg: str
    bg: str
    heavy: bool = False
    """The ghost: heavy borders in detailed zoom, hatched in compact zoom."""
    mark: str = ""
    """The ghost's verdict in a glyph (✓ legal, ✗ illegal), so it reads without colour: it hatches the compact
    ghost and sits inside each detailed half."""


APPRENTICE_PALETTE = Palette("#d7d7d7", "#3a3a3a")
"""Apprentice cards have no colour: plain grey."""

def ghost_palette(legal: bool) -> Palette:
    """The card being placed: green and ✓ on a legal spot, red and ✗ on an illegal one (or the theme's hues)."""
    return Palette(*ghost_hues(legal), heavy=True, mark="✓" if legal else "✗")

DOT = "·"


@lru_cache(maxsize=256)
def style(fg: str = "", bg: str = "", bold: bool = False, dim: bool = False) -> Style:
    """A cached Rich style."""
    return Style(color=fg or None, bgcolor=bg or None, bold=bold, dim=dim)


class Canvas:
    """Characters with styles at world character positions; later writes win."""

    def __init__(self) -> None:
        self.chars: dict[tuple[int, int], tuple[str, Style]] = {}

    def put(self, x: int, y: int, text: str, text_style: Style) -> None:
        """Write ``text`` (one cell per character) starting at ``(x, y)``."""
        for offset, char in enumerate(text):
            self.chars[x + offset, y] = (char, text_style)

    def fill(self, x: int, y: int, width: int, height: int, text_style: Style) -> None:
        """Blank a rectangle in ``text_style`` (its background shows)."""
        for row in range(y, y + height):
            self.put(x, row, " " * width, text_style)

    def crop(self, left: int, top: int, width: int, height: int) -> list[Text]:
        """The rectangle as one Text per row, runs of one style joined."""
        lines = []
        blank = (" ", Style.null())
        for y in range(top, top + height):
            line = Text(no_wrap=True, overflow="crop")
            run, run_style = "", Style.null()
            for x in range(left, left + width):
                char, char_style = self.chars.get((x, y), blank)
                if char_style != run_style and run:
                    line.append(run, run_style)
                    run = ""
                run += char
                run_style = char_style
            if run:
                line.append(run, run_style)
            lines.append(line)
        return lines


def palette_of(card_id: str) -> Palette:
    """The card's own palette (grey for apprentices)."""
    colour = CARDS[card_id].colour
    # Built at every draw, so the hues are the current theme's.
    return APPRENTICE_PALETTE if colour is None else Palette(COLOUR_STYLES[colour], COLOUR_BACKGROUNDS[colour])


def _middle(half: Half, bg: str) -> tuple[str, Style]:
    if half.gem:
        return GEM, style(GEM_COLOUR, bg, bold=True)
    if half.circle is not None:
        return INGREDIENT_LETTERS[half.circle], style(CHIP_TEXT, INGREDIENT_STYLES[half.circle], bold=True)
    return " ", style(bg=bg)


def _glyph(card_id: str) -> str:
    animal = CARDS[card_id].animal
    return APPRENTICE_GLYPH if animal is None else ANIMAL_GLYPHS[animal]


def _label(card_id: str) -> str:
    animal = CARDS[card_id].animal
    return "Appr." if animal is None else animal.value


def draw_dots(canvas: Canvas, zoom: Zoom, empty: list[Cell]) -> None:
    """A faint dot in the middle of each empty cell, to count squares by."""
    width, height = CELL_SIZES[zoom]
    dot = style("#5a5a5a")
    for x, y in empty:
        if zoom == "compact":
            canvas.put(x * width + 1, y * height, DOT, dot)
        else:
            canvas.put(x * width + 3, y * height + 1, DOT, dot)


def draw_card(canvas: Canvas, card_id: str, placement: Placement, zoom: Zoom, palette: Palette) -> None:
    """Paint the card's two cells at ``placement`` in ``palette``."""
    card = CARDS[card_id]
    both = cells(placement)
    symbols = edge_symbols(card, placement)
    for index, (cell, half) in enumerate(zip(both, card.halves, strict=False)):
        other = both[1 - index]
        side = (other[0] - cell[0], other[1] - cell[1])
        if zoom == "compact":
            _compact_cell(canvas, card_id, cell, index, half, side, palette)
        else:
            first = cell == min(both, key=lambda c: (c[1], c[0]))
            _detailed_cell(canvas, card_id, cell, index, half, side, first, palette)
            for direction in DIRECTIONS:
                symbol = symbols.get((cell, direction))
                if symbol is not None:
                    _edge_symbol(canvas, cell, direction, symbol, palette)


def _compact_cell(canvas: Canvas, card_id: str, cell: Cell, index: int, half: Half, side: Cell,
                  palette: Palette) -> None:
    # Three characters of content, then a gutter column and a gutter row that
    # stay empty between cards and take the card's colour between its halves.
    # The ghost is hatched so it never looks like a placed card of a similar colour.
    x0, y0 = cell[0] * 4, cell[1] * 2
    blank = ("✗" if palette.mark == "✗" else "░") if palette.heavy else " "
    plain = style(palette.fg if palette.heavy else "", palette.bg, dim=palette.heavy)
    canvas.put(x0, y0, blank * 3, plain)
    if side == (1, 0):
        canvas.put(x0 + 3, y0, blank, plain)
    if side == (0, 1):
        canvas.put(x0, y0 + 1, blank * 3, plain)
    if index == 0:
        canvas.put(x0, y0, _glyph(card_id), style(palette.fg, palette.bg, bold=True))
    if half.gem or half.circle is not None:
        canvas.put(x0 + 2 - index, y0, *_middle(half, palette.bg))
    letter = colour_letter(CARDS[card_id].colour)
    if index == 1 and letter:
        canvas.put(x0 + 2, y0, letter, style(palette.fg, palette.bg, bold=True))


_LINES = {False: ("─", "│", "╭", "╮", "╰", "╯"), True: ("━", "┃", "┏", "┓", "┗", "┛")}


def _detailed_cell(canvas: Canvas, card_id: str, cell: Cell, index: int, half: Half, side: Cell,
                   first: bool, palette: Palette) -> None:
    # An 8x4 block inside one border; the side facing the other half stays open.
    x0, y0 = cell[0] * 8, cell[1] * 4
    line = style(palette.fg, palette.bg, bold=palette.heavy)
    across, down, *corners = _LINES[palette.heavy]
    canvas.fill(x0, y0, 8, 4, style(bg=palette.bg))
    open_n, open_s, open_w, open_e = side == (0, -1), side == (0, 1), side == (-1, 0), side == (1, 0)
    if not open_n:
        canvas.put(x0 + 1, y0, across * 6, line)
    if not open_s:
        canvas.put(x0 + 1, y0 + 3, across * 6, line)
    for row in (1, 2):
        if not open_w:
            canvas.put(x0, y0 + row, down, line)
        if not open_e:
            canvas.put(x0 + 7, y0 + row, down, line)
    for (cx, cy), corner in zip(((0, 0), (7, 0), (0, 3), (7, 3)), corners, strict=False):
        vertical_open = open_n if cy == 0 else open_s
        horizontal_open = open_w if cx == 0 else open_e
        char = down if vertical_open else across if horizontal_open else corner
        canvas.put(x0 + cx, y0 + cy, char, line)
    if first and open_e:
        canvas.put(x0 + 7, y0 + 1, "┊", line)
        canvas.put(x0 + 7, y0 + 2, "┊", line)
    if first and open_s:
        canvas.put(x0 + 1, y0 + 3, "┈" * 6, line)
    if index == 0:
        canvas.put(x0 + 2, y0 + 1, _label(card_id), style(palette.fg, palette.bg, bold=True))
    if palette.mark:
        canvas.put(x0 + 1, y0 + 2, palette.mark, style(palette.fg, palette.bg, bold=True))
    letter = colour_letter(CARDS[card_id].colour)
    if index == 1 and letter:
        canvas.put(x0 + 2, y0 + 1, letter, style(palette.fg, palette.bg, bold=True))
    middle, middle_style = _middle(half, palette.bg)
    canvas.put(x0 + 3, y0 + 2, middle, middle_style)


def _edge_symbol(canvas: Canvas, cell: Cell, direction: str, symbol: Ingredient, palette: Palette) -> None:
    x0, y0 = cell[0] * 8, cell[1] * 4
    dx, dy = {"N": (3, 0), "S": (3, 3), "W": (0, 1), "E": (7, 1)}[direction]
    canvas.put(x0 + dx, y0 + dy, INGREDIENT_LETTERS[symbol], style(INGREDIENT_STYLES[symbol], palette.bg, bold=True))
