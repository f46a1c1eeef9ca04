"""Shared by test_new_game_memory.py and other test modules, which import them from here.

form, open_form, moved here from tests/tui/test_new_game_memory.py.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Select

from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.menu import MainMenu
from tui.screens.new_game import NewGameScreen


def form(app: CovenApp) -> dict[str, Any]:
    """What the new-game form on screen holds: game, seats, names and kinds, options."""
    screen = app.screen
    assert isinstance(screen, NewGameScreen)
    rows = [(row.query_one(Input).value, row.query_one(Select).value) for row in screen.query(".seat-row")]
    options = {option.name: screen.query_one(f"#option-{option.name}", Select).value for option in screen.spec.options}
    return {"game": screen.spec.game_id, "rows": rows, "options": options}


async def open_form(app: CovenApp, pilot: Any) -> None:
    await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.is_mounted
                and bool(app.screen.query(".seat-row")), "the new-game form")
    await pilot.pause()
