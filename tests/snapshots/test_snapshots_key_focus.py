"""Snapshots at 80x24 of what issue 14's focus and memory work changed: a focused game log, a remembered form."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from saves import SessionStore
from saves.preferences import set_preference
from tests.helpers.swap_focus import at_the_swap, swap_focused
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.menu import MainMenu
from tui.screens.new_game import NewGameScreen

SIZE = (80, 24)


def test_game_log_with_the_keyboard(snap_compare: Any) -> None:
    store = SessionStore()
    live = at_the_swap(store)
    app = CovenApp(store=store, auto_delay=60.0)

    async def focus_the_log(pilot: Any) -> None:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        app.start_game(live)
        await until(pilot, lambda: list(live.to_act) == [0, 1] and swap_focused(app), "Ana's swap (before Merlin's)")
        await pilot.pause()
        app.screen.query_one("#game-log").focus()
        await until(pilot, lambda: app.screen.query_one("#game-log").has_focus, "the log's focus")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=focus_the_log)


def test_new_game_offers_the_last_game(snap_compare: Any) -> None:
    store = SessionStore()
    set_preference(store, None, "new-game", {"game": "witchdraft", "games": {"witchdraft": {
        "seats": 3, "rows": [["Zed", "human"], ["Circe", "bot:easy"], ["Bo", "human"]],
        "options": {"face_up": {"value": True}}}}})
    app = CovenApp(store=store, auto_delay=60.0)

    async def open_form(pilot: Any) -> None:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and len(app.screen.query(".seat-row")) == 3,
                    "the remembered seats")
        await until(pilot, lambda: app.screen.focused is not None
                    and str(app.screen.query_one("#option-face_up #label", Static).render()) == "Yes",
                    "the remembered option, with the focus placed")
        name = app.screen.focused
        assert isinstance(name, Input)
        await until(pilot, lambda: name._cursor_visible, "the steady cursor shown")  # tests/snapshots/conftest.py
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=open_form)
