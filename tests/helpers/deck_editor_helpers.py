"""Helpers shared by the deck editor's test files: the store fixture, screen look-ups and key sequences."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizbits.decks.card_pool import CardPool
from tui.games.wizbits.decks.editor import DeckEditorScreen
from tui.games.wizbits.decks.picker import DeckPicker
from tui.widgets.confirm import PromptScreen

SIZE = (100, 30)


def editor(app: CovenApp) -> DeckEditorScreen:
    """The deck editor on top of the app."""
    screen = app.screen
    assert isinstance(screen, DeckEditorScreen), screen
    return screen


def pool_ids(app: CovenApp) -> list[str]:
    """The card ids the pool lists."""
    return [card.card_id for card in app.screen.query_one(CardPool).shown]


def message(app: CovenApp) -> str:
    """The editor's message line."""
    return str(app.screen.query_one("#editor-message", Static).render())


def checks(app: CovenApp) -> str:
    """The editor's validation pane."""
    return str(app.screen.query_one("#deck-problems", Static).render())


async def type_text(pilot: Any, text: str) -> None:
    """Type ``text`` into whatever has focus."""
    for char in text:
        await pilot.press(char)


async def answer_prompt(pilot: Any, text: str) -> None:
    """Replace the prompt's text with ``text`` and submit it with the Enter key.

    The text goes in as one paste would (a long path typed key by key cost a second a dozen letters);
    typing into the editor is tested key by key elsewhere.
    """
    assert isinstance(pilot.app.screen, PromptScreen)
    field = pilot.app.screen.query_one(Input)
    field.value = ""
    field.insert_text_at_cursor(text)
    await pilot.press("enter")
    await pilot.pause()


async def open_starter(pilot: Any, index: int) -> None:
    """Open the ``index``-th starter deck through the open dialog."""
    await pilot.press("ctrl+o")
    await until(pilot, lambda: isinstance(pilot.app.screen, DeckPicker), 'isinstance(pilot.app.screen, DeckPicker)')
    for _ in range(index + 1):  # past "Empty deck"
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()


async def build_legal_deck(pilot: Any) -> None:
    """From an empty deck: mark the first Character as Main, then 4 copies each of the first 15 cards."""
    await pilot.press("m")
    for index in range(15):
        await pilot.press(*["plus"] * (3 if index == 0 else 4))
        await pilot.press("down")
    await pilot.pause()


# -- the pure parts ------------------------------------------------------------------
