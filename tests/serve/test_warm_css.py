"""The warm parent parses Coven's CSS before it forks: a player forked from it parses none of its own."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from saves import SessionStore
from tests.helpers.css_parses import count_parses, show_menu
from tui import css_cache
from tui.server import warm


async def test_the_warm_parent_parses_the_css_a_player_needs(store: SessionStore,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Everything is imported already in the test's process: only the preparing is the parent's.
    monkeypatch.setattr(warm, "PRELOADED_PACKAGES", ())
    monkeypatch.setattr(warm, "PRELOADED_EXTRA", ())
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    warm.preload()
    assert css_cache.cached_sources() > 0
    parses = count_parses(monkeypatch)
    await show_menu(store)
    assert parses == [], "the menu parsed CSS the warm parent had not"
