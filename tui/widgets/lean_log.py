"""A RichLog whose lines cost what their text costs, not six times that.

Textual 8.2.8's :class:`~textual.strip.Strip` makes seven caches when it is
made, about 1.3 KB before it holds anything, and a RichLog keeps one Strip per
line. Drawing a line adds two more Strips, each with its own seven caches: the
line cut to the log's width (kept in the line's cache and in the log's cache of
1,024 drawn lines) and that cut line in the log's colours (kept in the cut
line's cache). A log that scrolls as it is written draws every line once, so
a game's log of 2,000 lines held 12.8 MB (6.4 KB a line), freed only when the
game was left, and a seat's heap kept that high-water mark for good.

:class:`LeanLog` keeps each line as a :class:`LeanStrip`, which makes a cache
only when one is used, cuts lines from a throw-away copy so nothing drawn is
kept with the line, and remembers a few screens of drawn lines. It draws
exactly what a RichLog draws. It reads RichLog's private ``_line_cache``,
``_start_line`` and ``_widest_line_width``, behind the exact Textual pin.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import LRUCache
from textual.strip import Strip
from textual.widgets import RichLog

from tui.lean_strips import make_cache, start_lean

DRAWN_LINES_KEPT = 256
"""Drawn lines a log remembers (a RichLog remembers 1,024): a few screens of scrolling back and forth."""


class LeanStrip(Strip):
    """A Strip that makes each of its caches the first time it is used; until then it holds only its segments."""

    __slots__ = ()

    def __init__(self, segments: Iterable[Segment], cell_length: int | None = None) -> None:
        """The line of ``segments`` (``cell_length`` when known), with no cache made yet."""
        start_lean(self, segments, cell_length)

    def __getattr__(self, name: str) -> Any:
        # Called only for a slot never set: one of the caches, made now.
        return make_cache(self, name)

    @classmethod
    def of(cls, strip: Strip) -> LeanStrip:
        """``strip``'s segments as a lean strip."""
        return strip if isinstance(strip, LeanStrip) else cls(strip._segments, strip._cell_length)


class LeanLog(RichLog):
    """A :class:`~textual.widgets.RichLog` that keeps its lines lean and a few screens of drawn lines."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Take RichLog's arguments."""
        super().__init__(*args, **kwargs)
        self._line_cache = LRUCache(DRAWN_LINES_KEPT)

    def write(self, *args: Any, **kwargs: Any) -> LeanLog:
        """Write as RichLog does, then keep the new lines lean."""
        super().write(*args, **kwargs)
        lines = self.lines
        index = len(lines) - 1
        while index >= 0 and not isinstance(lines[index], LeanStrip):  # the new lines are the last ones
            lines[index] = LeanStrip.of(lines[index])
            index -= 1
        return self

    def _render_line(self, y: int, scroll_x: int, width: int) -> Strip:
        if y >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        key = (y + self._start_line, scroll_x, width, self._widest_line_width)
        drawn = self._line_cache.get(key)
        if drawn is not None:
            return drawn
        stored = self.lines[y]
        # Cut from a copy, so nothing drawn is kept with the line. What crop_extend does, without its cache: a
        # line already the right width comes back as the copy itself, which would then hold itself in it.
        copy = Strip(stored._segments, stored._cell_length)
        drawn = copy.extend_cell_length(scroll_x + width, self.rich_style).crop(scroll_x, scroll_x + width)
        self._line_cache[key] = drawn
        return drawn
