"""Table talk in the app: the chat pane in the lobby and in game, quick phrases, muting, spectators, presence.

The app under test is one process; the other players are TableStores with
their own connection and presence claim, as other Coven processes would be.
(tests/serve/test_serve_chat.py talks between two real SSH clients.)
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from saves.tables import SeatPlan, TableStore
from tests.helpers.host_here import host_here
from tests.helpers.table_helpers import Opener, started
from tests.helpers.tables_chat_tui import notes, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.chat_pane import QUICK_PHRASES, ChatPane
from tui.screens.lobby import LobbyScreen
from tui.screens.table_game import TableGameScreen
from tui.widgets.fitting_footer import FittingFooter


def in_team_builder(app: CovenApp) -> bool:
    focused = app.focused
    return focused is not None and any(isinstance(node, TeamBuilder) for node in focused.ancestors_with_self)


def footer(app: CovenApp) -> list[str]:
    """The footer's keys, or [] while the screen on top has not composed its footer yet (a busy machine)."""
    footers = app.screen.query(FittingFooter)
    return footers.first().shown if footers else []


def test_lobby_chat_with_names_cleaned_lines_quick_phrases_and_unread_count(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            now = datetime.now(UTC)
            lobby.link.tables.clock = lambda: now  # every line of Ana's in one moment: the rate limit must bite
            other.take_seat(code, 1, "Bea")
            table_id = other.find(code).table_id
            await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
            assert not lobby.chat.is_open and "Chat" in footer(app)

            # A line arrives while the pane is closed: the Chat key counts it.
            other.say(table_id, "\x1b[2Jhi \u202e[bold red]x")
            await until(pilot, lambda: "Chat (1)" in footer(app), "the unread count")
            await pilot.press("c")
            assert lobby.chat.is_open and lobby.chat.unread == 0
            await until(pilot, lambda: "Bea: [2Jhi [bold red]x" in screen_text(app), "Bea's line, as typed")

            await pilot.press(*"hello all", "enter")
            await pilot.press("2")  # the line is empty: a stock phrase
            lines = [(line.name, line.text) for line in other.chat_since(table_id)]
            assert lines[1:] == [("Ana", "hello all"), ("Ana", QUICK_PHRASES[1])]
            await until(pilot, lambda: "Ana: Thinking…" in screen_text(app), "the phrase on screen")
            await pilot.press(*" 2 more minutes", "enter")  # a leading space lets a line begin with a digit
            assert other.chat_since(table_id)[-1].text == "2 more minutes"

            # Muting is this player's own: Bea's lines stop showing here, and still reach the store.
            await pilot.press(*"/mute bea", "enter")
            other.say(table_id, "can you hear me")
            await until(pilot, lambda: lobby.chat._last_id == other.chat_since(table_id)[-1].line_id, "the poll")
            assert "can you hear me" not in screen_text(app)
            await pilot.press(*"/unmute Bea", "enter")
            other.say(table_id, "now?")
            await until(pilot, lambda: "Bea: now?" in screen_text(app), "Bea heard again")

            # Five lines every ten seconds: the sixth is refused in words.
            await pilot.press("1", "1")
            assert "Slow" not in notes(app)
            await pilot.press("1")
            assert [line.name for line in other.chat_since(table_id)].count("Ana") == 5
            assert "Slow down: at most 5 lines every 10 seconds" in notes(app)
            # The host's word on spectators is a command, not a line (so the limit does not touch it).
            await pilot.press(*"/spectators off", "enter")
            assert not other.find(code).spectator_chat and "Spectators may no longer talk." in notes(app)
            await pilot.press(*"/shout", "enter")
            assert "Chat commands: /mute NAME" in notes(app)
            await pilot.press("escape")
            assert not lobby.chat.is_open and isinstance(app.screen, LobbyScreen)

    asyncio.run(scenario())


def test_the_lobby_lists_spectators_and_says_whether_they_are_allowed(other: TableStore) -> None:
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = other.host("wizards-cup", {}, 3, plan, host_name="Hal", allow_spectators=True).info.code

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, player_name="cy")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.tables.watch(code)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert [watcher.name for watcher in other.find(code).watchers] == ["Cy"]
            await until(pilot, lambda: "Spectators (may talk): Cy." in screen_text(app), "the spectators")
            other.set_spectator_chat(code, False)
            await until(pilot, lambda: "may watch but not talk" in screen_text(app), "the host's word")
            await pilot.press("c", *"hello", "enter")
            assert "Hal, the host, has turned spectators' chat off." in notes(app)
            assert other.chat_since(other.find(code).table_id) == []
            await pilot.press(*["backspace"] * 5)  # the refused line stays to be tried again: erase it
            await pilot.press(*"/spectators on", "enter")  # only the host may
            assert "Only the host of table" in notes(app) and not other.find(code).spectator_chat
            await pilot.press("escape", "escape")
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "leaving")
            assert other.refresh(code).watchers == ()

    asyncio.run(scenario())


