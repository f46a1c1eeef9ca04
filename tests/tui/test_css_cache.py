"""Parsed CSS is shared by every app of a process: a second app, or one whose CSS was parsed ahead, parses none."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest
from textual.app import App
from textual.color import Color
from textual.css.stylesheet import Stylesheet

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


def test_the_same_css_under_another_theme_is_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    css_cache.install()
    css = "Static { color: $primary; }"
    colours = []
    for primary in ("#ff0000", "#0000ff", "#ff0000"):
        sheet = Stylesheet(variables={"primary": primary})
        sheet.add_source(css, read_from=("test", "Static.DEFAULT_CSS"), is_default_css=True)
        colours.append(sheet.rules[0].styles.color)
    assert colours[0] == Color.parse("#ff0000") and colours[1] == Color.parse("#0000ff")
    assert colours[2] == colours[0]
    assert css_cache.cached_sources() == 2  # one parse for each theme; the first theme's found again


def test_a_css_file_that_cannot_be_read_is_left_for_the_app_to_report(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    app: App[None] = App(css_path=[tmp_path / "gone.tcss"])  # never run: warming only reads it
    assert css_cache.warm(app) > 0  # every widget's CSS is parsed all the same
