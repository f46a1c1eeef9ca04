"""Counting Textual's own CSS parses, and showing Coven's menu, for the tests of :mod:`tui.css_cache`."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.model import RuleSet
from textual.widgets import OptionList

from saves import SessionStore
from tests.helpers.waiting import until
from tui import css_cache
from tui.app import CovenApp
from tui.screens.menu import MainMenu

SIZE = (100, 30)


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every parse Textual's own parser makes from now on: where each source came from."""
    parses: list[Any] = []
    textual_parse = css_cache._textual_parse_rules

    def counted(stylesheet: Any, css: str, read_from: Any, *rest: Any) -> list[RuleSet]:
        parses.append(read_from)
        return textual_parse(stylesheet, css, read_from, *rest)

    monkeypatch.setattr(css_cache, "_textual_parse_rules", counted)
    return parses


async def show_menu(store: SessionStore) -> None:
    """Run Coven until its menu is laid out, then quit."""
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and app.screen.query_one("#menu", OptionList)
                    .option_count > 0 and app.screen.query_one("#menu", OptionList).region.height > 0, "the menu")
