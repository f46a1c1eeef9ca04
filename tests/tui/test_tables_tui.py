"""Hosting, joining and playing a shared table in the app, with the other player in the store.

The app under test is one process; "the other process" is a second
SessionStore connection with its own presence claim, as another Coven
would have. (tests/serve/test_serve_game.py plays the same over real SSH.)
"""

from __future__ import annotations

import asyncio
import random

import pytest
from textual.widgets import Input

from engine import get_game
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from saves.presence import Presence
from saves.tables import SeatClaimError, SeatPlan, TableStore
from tests.helpers.host_here import host_here
from tests.helpers.table_helpers import host_from_menu
from tests.helpers.tables_tui import hal_hosts, play_for, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.join_table import JoinTableScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MainMenu
from tui.screens.table_game import TableGameScreen


def test_host_a_table_wait_in_the_lobby_and_play_against_a_remote_player(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_from_menu(pilot, app)
            text = screen_text(app)
            assert "open · waiting for a remote player" in text
            assert "Waiting for 1 more player" in text
            assert "█" in text and " ".join(code) in text  # the code, big and plain
            await pilot.press("s")  # not ready yet: start is refused
            assert isinstance(app.screen, LobbyScreen)

            token = other.take_seat(code, 1, "Bea")
            await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
            assert "Everyone is here. Press s to start." in screen_text(app)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            assert game.human_seats == [0] and game.drives_table
            session_id = game.live.session_id

            # This process may not play Bea's seat: the store refuses, whatever the screen does.
            remote = LiveSession.load(other.store, session_id, claim=other.claim)
            with pytest.raises(SeatClaimError):
                game.live.apply(1, remote.rules.legal_actions(remote.state, 1)[0])
            # ...and the other process may not play Ana's.
            with pytest.raises(SeatClaimError):
                remote.apply(0, remote.rules.legal_actions(remote.state, 0)[0])

            play_for(remote, 1, random.Random(3))  # Bea builds her team elsewhere
            await until(pilot, lambda: len(game.live.log) == len(remote.log), "Bea's team to arrive")
            assert "Waiting for" not in screen_text(app)  # Ana still has to choose
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")  # Ana's team: both teams are now set, each hidden from the other
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "the lineups")
            mine = repr(game.live.rules.view(game.live.state, 0))
            secret = [card for card in game.live.state.players[1].team if card not in mine]
            assert secret
            shown = screen_text(app)
            for card in secret:
                assert CARDS[card].name not in shown, f"Bea's secret {CARDS[card].name} is on Ana's screen"
            assert token
        await asyncio.sleep(0)

    asyncio.run(scenario())


def test_join_by_code_take_a_seat_and_follow_the_host_into_the_game(other: TableStore) -> None:
    code = hal_hosts(other, 11)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await until(pilot, lambda: (isinstance(app.screen, JoinTableScreen)),
                        'isinstance(app.screen, JoinTableScreen)')
            await pilot.press(*code.lower(), "enter")
            await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
            assert "Wizards Cup hosted by Hal" in screen_text(app)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and lobby.link.token
            assert f"Your seat token: {lobby.link.token}" in screen_text(app)
            assert "Waiting for Hal to start the game" in screen_text(app)
            assert other.find(code).seats[1].name == "Ana"

            other.start(code)
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game to open")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            assert game.human_seats == [1] and not game.drives_table and not game.table.steps_here
            await until(pilot, lambda: f"Table {code} · Wizards Cup" in screen_text(app), "the status line")

    asyncio.run(scenario())