def test_game_chat_opens_in_the_logs_place_and_ctrl_t_works_where_c_confirms(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            other.take_seat(code, 1, "Bea")
            await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            await until(pilot, lambda: in_team_builder(app), "the team builder's focus")
            await pilot.press("c")  # the team builder's own confirm (an unfinished team: refused), not the chat
            assert not game.chat.is_open
            other.say(other.find(code).table_id, "hello")
            await until(pilot, lambda: "Chat (1)" in footer(app), "the unread count in the Footer")
            assert f"Table {code} · chat: 1 new · " in screen_text(app)  # and in the status line
            await pilot.press("ctrl+t")
            assert game.chat.is_open and game.query_one("#game-log").has_class("hidden")
            assert "chat: 1 new" not in screen_text(app)
            await pilot.press(*"good luck", "enter")
            table_id = other.find(code).table_id
            assert [(line.name, line.text, line.after_seq) for line in other.chat_since(table_id)] == [
                ("Bea", "hello", 0), ("Ana", "good luck", 0)]
            await pilot.press("escape")
            assert not game.chat.is_open and not game.query_one("#game-log").has_class("hidden")
            assert in_team_builder(app)

    asyncio.run(scenario())


def test_the_player_list_says_who_is_away_and_for_how_long(other: TableStore) -> None:
    from saves import SessionStore
    from saves.presence import Presence

    code = ""

    async def scenario() -> None:
        nonlocal code
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            with SessionStore() as store, Presence() as presence:
                bea = TableStore(store, presence)
                bea.take_seat(code, 1, "Bea")
                await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            await until(pilot, lambda: 1 in game._gone, "Bea's drop noticed")
            # Three minutes later (the store's drop time moved back, as if they had passed):
            earlier = (datetime.now(UTC) - timedelta(minutes=3, seconds=5)).isoformat()
            with game.link.store._write() as conn:
                conn.execute("UPDATE table_seats SET dropped_at = ? WHERE seat = 1", (earlier,))
            await until(pilot, lambda: "Bea (dropped 3 min ago)" in str(game.chat.query_one("#chat-people").render()),
                        "the away time in the player list")
            await pilot.press("ctrl+t")
            assert "Bea (dropped 3 min ago)" in screen_text(app)

    asyncio.run(scenario())


def test_a_closed_pane_takes_no_focus(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await host_here(pilot, app)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert lobby.query_one(ChatPane).disabled
            assert app.focused is None or not lobby.query_one(ChatPane) in app.focused.ancestors_with_self

    asyncio.run(scenario())


async def test_the_replay_shows_each_line_where_it_was_said(open_tables: Opener, fake_ui: object) -> None:
    from textual.app import App
    from textual.widgets import RichLog

    from saves import LiveSession
    from tui.screens.replay import ReplayScreen

    host, bea, session_id = started(open_tables)
    table = host.table_of_session(session_id)
    assert table is not None
    bea.say(table.table_id, "ready when you are")  # before the first move
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    live.apply(0, live.rules.legal_actions(live.state, 0)[0])
    host.say(table.table_id, "[bold red]x\x1b[31m")
    remote = LiveSession.load(bea.store, session_id, claim=bea.claim)
    remote.apply(1, remote.rules.legal_actions(remote.state, 1)[0])
    bea.say(table.table_id, "Good game")

    class Replay(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(LiveSession.load(host.store, session_id), start=1))

    app = Replay()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)

        def lines() -> list[str]:
            return [line.text.strip() for line in screen.query_one("#replay-log", RichLog).lines]

        await until(pilot, lambda: len(lines()) > 1, "the replay's log")
        shown = lines()
        assert shown[0] == "The game begins." and shown[1] == "» Bea: ready when you are"
        assert shown[-1] == "» Ana: [bold red]x[31m"  # said after step 1, shown as typed
        assert "Good game" not in " ".join(shown)  # said after step 2: not yet
        await pilot.press("right")
        await until(pilot, lambda: lines()[-1] == "» Bea: Good game", 'lines()[-1] == "» Bea: Good game"')
        await pilot.press("home")
        await until(pilot, lambda: (lines() == ["The game begins.", "» Bea: ready when you are"]),
                    'lines() == ["The game begins.", "» Bea: ready when you are"]')


def test_the_chat_line_counts_accented_letters_once_and_a_long_paste_is_told_what_it_lost(other: TableStore) -> None:
    from textual import events

    from tui.screens.chat_pane import ChatInput

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            table_id = other.find(code).table_id
            await pilot.press("c")
            line = lobby.query_one(ChatInput)
            await until(pilot, lambda: line.has_focus, "the chat line")
            line.value = "e\u0301" * 199  # 199 letters é, each an e and a combining accent
            line.cursor_position = len(line.value)
            await pilot.press("x")  # the 200th character fits
            assert line.value.endswith("x")
            await pilot.press("y")  # the 201st does not
            assert not line.value.endswith("y")
            await pilot.press("enter")
            assert other.chat_since(table_id)[-1].text == "e\u0301" * 199 + "x"

            # A flood pasted at once: the first line goes in, and the player is told the rest was dropped.
            line.post_message(events.Paste("first line\nsecond\nthird\n"))
            await until(pilot, lambda: line.value == "first line", "the first line pasted")
            await until(pilot, lambda: "2 more lines dropped" in notes(app), "what the paste lost, said")
            line.value = ""
            line.post_message(events.Paste("z" * 250))
            await until(pilot, lambda: line.value == "z" * 200, "the paste cut to a line")
            await until(pilot, lambda: "cut at 200 characters" in notes(app), "the cut, said")

    asyncio.run(scenario())
