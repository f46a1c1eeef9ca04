"""Every Strip lean (tui.lean_strips): caches made when first used, the same lines drawn, in a real app.

Strip's own methods run unchanged on a lean strip: each result is compared with
the same method on a strip of Textual's own making (the subclass below, which
makes its caches at once as Textual's ``__init__`` does). The app makes every
Strip lean when it starts.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.strip import Strip

from tests.helpers.strips import made_caches
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.lean_strips import CACHES, OTHER_SLOTS, make_strips_lean
from tui.screens.menu import MainMenu


class FullStrip(Strip):
    """A Strip that makes all its caches at once, as Textual's own ``__init__`` does."""

    __slots__ = ()

    def __init__(self, segments: list[Segment], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        for name, size in CACHES.items():
            setattr(self, name, FIFOCache(size))
        for name, value in OTHER_SLOTS.items():
            setattr(self, name, value)


def segments() -> list[Segment]:
    return [Segment("Merlin ", Style(bold=True)), Segment("plays", None), Segment(" Fire Drake", Style(color="red"))]


def results(strip: Strip) -> list[object]:
    """What Strip's cached methods give, each asked twice (the second from its cache)."""
    grey = Style(bgcolor="grey23")
    found: list[object] = []
    for _ in range(2):
        found += [list(strip.crop(2, 9)), list(strip.crop_extend(3, 30, grey)), list(strip.apply_style(grey)),
                  list(strip.extend_cell_length(30, grey)), [list(part) for part in strip.divide([4, 12, 25])],
                  list(strip.apply_offsets(1, 2)), strip.render(_console()), strip.cell_length, strip.text]
    return found


def _console() -> object:
    from rich.console import Console

    return Console(width=80, color_system="truecolor", legacy_windows=False)


def test_a_lean_strip_makes_its_caches_only_when_used_and_gives_what_a_full_one_gives() -> None:
    assert CACHES and all(isinstance(size, int) and size > 0 for size in CACHES.values())
    make_strips_lean()
    assert make_strips_lean() is False  # once is enough
    lean = Strip(segments())
    assert made_caches(lean) == []
    assert results(lean) == results(FullStrip(segments()))
    assert set(made_caches(lean)) <= set(CACHES) and "_crop_cache" in made_caches(lean)
    assert Strip.blank(5).cell_length == 5 and made_caches(Strip.blank(5)) == []


async def test_the_app_makes_every_strip_lean_and_draws_its_menu() -> None:
    app = CovenApp(store_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the main menu")
        assert getattr(Strip, "coven_lean", False)
        drawn = app.screen._compositor.render_update(full=True)
        assert drawn is not None
        assert made_caches(Strip([Segment("x")])) == []
