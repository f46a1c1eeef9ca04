"""Faster Game deals 4 cards as for 4 or 5 players: with 4 or 5 seats the form offers it disabled, saying why."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Select, Static

from saves import SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.host_table import HostTableScreen
from tui.screens.menu import MainMenu
from tui.screens.new_game import NewGameScreen


def hint(screen: NewGameScreen) -> str:
    return str(screen.query_one("#option-help-faster", Static).render())


@pytest.mark.parametrize("key", ["n", "h"], ids=["new game", "host a table"])
async def test_faster_game_is_disabled_with_four_or_five_seats_and_says_why(key: str) -> None:
    with SessionStore() as store:
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and bool(app.screen.query(".seat-row")),
                        "the form")
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            assert isinstance(screen, HostTableScreen) == (key == "h")
            screen.query_one("#game-select", Select).value = "witchdraft"
            await until(pilot, lambda: bool(screen.query("#option-faster")), "WitchDraft's options")
            faster: Select[Any] = screen.query_one("#option-faster", Select)
            assert not faster.disabled and "Only with" not in hint(screen)
            faster.value = True
            for count in (4, 5):
                screen.query_one("#seat-count", Select).value = count
                await until(pilot, lambda: faster.disabled, f"Faster Game disabled with {count} seats")
                assert "Only with 2 or 3 players" in hint(screen) and faster.value is False
                choices, _ = screen.read_form()
                assert choices is not None and choices.options["faster"] is False
            screen.query_one("#seat-count", Select).value = 3
            await until(pilot, lambda: not faster.disabled, "Faster Game offered again with 3 seats")
            assert faster.value is True and "Only with" not in hint(screen)  # the choice comes back


def test_the_option_says_where_it_applies() -> None:
    from engine import get_game

    faster = next(option for option in get_game("witchdraft").options if option.name == "faster")
    assert [count for count in range(2, 6) if faster.applies_to(count)] == [2, 3]
    assert faster.not_here(2) is None and "Only with 2 or 3 players" in str(faster.not_here(5))
