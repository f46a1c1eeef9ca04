"""Rich's and Textual's bounded memo caches are found once and emptied after a game (tui/render_memos.py)."""

from __future__ import annotations

import pytest
from rich.cells import cached_cell_len
from rich.style import Style
from textual.dom import DOMNode
from textual.geometry import Region

from tui import render_memos
from tui.render_memos import forget_render_memos


@pytest.fixture(autouse=True)
def _found_afresh() -> None:
    render_memos.render_memos.cache_clear()


def test_module_functions_and_methods_of_both_libraries_are_found_and_unbounded_ones_left() -> None:
    memos = render_memos.render_memos()
    assert cached_cell_len in memos  # a module's function (Rich)
    assert Region.overlaps in memos  # a class's method (Textual)
    assert Style.__dict__["parse"].__func__ in memos  # a class method (Rich)
    assert getattr(DOMNode._css_bases, "__wrapped__", None) is not None  # memoised, but without a bound
    assert DOMNode._css_bases not in memos
    assert all(memo.cache_info().maxsize is not None for memo in memos)
    assert len(set(map(id, memos))) == len(memos)  # a function reached twice (re-exported) is found once


def test_forgetting_empties_every_memo_and_counts_what_they_held() -> None:
    forget_render_memos()
    cached_cell_len("a text a game drew")
    Region(0, 0, 4, 4).overlaps(Region(2, 2, 4, 4))
    Style.parse("bold red on blue")
    assert forget_render_memos() >= 3
    assert cached_cell_len.cache_info().currsize == 0
    assert Region.overlaps.cache_info().currsize == 0
    assert Style.parse.cache_info().currsize == 0
    assert cached_cell_len("a text a game drew") == 18  # what a memo gave is worked out again, the same
