"""Driving the card lookup (ctrl+f) in pilot tests: open it, type a name, show the highlighted card."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList, Static

from tests.helpers.waiting import until
from tui.screens.find_card import FindCardScreen


def lookup(app: Any) -> FindCardScreen:
    """The card lookup in front."""
    screen = app.screen
    assert isinstance(screen, FindCardScreen)
    return screen


async def open_lookup(pilot: Any) -> FindCardScreen:
    """Press ctrl+f and wait for the lookup, its cursor in the name field."""
    app = pilot.app
    await pilot.press("ctrl+f")
    await until(pilot, lambda: isinstance(app.screen, FindCardScreen) and isinstance(app.focused, Input),
                "the card lookup")
    return lookup(app)


async def type_name(pilot: Any, text: str) -> None:
    """Type ``text`` into the name field key by key, and wait for the list to follow it."""
    screen = lookup(pilot.app)
    field = screen.query_one(Input)
    await pilot.press(*("space" if char == " " else char for char in text))
    await until(pilot, lambda: field.value.endswith(text), f"{text!r} typed")


def rows(screen: FindCardScreen) -> list[str]:
    """The results list's lines as plain text."""
    results = screen.query_one("#find-results", OptionList)
    return [str(results.get_option_at_index(index).prompt) for index in range(results.option_count)]


def shown_text(screen: FindCardScreen) -> str:
    """The card text the lookup shows now."""
    return str(screen.query_one("#find-card-text", Static).render())


async def show_first(pilot: Any, name: str) -> str:
    """Type ``name``, press enter (the best match is shown) and return the card's text."""
    screen = lookup(pilot.app)
    await type_name(pilot, name)
    await until(pilot, lambda: bool(rows(screen)) and rows(screen)[0].startswith(name), f"{name} first")
    await pilot.press("enter")
    await until(pilot, lambda: screen.shown is not None and screen.shown.entry.name == name, f"{name} shown")
    return shown_text(screen)