def test_a_dropped_player_reclaims_the_seat_with_the_token(other: TableStore) -> None:
    code = hal_hosts(other, 5)
    first = CovenApp(auto_delay=0.0)
    token = ""

    async def sit_down() -> None:
        nonlocal token
        async with first.run_test(size=(80, 24)) as pilot:
            first.tables.offer_join(code)
            await until(pilot, lambda: isinstance(first.screen, JoinTableScreen), "the join form")
            await until(pilot, lambda: "Take seat 2" in screen_text(first), "the seat")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(first.screen, LobbyScreen), "the lobby")
            other.start(code)
            await until(pilot, lambda: isinstance(first.screen, TableGameScreen), "the game")
            await until(pilot, lambda: "Build your team" in screen_text(first) or "team" in screen_text(first),
                             "the table")
            token = first.screen.link.token or ""  # type: ignore[attr-defined]

    asyncio.run(sit_down())  # leaving the app drops the seat
    info = other.refresh(code)
    assert info.seats[1].claim is None and info.seats[1].dropped_at is not None

    second = CovenApp(auto_delay=0.0, join_code=code)

    async def come_back() -> None:
        async with second.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Reclaim my seat" in screen_text(second), "the join choices")
            assert "Take seat" not in screen_text(second)  # the seat is kept for its token
            await pilot.press("enter")  # the only choice: reclaim
            await pilot.pause()
            second.screen.query_one(Input).value = token.lower()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(second.screen, TableGameScreen), "the game again")
            assert second.screen.human_seats == [1]  # type: ignore[attr-defined]

    asyncio.run(come_back())


def test_a_code_that_is_not_live_leaves_the_player_at_the_menu() -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code="zzzz")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: (
                isinstance(app.screen, MainMenu)
                and any("No open table has the code ZZZZ" in str(n.message) for n in app._notifications)
            ), 'isinstance(app.screen, MainMenu)')
            assert isinstance(app.screen, MainMenu)
            assert any("No open table has the code ZZZZ" in str(n.message) for n in app._notifications)

    asyncio.run(scenario())


def test_sessions_do_not_resume_a_live_tables_game(other: TableStore) -> None:
    code = hal_hosts(other, 5)
    other.take_seat(code, 1, "Bea")
    session_id = other.start(code)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_session(session_id)
            await until(pilot, lambda: (
                isinstance(app.screen, MainMenu)
                and any(f"is being played at table {code}" in str(n.message) for n in app._notifications)
            ), 'isinstance(app.screen, MainMenu)')
            assert isinstance(app.screen, MainMenu)
            assert any(f"is being played at table {code}" in str(n.message) for n in app._notifications)
            app.open_replay(session_id)  # its replay would show every seat's secrets
            await until(pilot, lambda: (
                isinstance(app.screen, MainMenu)
                and any("cannot be replayed now" in str(n.message) for n in app._notifications)
            ), 'isinstance(app.screen, MainMenu)')
            assert isinstance(app.screen, MainMenu)
            assert any("cannot be replayed now" in str(n.message) for n in app._notifications)

    asyncio.run(scenario())


def test_simultaneous_picks_from_two_processes_both_count(other: TableStore) -> None:
    """WitchDraft picks are made at once: a pick saved second catches up and is saved after the other."""
    spec = get_game("witchdraft")
    code = other.host("witchdraft", {}, 8, [SeatPlan("remote", "Seat 1"), SeatPlan("local", "Hal")],
                      host_name="Hal").info.code

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "Take seat 1" in screen_text(app), "the open seat")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            session_id = other.start(code)
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            remote = LiveSession.load(other.store, session_id, claim=other.claim)
            assert set(remote.to_act) == {0, 1}
            hal_pick = spec.rules.legal_actions(remote.state, 1)[0]
            game.link.changed = lambda: False  # type: ignore[method-assign]  # no polling: only the conflict path catches up
            remote.apply(1, hal_pick)  # Hal's pick is saved first; this screen has not seen it yet
            assert len(game.live.log) == 0
            ana_pick = spec.rules.legal_actions(game.live.state, 0)[0]
            game.table.post_message(GameTable.ActionChosen(0, ana_pick))
            await until(pilot, lambda: len(game.live.log) >= 2, "both picks")
            assert [entry.seat for entry in game.live.log[:2]] == [1, 0]
            remote.sync()
            assert remote.digest == game.live.digest

    asyncio.run(scenario())


