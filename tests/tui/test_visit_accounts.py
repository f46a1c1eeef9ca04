"""An SSH player nobody signed in (``coven serve --auth none``) keeps what they choose for the visit only.

Anyone may type any user name there, so everyone who typed ``ssh KXMP@host``
would otherwise share one account: its theme, form memory and sessions.
Each app here opens the store itself, as each served connection's process does.
"""

from __future__ import annotations

import asyncio
import sqlite3

from textual.widgets import Input

from saves import SessionStore, db_path
from saves.preferences import get_preference
from tests.helpers.new_game_memory import form, open_form
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.player_settings import read_settings, write_setting
from tui.screens.game.screen import GameScreen
from tui.screens.sessions import SessionsScreen


def test_two_visits_under_one_unproven_name_share_nothing_and_start_from_the_hosts_settings() -> None:
    with SessionStore() as store:
        write_setting(store, None, "theme", "coven-high-contrast")  # the host machine's own choice

    async def first_visit() -> None:
        app = CovenApp(auto_delay=60.0, serve_port=2222, account="KXMP", player_name="Kxmp")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.theme == "coven-high-contrast", "the host's theme, to start with")
            assert app.store is not None
            write_setting(app.store, app.account, "theme", "nord")  # as the Settings screen keeps a choice
            assert read_settings(app.store, app.account)["theme"] == "nord"  # kept for this visit
            await open_form(app, pilot)
            app.screen.query_one("#seat-name-0", Input).value = "Bohdan"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")

    async def second_visit() -> None:
        app = CovenApp(auto_delay=60.0, serve_port=2222, account="KXMP", player_name="Kxmp")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.theme == "coven-high-contrast", "the host's theme, not the first visit's")
            await open_form(app, pilot)
            assert form(app)["rows"][0][0] == "Kxmp"  # the first visit's names are not offered
            await pilot.press("escape")
            app.action_sessions()
            await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the sessions list")
            sessions = app.screen
            assert isinstance(sessions, SessionsScreen) and sessions.summaries == []  # nor its game

    asyncio.run(first_visit())
    asyncio.run(second_visit())
    with SessionStore() as store:
        assert get_preference(store, "KXMP", "setting.theme") is None
        assert get_preference(store, None, "setting.theme") == "coven-high-contrast"  # the host's, untouched
        assert len(store.list_sessions()) == 1  # the first visit's game is kept (the machine sees it)
    conn = sqlite3.connect(db_path())
    try:
        assert conn.execute("SELECT DISTINCT account FROM preferences").fetchall() == [("",)]  # no visit wrote any
    finally:
        conn.close()
