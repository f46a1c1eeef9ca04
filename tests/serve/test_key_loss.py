"""Every key press counts: keys typed with no pause across screen changes all take effect, in order.

``burst`` hands the keys to the app's driver at once, as a paste, a fast
typist or an SSH packet does (``pilot.press`` waits for the app to go idle
after each key, which hides the problem). Before tui/key_order.py, the keys
after one that opened a screen went to the old screen or to none.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.widgets import Input

from engine.wizards_cup.cards import WIZARDS
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.screens.join_table import JoinTableScreen
from tui.screens.menu import MainMenu


def burst(app: App[Any], keys: list[str]) -> None:
    """Send ``keys`` to ``app`` all at once, with no pause between them."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


def field(app: App[Any], selector: str) -> str:
    """The value of the Input ``selector`` on the screen in front ('' while it is not there)."""
    found = app.screen.query(selector)
    return found.first(Input).value if found else ""


async def test_typing_straight_into_a_just_opened_join_form() -> None:
    app = CovenApp(auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        burst(app, list("jKXMP"))
        await until(pilot, lambda: field(app, "#join-code") == "KXMP", "the code typed in full")
        assert isinstance(app.screen, JoinTableScreen)


async def test_typing_straight_into_a_just_opened_new_game_form() -> None:
    app = CovenApp(auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        burst(app, ["n", "ctrl+u", *"Zed", "tab", "escape", "j", *"ABCD"])
        # Every key in turn: the name typed in the new form, then Back, then Join with its code.
        await until(pilot, lambda: field(app, "#join-code") == "ABCD", "the join code typed in full")
        assert isinstance(app.screen, JoinTableScreen)


def picks(app: App[Any]) -> list[str] | None:
    """The team builder's picks on the game screen in front (None before it is there)."""
    builders = app.screen.query(TeamBuilder) if isinstance(app.screen, GameScreen) else None
    return builders.first(TeamBuilder).picks if builders else None


def _picks_expected(displayed: str, moves: list[str]) -> list[str]:
    """The wizards a space on each cursor position picks (the displayed card stays out of the picks)."""
    position, picks = 0, []
    for key in moves:
        if key == "down":
            position += 1
        elif WIZARDS[position].card_id != displayed:
            picks.append(WIZARDS[position].card_id)
    return picks


async def test_continue_then_space_picks_in_the_team_builder() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 3, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
        displayed = live.rules.view(live.state, 0).players[0].displayed
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            moves = ["space", "down", "space", "down", "down", "space"]
            burst(app, ["c", *moves])
            expected = _picks_expected(displayed, moves)
            await until(pilot, lambda: picks(app) == expected, f"the picks {expected}")


async def test_curtain_then_space_picks_in_the_team_builder() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
        displayed = live.rules.view(live.state, 0).players[0].displayed
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "Ana's curtain")
            moves = ["space", "down", "space"]
            burst(app, ["enter", *moves])
            expected = _picks_expected(displayed, moves)
            await until(pilot, lambda: picks(app) == expected, f"the picks {expected}")


def test_a_burst_over_ssh_reaches_the_join_form(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana", columns=80, rows=24)
            await player.wait_for(lambda text: "C O V E N" in text and "New game" in text and "Quit" in text)
            player.send("jKXMP")  # one write: the keys arrive together
            await player.wait_for(lambda text: "Join a table" in text and "KXMP" in text)
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)



async def test_continue_through_the_curtain_then_space_in_one_burst() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 9, [SeatInfo("Ana"), SeatInfo("Bo")])
        displayed = live.rules.view(live.state, 0).players[0].displayed
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            moves = ["down", "space", "down", "space"]
            burst(app, ["c", "enter", *moves])  # Continue, lift Ana's curtain, pick two
            expected = _picks_expected(displayed, moves)
            await until(pilot, lambda: picks(app) == expected, f"the picks {expected}")
