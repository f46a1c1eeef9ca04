"""The lean log (tui.widgets.lean_log): draws what a RichLog draws, and keeps its lines without their caches.

The same styled, wrapped texts go to a RichLog and a LeanLog side by side;
every row each draws, scrolled to several places, is the same. A LeanLog's
kept lines have made no cache, its drawn lines are bounded, and the same long
log holds a fraction of a RichLog's memory.
"""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import RichLog

from tests.helpers.strips import made_caches
from tests.helpers.waiting import until
from tui.widgets.lean_log import DRAWN_LINES_KEPT, LeanLog, LeanStrip


def line(index: int) -> Text:
    """A log line as a game writes one: a bold name, styled words, some long enough to wrap."""
    text = Text()
    text.append(f"Merlin {index}", style="bold")
    text.append(" plays ")
    text.append("Fire Drake", style="red on grey23")
    text.append(" and draws a card." + " Then another." * (index % 4))
    return text


class TwoLogs(App[None]):
    CSS = "RichLog { width: 1fr; height: 1fr; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield RichLog(id="rich", wrap=True, markup=False, max_lines=300, min_width=20)
            yield LeanLog(id="lean", wrap=True, markup=False, max_lines=300, min_width=20)


def rows(log: RichLog) -> list[list[tuple[str, object]]]:
    """Every row the log draws now, as (text, style) pairs."""
    return [[(segment.text, segment.style) for segment in log.render_line(y)] for y in range(log.size.height)]


async def test_a_lean_log_draws_every_row_a_rich_log_draws() -> None:
    app = TwoLogs()
    async with app.run_test(size=(100, 20)) as pilot:
        rich, lean = app.query_one("#rich", RichLog), app.query_one("#lean", LeanLog)
        app.set_focus(None)  # a focused log draws on another background
        for index in range(400):  # past max_lines: the first lines go
            rich.write(line(index))
            lean.write(line(index))
        await until(pilot, lambda: rich.max_scroll_y > 0 and lean.max_scroll_y == rich.max_scroll_y,
                    "both logs laid out")
        assert len(lean.lines) == len(rich.lines) == 300
        for y in (0, 7, lean.max_scroll_y // 2, lean.max_scroll_y):
            rich.scroll_to(y=y, animate=False, immediate=True)
            lean.scroll_to(y=y, animate=False, immediate=True)
            await until(pilot, lambda y=y: rich.scroll_offset.y == lean.scroll_offset.y == y, f"scrolled to {y}")
            assert rows(lean) == rows(rich), f"scrolled to {y}"
            assert rows(lean) == rows(lean)  # drawn again from its cache: the same


async def test_a_lean_log_keeps_its_lines_lean_and_its_drawn_lines_few() -> None:
    app = TwoLogs()
    async with app.run_test(size=(100, 20)) as pilot:
        lean = app.query_one("#lean", LeanLog)
        for index in range(300):
            lean.write(line(index))
            if index % 10 == 0:
                await pilot.pause()  # drawn as it scrolls, as a game's log is
        await until(pilot, lambda: lean.max_scroll_y > 0 and lean.scroll_offset.y == lean.max_scroll_y, "at the end")
        for _ in range(5):  # lines exactly as wide as the log: cut, each is already what is drawn
            lean.write(Text("x" * lean.scrollable_content_region.width, style="bold"))
        for y in range(0, lean.max_scroll_y + 5, 5):  # every line drawn at least once
            lean.scroll_to(y=y, animate=False, immediate=True)
            rows(lean)
        assert all(isinstance(kept, LeanStrip) for kept in lean.lines)
        assert [made_caches(kept) for kept in lean.lines] == [[] for _ in lean.lines]
        assert 0 < len(lean._line_cache) <= DRAWN_LINES_KEPT
        # A drawn line never holds itself (a cycle only the collector frees, and a served seat's collector is
        # frozen with what the warm parent made).
        for drawn in (lean._line_cache.get(key) for key in list(lean._line_cache.keys())):
            assert drawn is not None
            for name in made_caches(drawn):
                assert all(kept is not drawn for kept in getattr(drawn, name)._cache.values()), name


async def test_a_lean_log_line_costs_a_fraction_of_a_rich_log_line() -> None:
    # The first test of this worker may run before or after an app has made every Strip lean: the bounds hold both
    # ways.
    class OneLog(App[None]):
        def __init__(self, kind: type[RichLog]) -> None:
            super().__init__()
            self.kind = kind

        def compose(self) -> ComposeResult:
            yield self.kind(id="log", wrap=True, markup=False, max_lines=2000, min_width=20)

    async def write(pilot: Any, log: RichLog, first: int, count: int) -> int:
        for index in range(first, first + count):
            log.write(line(index))
            if index % 10 == 0:
                await pilot.pause()  # drawn as it scrolls, as a game's log is
        await until(pilot, lambda: log.scroll_offset.y == log.max_scroll_y > 0, "scrolled to the end")
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    per_line = {}
    for kind in (RichLog, LeanLog, RichLog, LeanLog):  # the first pair fills Rich's process-wide caches
        app = OneLog(kind)
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one("#log", RichLog)
            await until(pilot, lambda log=log: log.size.width > 0, "the log laid out")
            tracemalloc.start()
            try:
                # Past the first screens, whose drawn lines both keep a bounded number of: what each line adds.
                before = await write(pilot, log, 0, 500)
                after = await write(pilot, log, 500, 1000)
            finally:
                tracemalloc.stop()
            per_line[kind] = (after - before) / 1000
    # About 1 KB against 8.6 KB (4.5 KB once every Strip is lean, tui.lean_strips, as in the app).
    assert 0 < per_line[LeanLog] < min(2000, per_line[RichLog] / 3), per_line
