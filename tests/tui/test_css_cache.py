"""Parsed CSS is shared by every app of a process: a second app, or one whose CSS was parsed ahead, parses none."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from saves import SessionStore
from tests.helpers.css_parses import count_parses, show_menu
from tui import css_cache
from tui.app import CovenApp


async def test_a_second_app_parses_no_css(store: SessionStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    parses = count_parses(monkeypatch)
    await show_menu(store)
    first = len(parses)
    assert first > 0 and css_cache.cached_sources() > 0  # the first app parsed its CSS, once
    await show_menu(store)
    assert len(parses) == first, parses[first:]


async def test_css_parsed_ahead_leaves_an_app_nothing_to_parse(store: SessionStore,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    parses = count_parses(monkeypatch)
    assert CovenApp.parse_css_ahead() > 0
    ahead = len(parses)
    await show_menu(store)
    assert len(parses) == ahead, f"the menu still parsed {parses[ahead:]}"
