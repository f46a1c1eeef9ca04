"""Turn-based tables in the app: the host form's pace (refused in words to a visit), the menu's "Your move at
N tables", the list that opens a table, a seat taken back from the bot, and the vacation key."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from textual.widgets import OptionList, Select, Static

from saves import LiveSession, TableStore
from saves.table_listing import ListedTable
from saves.tables import SeatPlan
from saves.turn_based import run_out
from saves.turn_pace import SIGNED_IN_ONLY
from tests.helpers.notice_server import notice_server
from tests.helpers.table_helpers import Opener
from tests.helpers.tables_tui import play_for, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.notify import seat_asked
from tui.notify.sender import NoticeSender, RateLimit
from tui.notify.url import ENV_URL
from tui.screens.awaiting_tables import AwaitingTablesScreen
from tui.screens.chat_pane import people_line
from tui.screens.host_table import HostTableScreen
from tui.screens.join_table import JoinTableScreen
from tui.screens.menu import MainMenu
from tui.screens.open_tables_rows import table_row, table_sentence
from tui.screens.table_game import TableGameScreen


def flat(app: CovenApp) -> str:
    return " ".join(screen_text(app).split())


def rows(app: CovenApp) -> str:
    """The rows of the Your tables list as the screen holds them (a long row wraps on screen)."""
    listed = app.screen.query_one("#awaiting-tables", OptionList)
    return " ".join(str(listed.get_option_at_index(index).prompt) for index in range(listed.option_count))


def said(app: CovenApp) -> str:
    return " ".join(str(notice.message) for notice in app._notifications)


def hal_and_bea_table(open_tables: Opener, pace_days: int = 3, bea_chooses: bool = False) -> tuple[TableStore, str]:
    """Hal hosts a turn-based Wizards Cup table, Bea (signed in) sat down and left: the table waits for both
    (for Hal alone when ``bea_chooses`` her team before she leaves)."""
    hal, bea = open_tables(), open_tables()
    hal.account, bea.account = "hal", "bea"
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = hal.host("wizards-cup", {}, 5, plan, host_name="Hal", pace_days=pace_days, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")  # the table is full: the game starts
    if bea_chooses:
        play_for(LiveSession.load(bea.store, hal.find(code).session_id or 0, claim=bea.claim), 1, random.Random(3))
    bea.release_mine(left=True)
    return hal, code


async def test_a_visit_is_refused_a_turn_based_table_in_words(open_tables: Opener) -> None:
    app = CovenApp(serve_port=2222, account="vi", player_name="Vi", signed_in=False, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        app.screen.query_one("#pace", Select).value = 3
        await pilot.press("ctrl+s")
        await until(pilot, lambda: SIGNED_IN_ONLY in said(app), "the refusal")
        assert isinstance(app.screen, HostTableScreen)
        assert open_tables().my_tables() == [] and not open_tables().listed().tables


async def test_a_signed_in_host_opens_a_turn_based_table_from_the_form(open_tables: Opener) -> None:
    app = CovenApp(serve_port=2222, account="ana", player_name="Ana", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        app.screen.query_one("#pace", Select).value = 7
        app.screen.query_one("#timeout-bot", Select).value = "hard"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Waiting for 1 more player" in flat(app), "the lobby")
        tables = app.tables.store()
        assert tables is not None
        info = tables.my_tables()[0]
        assert (info.pace_days, info.timeout_bot) == (7, "hard")
        assert "7 days per move" in flat(app)  # the lobby says the pace


async def test_the_menu_says_your_move_and_the_list_opens_the_table(open_tables: Opener) -> None:
    _, code = hal_and_bea_table(open_tables)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Your move at 1 table: press y to see it." in flat(app), "the menu's line")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
        screen = app.screen
        assert isinstance(screen, AwaitingTablesScreen)
        await until(pilot, lambda: f"Table {code}, Wizards Cup, 3 days per move: your move, 2 days" in rows(app),
                    "the row")
        assert "Vacation is off: 0 of 14 days used" in flat(app)
        await pilot.press("semicolon")  # the narrator and linear mode read the row as the sentence it is
        await until(pilot, lambda: screen.said.startswith(f"Table {code}, Wizards Cup"), "the sentence")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        assert game.link.my_seats == [1] and game.link.token is None  # her account's seat, no token asked
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await until(pilot, lambda: "it waits for your next move" in said(app), "the leaving line")


async def test_the_menu_line_counts_the_tables_past_half_time_within_80_columns(open_tables: Opener) -> None:
    hal_and_bea_table(open_tables, pace_days=3)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Your move at 1 table: press y to see it." in flat(app), "the line, in time")
        tables = app.tables.store()
        assert tables is not None
        tables.clock = lambda: datetime.now(UTC) + timedelta(days=2)  # two of her three days are gone
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
        await pilot.press("escape")
        line = "Your move at 1 table (1 past half time): press y to see it."
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and line in str(
            app.screen.query_one("#continue-hint", Static).render()), "the line")
        hint = app.screen.query_one("#continue-hint", Static)
        # At 80 columns it wraps within the two rows the "No unfinished game..." hint takes: nothing is cut.
        await until(pilot, lambda: hint.size.height == 2 and "(1 past half time):" in flat(app)
                    and "press y to see it." in flat(app), "the line whole on the menu")


async def test_a_seat_whose_time_ran_out_is_told_and_taken_back_from_the_list(open_tables: Opener) -> None:
    hal, code = hal_and_bea_table(open_tables, pace_days=1)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        tables = app.tables.store()
        assert tables is not None
        tables.clock = lambda: datetime.now(UTC) + timedelta(days=1, hours=1)  # she came back a day late
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
        screen = app.screen
        assert isinstance(screen, AwaitingTablesScreen)
        await until(pilot, lambda: "Your time ran out, so a bot plays Bea: b takes your seat back." in rows(app),
                    "Bea told of her seat")
        assert "Hal ran out of time; a bot plays for them." in rows(app)  # everyone at the table reads who ran out
        assert f"Time ran out at table {code}" in screen.said
        assert hal.find(code).seats[1].role == "bot"
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game, hers again")
        seat = hal.find(code).seats[1]
        assert seat.role == "remote" and seat.claim == tables.claim


async def test_v_turns_the_vacation_on_and_off(open_tables: Opener) -> None:
    hal_and_bea_table(open_tables)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
        await pilot.press("v")
        await until(pilot, lambda: "Vacation is on" in flat(app) and "1 of 14 days used" in flat(app), "on")
        await pilot.press("v")
        await until(pilot, lambda: "Vacation is off: 1 of 14 days used" in flat(app), "off, the day counted")


def test_the_open_tables_row_and_sentence_say_the_pace() -> None:
    opened = datetime(2026, 12, 7, 12, tzinfo=UTC)
    table = ListedTable(code="KXMP", game_id="wizards-cup", options={}, allow_spectators=False, host_name="Hal",
                        created=opened, last_joined=None, seats=2, free=1, pace="3d", pace_days=3)
    assert " 3d " in table_row(table, opened)
    assert "1 of 2 seats free, turn-based, 3 days per move, options" in table_sentence(table, opened)


async def test_a_signed_in_player_joining_by_code_sits_in_her_seat_again_without_a_token(
        open_tables: Opener) -> None:
    _, code = hal_and_bea_table(open_tables)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)  # as `ssh bea+CODE@host` does
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.link.my_seats == [1]


async def test_a_signed_in_player_typing_the_code_in_join_a_table_sits_in_her_seat_again(
        open_tables: Opener) -> None:
    _, code = hal_and_bea_table(open_tables)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, JoinTableScreen), "the join form")
        await pilot.press(*code.lower(), "enter")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.link.my_seats == [1]


async def test_a_player_at_the_table_is_told_when_another_seat_runs_out_of_time(open_tables: Opener) -> None:
    hal, code = hal_and_bea_table(open_tables, pace_days=1)
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        # Bea chooses her team; Hal, away, never does, and a day later another Coven looks at the table.
        live = LiveSession.load(hal.store, hal.find(code).session_id or 0, claim=game.link.claim)
        play_for(live, 1, random.Random(3))
        hal.clock = lambda: datetime.now(UTC) + timedelta(days=1, hours=1)
        assert run_out(hal, hal.find(code), LiveSession.load(hal.store, live.session_id)) == [0]
        await until(pilot, lambda: "Hal ran out of time: the host's easy bot plays their seat" in said(app), "the news")


async def test_a_player_opening_the_table_is_told_of_a_seat_that_ran_out_while_nobody_was_there(
        open_tables: Opener) -> None:
    hal, code = hal_and_bea_table(open_tables, pace_days=1, bea_chooses=True)
    session_id = hal.find(code).session_id or 0
    hal.release_mine(left=True)  # nobody is connected when Hal's day runs out (the table keeper's case)
    hal.clock = lambda: datetime.now(UTC) + timedelta(days=1, hours=1)
    assert run_out(hal, hal.find(code), LiveSession.load(hal.store, session_id)) == [0]
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        await until(pilot, lambda: "Hal ran out of time: the host's easy bot plays their seat" in said(app), "the news")


async def test_opening_a_turn_based_table_does_not_tell_an_away_player_again_of_the_ask_that_stands(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    hal, code = hal_and_bea_table(open_tables)  # both asked for a team; Bea left (and was told then)
    hal.release_mine(left=True)
    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        app = CovenApp(serve_port=2222, account="hal", player_name="Hal", signed_in=True, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.tables.offer_join(code)  # Hal comes back: his Coven drives the table now
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            await until(pilot, lambda: 1 in game._gone, "Hal's Coven to see Bea away", 120)
            assert sender.wait_idle(60)
        assert received.bodies() == [] and sender.sent == 0


async def test_a_guest_driving_a_turn_based_table_sees_the_away_host_as_away(open_tables: Opener) -> None:
    hal, code = hal_and_bea_table(open_tables)
    hal.release_mine(left=True)  # Hal goes: Bea's Coven will drive the table
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.tables.offer_join(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.link.is_host  # Bea holds the table's host role now
        play_for(LiveSession.load(hal.store, game.live.session_id, claim=game.link.claim), 1, random.Random(3))
        await until(pilot, lambda: game.status_text == "Waiting for Hal (away)…", "Hal, away, awaited")
        info = game.link.refresh()
        assert "Hal (away)" in people_line(info, game.link.claim, datetime.now(UTC))


async def test_the_player_who_opens_the_table_lets_the_bot_play_a_timed_out_seat(open_tables: Opener) -> None:
    hal, code = hal_and_bea_table(open_tables, pace_days=1)
    hal.release_mine(left=True)  # nobody is connected: the table waits in the store
    app = CovenApp(serve_port=2222, account="bea", player_name="Bea", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        tables = app.tables.store()
        assert tables is not None
        tables.clock = lambda: datetime.now(UTC) + timedelta(days=1, hours=1)  # neither chose a team in time
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
        await until(pilot, lambda: "Hal ran out of time" in rows(app), "Hal's seat handed over")
        await pilot.press("enter")  # Bea's own seat went to the bot too: enter says b takes it back
        await until(pilot, lambda: "b takes it back" in said(app), "the way back")
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        session_id = hal.find(code).session_id
        assert session_id is not None and hal.find(code).host_claim == tables.claim  # Bea's Coven drives now
        # Bea chooses (people choose before the bots in a secret round); then her Coven plays Hal's bot.
        play_for(LiveSession.load(hal.store, session_id, claim=tables.claim), 1, random.Random(5))
        await until(pilot, lambda: [entry.seat for entry in LiveSession.load(hal.store, session_id).log] == [1, 0],
                    "the bot's team for Hal")


def test_a_notice_to_an_absent_player_at_a_turn_based_table_says_when_their_time_runs_out(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from engine.wizards_cup.state import Phase
    from tests.helpers.notice_server import notice_server
    from tui.games.wizards_cup.team_builder import TeamBuilder
    from tui.notify import seat_asked
    from tui.notify.sender import NoticeSender, RateLimit
    from tui.notify.url import ENV_URL

    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    hal, bea = open_tables(), open_tables()
    hal.account, bea.account = "hal", "bea"
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = hal.host("wizards-cup", {}, 5, plan, host_name="Hal", pace_days=3, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")  # the table is full: the game starts
    session_id = hal.find(code).session_id
    assert session_id is not None
    play_for(LiveSession.load(bea.store, session_id, claim=bea.claim), 1, random.Random(3))  # Bea's team...
    bea.release_mine(left=True)  # ...and she left

    async def scenario() -> None:
        app = CovenApp(serve_port=2222, account="hal", player_name="Hal", signed_in=True, auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Your move at 1 table" in flat(app), "the menu's line")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")  # Hal's team ends the phase: the lineups ask Bea, who is away, again
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "the lineups")
            assert sender.wait_idle(60)

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        before = datetime.now(UTC)
        asyncio.run(scenario())
        bodies = received.bodies()
    [body] = bodies
    assert body["seat"] == "Bea" and body["table"] == code
    deadline = datetime.fromisoformat(str(body["deadline"]))
    assert before + timedelta(days=2) < deadline <= datetime.now(UTC) + timedelta(days=3)  # her 3 days to move


async def test_a_clock_and_a_turn_based_pace_together_are_refused_in_words(open_tables: Opener) -> None:
    from tui.screens.host_table import CLOCK_IS_LIVE_ONLY

    app = CovenApp(serve_port=2222, account="ana", player_name="Ana", signed_in=True, auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        app.screen.query_one("#pace", Select).value = 3
        app.screen.query_one("#clock", Select).value = "5+10"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: CLOCK_IS_LIVE_ONLY in said(app), "the refusal")
        assert isinstance(app.screen, HostTableScreen) and open_tables().my_tables() == []
        app.screen.query_one("#clock", Select).value = "none"  # the days per move alone open it
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "3 days per move" in flat(app), "the lobby")


def test_a_turn_based_table_starts_when_full_and_tells_the_seated_player_who_is_away(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from tests.helpers.notice_server import notice_server
    from tui.notify import seat_asked
    from tui.notify.sender import NoticeSender, RateLimit
    from tui.notify.url import ENV_URL

    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    bea = open_tables()
    bea.account = "bea"

    async def scenario() -> str:
        app = CovenApp(serve_port=2222, account="hal", player_name="Hal", signed_in=True, auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
            app.screen.query_one("#pace", Select).value = 3
            await pilot.press("ctrl+s")
            await until(pilot, lambda: "Waiting for 1 more player" in flat(app), "the lobby")
            hosted = app.tables.store()
            assert hosted is not None
            code = hosted.my_tables()[0].code
            bea.take_seat(code, 1, "Bea")  # the last seat: the table is full...
            bea.release_mine()  # ...and Bea's connection is gone at once: she is asleep across the world
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game, with Bea away")
            assert sender.wait_idle(60)
            return code

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        before = datetime.now(UTC)
        code = asyncio.run(scenario())
        [body] = received.wait_for(1)
    assert body["seat"] == "Bea" and body["table"] == code
    deadline = datetime.fromisoformat(str(body["deadline"]))
    assert before + timedelta(days=2) < deadline <= datetime.now(UTC) + timedelta(days=3)  # her 3 days to move


def test_past_half_time_an_away_player_is_reminded_by_a_notice_once_for_the_move(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from tests.helpers.notice_server import notice_server
    from tui.notify import seat_asked
    from tui.notify.sender import NoticeSender, RateLimit
    from tui.notify.url import ENV_URL

    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    _, code = hal_and_bea_table(open_tables, pace_days=3)  # both choose their teams; Bea is away
    ahead = timedelta(days=2)  # two of the three days are gone

    async def scenario() -> None:
        app = CovenApp(serve_port=2222, account="hal", player_name="Hal", signed_in=True, auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            tables = app.tables.store()
            assert tables is not None
            tables.clock = lambda: datetime.now(UTC) + ahead
            for _ in range(2):  # Hal opens the table twice: one reminder for Bea's move
                await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
                await pilot.press("y")
                await until(pilot, lambda: isinstance(app.screen, AwaitingTablesScreen), "the list")
                await until(pilot, lambda: code in rows(app), "the row")
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
                assert sender.wait_idle(60)
                await pilot.press("escape")

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        before = datetime.now(UTC)
        asyncio.run(scenario())
        assert sender.wait_idle(60)
        bodies = received.bodies()
    # (Each opening also tells her the table waits on her, as for any player who dropped: not counted here.)
    [body] = [body for body in bodies if body["title"] == f"Coven: half your time is gone at table {code}"]
    assert (body["seat"], body["table"], body["game"]) == ("Bea", code, "Wizards Cup")
    assert set(body) == {"title", "message", "table", "game", "seat", "deadline"}  # nothing of the game's state
    deadline = datetime.fromisoformat(str(body["deadline"]))
    assert before + ahead < deadline <= datetime.now(UTC) + timedelta(days=3)  # the end of her 3 days, not later