def test_a_spectator_watches_without_a_seat_and_sees_no_hidden_cards(other: TableStore) -> None:
    code = hal_hosts(other, 4, spectators=True)
    other.take_seat(code, 1, "Bea")
    session_id = other.start(code)
    rng = random.Random(1)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Watch as a spectator" in screen_text(app), "the choices")
            assert "Take seat" not in screen_text(app)  # every seat is taken
            await pilot.press("down", "enter")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            assert game.human_seats == [] and game.viewer_seat is None and not game.drives_table
            # The players choose their teams elsewhere (the store would refuse this screen's actions).
            with pytest.raises(SeatClaimError):
                game.live.apply(0, game.live.rules.legal_actions(game.live.state, 0)[0])
            host = LiveSession.load(other.store, session_id, claim=other.claim)
            play_for(host, 0, rng)
            await until(pilot, lambda: len(game.live.log) == 1, "Hal's team")
            await until(pilot, lambda: "Waiting for Bea" in screen_text(app), "the wait for Bea")
            play_for(host, 1, rng)  # Bea's seat was taken by the same process in this test
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "the lineups")
            await until(pilot, lambda: "lineups" in screen_text(app), "the lineups on screen")
            spectator_view = repr(game.live.rules.view(game.live.state, None))
            shown = screen_text(app)
            hidden = [card for player in game.live.state.players for card in player.team
                      if card not in spectator_view]
            assert hidden
            for card in hidden:
                assert CARDS[card].name not in shown, f"a team's hidden {CARDS[card].name} is on the spectator's screen"

    asyncio.run(scenario())


def test_quitting_from_the_lobby_closes_the_hosts_table(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            assert other.is_live(code)
            await pilot.press("ctrl+q")
        assert not other.is_live(code)

    asyncio.run(scenario())


def test_after_ten_minutes_the_host_hands_a_dropped_seat_to_a_bot() -> None:
    from datetime import UTC, datetime, timedelta

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            store, presence = SessionStore(), Presence()
            TableStore(store, presence).take_seat(code, 1, "Bea")
            await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea")
            await until(pilot, lambda: app.screen.check_action("start", ()) is True, "the Start key")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            presence.close()  # Bea's Coven is gone
            store.close()
            await until(pilot, lambda: 1 in game._gone, "Bea's drop to be noticed")
            await pilot.press("b")
            await until(pilot, lambda: (not game.live.seats[1].is_bot
                                        and any("minute" in str(n.message) for n in app._notifications)),
                        'not game.live.seats[1].is_bot')
            assert not game.live.seats[1].is_bot
            assert any("minute" in str(n.message) for n in app._notifications)  # too early: the seat is kept
            tables = app.tables.store()
            assert tables is not None
            tables.clock = lambda: datetime.now(UTC) + timedelta(minutes=11)
            await pilot.press("b")
            await until(pilot, lambda: game.live.seats[1].is_bot, "the bot to take the seat")
            # Ana chooses first (the bot answers her, so her team can be taken back until it has).
            await until(pilot, lambda: len(game.live.log) == 0 and game.status_text == "Ana to choose",
                             "Ana's turn, the bot waiting for her")
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")  # Ana's team; then the bot chooses Bea's
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "both teams")

    asyncio.run(scenario())


def test_a_finished_tables_game_is_an_ordinary_session_to_replay(other: TableStore) -> None:
    from tui.screens.replay import ReplayScreen

    code = hal_hosts(other, 6)
    other.take_seat(code, 1, "Bea")
    session_id = other.start(code)
    live = LiveSession.load(other.store, session_id, claim=other.claim)
    rng = random.Random(2)
    while live.result is None:
        if live.to_act:
            play_for(live, live.to_act[0], rng)
        else:
            live.play_table()
    assert not other.is_live(code)  # the code is free again

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            await until(pilot, lambda: "Hal" in screen_text(app) and "Bea" in screen_text(app), "the list")
            await pilot.press("p")  # the only session, highlighted
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            assert app.screen.live.session_id == session_id  # type: ignore[attr-defined]

    asyncio.run(scenario())


def test_a_seat_left_before_the_start_opens_again_for_anyone() -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            store, presence = SessionStore(), Presence()
            TableStore(store, presence).take_seat(code, 1, "Vic")
            await until(pilot, lambda: "Vic · seated" in screen_text(app), "Vic")
            presence.close()  # Vic's Coven is gone before the game started
            await until(pilot, lambda: "open · waiting for a remote player" in screen_text(app),
                             "the seat to open again")
            with Presence() as newcomer:
                tables = TableStore(store, newcomer)
                assert tables.find(code).open_seats() == [1]
                tables.take_seat(code, 1, "Wren")
                await until(pilot, lambda: "Wren · seated" in screen_text(app), "Wren")
            store.close()

    asyncio.run(scenario())


