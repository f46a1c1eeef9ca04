"""Names cut to the cells a line has, so what stands beside them (a score, tokens, a border) always shows.

A name from a player may hold anything a name may: wide letters, combining
marks, emoji joined by zero-width joiners. It is cut between graphemes, by
their width on screen, and ends in "…" when cut, so a cut never splits a
glyph in two or leaves half of a wide one. :class:`FittedLine` draws a line
built for the width it is given, every time that width changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len, split_graphemes
from rich.text import Text
from textual.widget import Widget

ELLIPSIS = "…"


def cut_to_width(text: str, width: int) -> str:
    """``text`` whole when it fits ``width`` cells, else its first graphemes and "…" within ``width``."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    spans, _ = split_graphemes(text)
    room = width - cell_len(ELLIPSIS)
    end = used = 0
    for _start, stop, cells in spans:
        if used + cells > room:
            break
        used += cells
        end = stop
    return text[:end].rstrip() + ELLIPSIS


def share_width(names: Sequence[str], width: int) -> list[str]:
    """``names`` cut so that together they take at most ``width`` cells, the longest cut first.

    Short names stay whole while a long one gives up its room: two seats, one
    named with 64 letters, keep the short name as it is.
    """
    widths = [cell_len(name) for name in names]
    if sum(widths) <= width:
        return list(names)
    cap = max(widths)
    while cap > 1 and sum(min(each, cap) for each in widths) > width:
        cap -= 1
    return [cut_to_width(name, cap) for name in names]


class FittedLine(Widget):
    """One line drawn by a builder that is told the width it has (content width, without padding)."""

    DEFAULT_CSS = "FittedLine { height: 1; }"

    def __init__(self, build: Callable[[int], Text] | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._build = build

    def show(self, build: Callable[[int], Text]) -> None:
        """Draw the line with ``build`` from now on (it is called again whenever the width changes)."""
        self._build = build
        self.refresh()

    def render(self) -> Text:
        """The line for the width this widget has now."""
        if self._build is None:
            return Text()
        line = self._build(self.size.width)
        line.no_wrap = True
        line.overflow = "crop"
        return line


__all__ = ["ELLIPSIS", "FittedLine", "cut_to_width", "share_width"]
