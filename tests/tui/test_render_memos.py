"""The memo caches of what draws are found once and emptied after a game (tui/render_memos.py)."""

from __future__ import annotations

import functools
import importlib.machinery
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cached_cell_len
from rich.style import Style
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.dom import DOMNode
from textual.geometry import Region

from tests.helpers.memo_walks import count_walks
from tui import contrast_floor, render_memos
from tui.render_memos import forget_render_memos
from tui.style_cache import mend_style_cache


@pytest.fixture(autouse=True)
def _found_afresh() -> Iterator[None]:
    render_memos.look_again()
    yield
    render_memos.look_again()


def test_memos_of_every_kind_are_found_and_unbounded_ones_left() -> None:
    memos = render_memos.render_memos()
    assert cached_cell_len in memos  # a module's function (Rich)
    assert Region.overlaps in memos  # a class's method (Textual)
    assert Style.__dict__["parse"].__func__ in memos  # a class method (Rich)
    assert Color.__dict__["rich_color"].fget in memos  # a property (Textual)
    assert StylesCache.get_inner_outer in memos  # the one Coven puts in place of Textual's (tui.style_cache)
    assert any(memo.__module__ == contrast_floor.__name__ for memo in memos)  # Coven's own
    assert getattr(DOMNode._css_bases, "__wrapped__", None) is not None  # memoised, but without a bound
    assert DOMNode._css_bases not in memos
    assert all(memo.cache_info().maxsize is not None for memo in memos)
    assert len(set(map(id, memos))) == len(memos)  # a function reached twice (re-exported) is found once


def test_forgetting_empties_every_memo_and_counts_what_they_held() -> None:
    mend_style_cache()
    forget_render_memos()
    cached_cell_len("a text a game drew")
    Region(0, 0, 4, 4).overlaps(Region(2, 2, 4, 4))
    Style.parse("bold red on blue")
    assert Color.parse("#102030").rich_color is not None
    StylesCache.get_inner_outer(StylesCache(), Color.parse("red"), Color.parse("blue"))
    assert forget_render_memos() >= 5
    assert all(memo.cache_info().currsize == 0 for memo in render_memos.render_memos())
    assert StylesCache.get_inner_outer.cache_info().currsize == 0
    assert cached_cell_len("a text a game drew") == 18  # what a memo gave is worked out again, the same


def test_a_module_imported_since_the_last_look_is_walked_then_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    render_memos.render_memos()
    walked = count_walks(monkeypatch)
    assert forget_render_memos() >= 0 and walked == []  # nothing imported since: no module looked at again
    late = types.ModuleType("tui._late_memo_module")

    @functools.lru_cache(maxsize=8)
    def width(text: str) -> int:
        return len(text)

    late.width = width  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, late.__name__, late)
    width("abc")
    forget_render_memos()
    assert walked == [late.__name__]
    assert width.cache_info().currsize == 0


def _module_with_a_memo(name: str) -> tuple[types.ModuleType, Any]:
    module = types.ModuleType(name)

    @functools.lru_cache(maxsize=8)
    def width(text: str) -> int:
        return len(text)

    module.width = width  # type: ignore[attr-defined]
    width("abc")
    return module, width


def test_a_module_imported_during_a_look_is_walked_at_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    render_memos.render_memos()
    late, late_memo = _module_with_a_memo("tui._memo_imported_during_a_look")

    class ImportsWhenAsked:
        """Stands for anything whose answer imports a module while the walk is under way (another thread's)."""

        @property
        def cache_info(self) -> None:
            monkeypatch.setitem(sys.modules, late.__name__, late)
            raise AttributeError("cache_info")

    earlier = types.ModuleType("tui._memo_zz_walked_first")
    earlier.importer = ImportsWhenAsked()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, earlier.__name__, earlier)
    forget_render_memos()
    assert late.__name__ in sys.modules
    forget_render_memos()
    assert late_memo.cache_info().currsize == 0


def test_a_module_still_being_imported_is_walked_once_it_is_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    render_memos.render_memos()
    half, memo = _module_with_a_memo("tui._memo_half_imported")
    half.__spec__ = importlib.machinery.ModuleSpec(half.__name__, None)
    half.__spec__._initializing = True  # type: ignore[attr-defined]  # as importlib marks it until it has run
    monkeypatch.setitem(sys.modules, half.__name__, half)
    forget_render_memos()
    assert memo.cache_info().currsize == 1 and memo not in render_memos.render_memos()
    half.__spec__._initializing = False  # type: ignore[attr-defined]
    forget_render_memos()
    assert memo in render_memos.render_memos() and memo.cache_info().currsize == 0
