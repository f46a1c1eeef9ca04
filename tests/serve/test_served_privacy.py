"""A Coven serving an SSH connection sees only its account's sessions and touches no files."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from saves import LiveSession, SeatInfo, SessionStore
from saves.presence import Presence
from saves.tables import SeatPlan, TableStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.menu import MainMenu
from tui.screens.sessions import SessionsScreen
from tui.served import NO_FILES

BOT = SeatInfo("Merlin", "bot", "normal")


def private_games(store: SessionStore) -> tuple[int, int, int]:
    """Ana's and Bea's games against a bot over SSH, and one started at the machine itself."""
    ana = LiveSession.create(store, "wizards-cup", {}, 1, [SeatInfo("Ana"), BOT], owner="ana").session_id
    bea = LiveSession.create(store, "wizards-cup", {}, 2, [SeatInfo("Bea"), BOT], owner="bea").session_id
    local = LiveSession.create(store, "wizards-cup", {}, 3, [SeatInfo("Hal"), BOT]).session_id
    return ana, bea, local


def table_game_of_hal_and_bea(store: SessionStore) -> int:
    """A started table game (Hal hosts, Bea sits), made at the machine; its session id."""
    with Presence() as presence:
        tables = TableStore(store, presence)
        plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
        code = tables.host("wizards-cup", {}, 5, plan, host_name="Hal").info.code
        tables.take_seat(code, 1, "Bea")
        return tables.start(code)


def test_the_store_shows_an_account_its_own_sessions_and_finished_tables() -> None:
    with SessionStore() as store:
        ana, bea, local = private_games(store)
        assert [s.session_id for s in store.list_sessions("ana")] == [ana]
        assert {s.session_id for s in store.list_sessions()} == {ana, bea, local}  # this machine sees all
        assert store.latest_unfinished("bea") == bea
        assert store.latest_unfinished("cy") is None
        assert store.visible_to(ana, "ana") and not store.visible_to(ana, "bea") and store.visible_to(ana, None)
        table_game = table_game_of_hal_and_bea(store)
        assert not store.visible_to(table_game, "cy")  # while it is played, only its table shows it
        store.update_status(table_game, "finished", "Finished after round 2", "Hal won.")
        assert store.visible_to(table_game, "cy")  # afterwards anyone may replay it


def run(app: CovenApp, scenario: Callable[..., object]) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await scenario(pilot)  # type: ignore[misc]

    asyncio.run(go())


def test_over_ssh_the_sessions_screen_lists_only_the_players_own_games_and_refuses_files() -> None:
    with SessionStore() as store:
        ana, bea, _ = private_games(store)
    app = CovenApp(auto_delay=60.0, serve_port=2222, account="ana", player_name="ana", signed_in=True)

    async def scenario(pilot: object) -> None:
        menu = app.screen
        assert isinstance(menu, MainMenu)
        app.action_sessions()
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(screen, SessionsScreen)')
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        assert [s.session_id for s in screen.summaries] == [ana]
        assert not screen.check_action("export", ()) and not screen.check_action("import", ())  # not offered
        screen.action_export()  # and refused if reached anyway
        screen.action_import()
        await until(pilot, lambda: (sum(NO_FILES in str(n.message) for n in app._notifications) == 2),
                    'sum(NO_FILES in str(n.message) for n in app._notification...')
        app.open_session(bea)  # Bea's private game: her hand must not reach Ana's screen
        await until(pilot, lambda: (isinstance(app.screen, SessionsScreen)
                                    and any(f"no saved session {bea}" in str(n.message) for n in app._notifications)),
                    'isinstance(app.screen, SessionsScreen)')
        assert isinstance(app.screen, SessionsScreen)
        assert any(f"no saved session {bea}" in str(n.message) for n in app._notifications)

    run(app, scenario)


def test_over_ssh_new_games_belong_to_the_account_and_start_with_its_name() -> None:
    app = CovenApp(auto_delay=60.0, serve_port=2222, account="ana", player_name="ana", signed_in=True)

    async def scenario(pilot: object) -> None:
        await pilot.press("n")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]

    run(app, scenario)
    with SessionStore() as store:
        (summary,) = store.list_sessions("ana")
        assert summary.seats[0].name == "Ana"
        assert store.list_sessions("bea") == []


def test_over_ssh_no_screenshot_lands_on_the_server_and_others_games_are_not_deleted(tmp_path: object) -> None:
    with SessionStore() as store:
        ana, bea, _ = private_games(store)
        table_game = table_game_of_hal_and_bea(store)
        store.update_status(table_game, "finished", "Finished after round 2", "Hal won.")
    app = CovenApp(auto_delay=60.0, serve_port=2222, account="ana", player_name="ana", signed_in=True)

    async def scenario(pilot: object) -> None:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Quit" in titles
        assert app.deliver_screenshot() is None
        await until(pilot, lambda: (any(NO_FILES in str(n.message) for n in app._notifications)),
                    'any(NO_FILES in str(n.message) for n in app._notifications)')
        app.action_sessions()
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(screen, SessionsScreen)')
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        assert {s.session_id for s in screen.summaries} == {ana, table_game}
        screen.query_one("DataTable").move_cursor(row=[s.session_id for s in screen.summaries].index(table_game))
        await pilot.press("d")  # type: ignore[attr-defined]
        await until(pilot, lambda: (any("not yours to delete" in str(n.message) for n in app._notifications)),
                    'any("not yours to delete" in str(n.message) for n in app....')

    run(app, scenario)
    with SessionStore() as store:
        assert store.visible_to(table_game, None)  # still there for everyone to replay
