"""At a rated table the players hear what leaving costs: a player who leaves, and a host handing a seat to a bot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from saves import SessionStore, TableStore
from saves.presence import Presence
from tests.helpers.table_helpers import host_from_menu
from tests.helpers.tables_tui import hal_hosts, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.join_table import JoinTableScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MainMenu
from tui.screens.table_game import TableGameScreen

FORFEIT = "This table is rated: if you do not come back, you lose the game."


def said(app: CovenApp) -> str:
    return " ".join(str(notice.message) for notice in app._notifications)


async def test_leaving_a_rated_game_says_it_is_lost_without_coming_back(other: TableStore) -> None:
    other.account = "hal"
    code = hal_hosts(other, 5)
    with other.store._write() as conn:  # Hal's form had Rating on
        conn.execute("UPDATE tables SET rated = 1 WHERE code = ?", (code,))
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)
        await until(pilot, lambda: isinstance(app.screen, JoinTableScreen), "the join form")
        await until(pilot, lambda: "Take seat 2" in screen_text(app), "the seat")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.start(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await until(pilot, lambda: FORFEIT in said(app), "the warning")


async def test_leaving_an_unrated_game_says_nothing_of_losing(other: TableStore) -> None:
    code = hal_hosts(other, 5)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)
        await until(pilot, lambda: "Take seat 2" in screen_text(app), "the seat")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.start(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        await pilot.press("escape")
        await until(pilot, lambda: "You left table" in said(app), "the token reminder")
        assert "rated" not in said(app)


async def test_a_rated_hosts_bot_hand_over_says_the_player_loses() -> None:
    app = CovenApp(serve_port=2222, account="ana", player_name="Ana", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        code = await host_from_menu(pilot, app)  # the form's Rating is on
        store, presence = SessionStore(), Presence()
        bea = TableStore(store, presence)
        bea.account = "bea"
        bea.take_seat(code, 1, "Bea")
        await until(pilot, lambda: app.screen.check_action("start", ()) is True, "the Start key")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.link.current().rated
        presence.close()  # Bea's Coven is gone
        store.close()
        await until(pilot, lambda: 1 in game._gone, "Bea's drop to be noticed")
        tables = app.tables.store()
        assert tables is not None
        tables.clock = lambda: datetime.now(UTC) + timedelta(minutes=11)
        await pilot.press("b")
        await until(pilot, lambda: "At this rated table, Bea loses the game." in said(app), "the forfeit said")