def test_the_join_hint_names_where_friends_can_reach_the_server() -> None:
    import socket

    from tui.screens.lobby import join_hint

    assert "ssh -p 2222 KXMP@localhost" in join_hint("KXMP", 2222, "127.0.0.1")
    assert f"ssh -p 2222 KXMP@{socket.gethostname()}" in join_hint("KXMP", 2222, "0.0.0.0")
    assert "ssh -p 2222 KXMP@10.0.0.5" in join_hint("KXMP", 2222, "10.0.0.5")
    assert "run coven serve" in join_hint("KXMP", None)
    # coven web without its SSH door: friends come in by the browser door's address, never by ssh.
    browser = join_hint("KXMP", 8000, "127.0.0.1", browser=True)
    assert "http://localhost:8000/" in browser and "Join a table → KXMP" in browser and "ssh" not in browser
    assert f"http://{socket.gethostname()}:8000/" in join_hint("KXMP", 8000, "0.0.0.0", browser=True)


def test_players_are_told_when_the_host_is_away(other: TableStore) -> None:
    code = hal_hosts(other, 9)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            other.start(code)
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            await until(pilot, lambda: game.status_text == "Ana to choose", "Ana's turn")
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")
            await until(pilot, lambda: game.status_text == "Waiting for Hal…", "the wait for Hal")
            other.presence.close()  # Hal, the host, is gone with his Coven
            await until(pilot, lambda: game.status_text == "Waiting for Hal (away)…", "Hal to be away")

    asyncio.run(scenario())


def test_the_host_form_keeps_spectators_and_coach_for_the_next_table() -> None:
    from textual.widgets import Select

    from tui.screens.host_table import HostTableScreen

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
            form = app.screen
            assert form.query_one("#spectators", Select).value is False  # off the first time
            form.query_one("#spectators", Select).value = True
            form.query_one("#coach", Select).value = True
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            first = lobby.link.current()
            assert first.allow_spectators and first.coach
            await pilot.press("escape")  # close the table (asked first)
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the question")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form again")
            again = app.screen
            await until(pilot, lambda: bool(again.query("#coach")), "the form's rows")
            assert again.query_one("#spectators", Select).value is True
            assert again.query_one("#coach", Select).value is True

    asyncio.run(scenario())


def test_a_player_named_only_by_the_tables_code_is_asked_for_a_name(other: TableStore) -> None:
    code = hal_hosts(other, 12)

    async def scenario() -> None:
        # `ssh KXMP@host` under --auth none: coven serve passes the code as the name too.
        app = CovenApp(auto_delay=0.0, player_name=code.capitalize(), join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
            name = app.screen.query_one("#join-name", Input)
            await until(pilot, lambda: name.has_focus, "the name field, waiting for a name")
            assert name.value == ""
            await pilot.press("enter", "enter")  # no name: the seat is not taken
            await until(pilot, lambda: "Type your name first" in screen_text(app), "the request for a name")
            assert other.find(code).open_seats() == [1]
            name.focus()
            await pilot.press(*"Cy", "enter", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert other.find(code).seats[1].name == "Cy"
            # From now on the player is Cy, not "Player": the next join form (and hosting, a new game) offer it.
            app.push_screen(JoinTableScreen())
            await until(pilot, lambda: bool(app.screen.query("#join-name")), "a second join form")
            assert app.screen.query_one("#join-name", Input).value == "Cy"
            assert app.tables.player_name == "Cy"

    asyncio.run(scenario())


def test_a_spectator_named_only_by_the_code_is_called_what_they_typed_from_then_on(other: TableStore) -> None:
    code = hal_hosts(other, 13, spectators=True)
    other.take_seat(code, 1, "Bea")

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, player_name=code.capitalize(), join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Watch as a spectator" in screen_text(app), "the choices")
            name = app.screen.query_one("#join-name", Input)
            await until(pilot, lambda: name.has_focus, "the name field, waiting for a name")
            await pilot.press(*"Dee", "enter", "down", "enter")  # past "Reclaim my seat": watch
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby, watching")
            assert "Dee" in [watcher.name for watcher in other.find(code).watchers]
            assert app.tables.player_name == "Dee"

    asyncio.run(scenario())
