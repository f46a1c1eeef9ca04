"""A live table's clock on the game screen at 80x24: the clock line, the ask key's answer, a player's double time,
and the time-out that waits for a dialog to close, hands the seat to the bot and lets its player take it back.

The app is Ana's Coven; Hal hosts from another connection. Time is the table store's injectable clock (moved
forward by the test), never the wall clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from textual.widgets import Input, Static

from engine.core.clock import Fischer
from saves import Presence, SessionStore
from saves.tables import SeatPlan, TableStore
from tests.helpers.layout_audit import look
from tests.helpers.tables_tui import screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.player_settings import write_setting
from tui.screens.lobby import LobbyScreen
from tui.screens.table_game import TableGameScreen
from tui.widgets.ask import AskScreen
from tui.widgets.confirm import ConfirmScreen, PromptScreen

SIZE = (80, 24)
START = datetime(2026, 3, 1, 20, tzinfo=UTC)


def hal_hosts_with_clock(other: TableStore) -> str:
    """Hal hosts a two-seat Wizards Cup table with a 3+2 clock from the other connection; seat 2 is open."""
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    other.clock = lambda: START
    return other.host("wizards-cup", {}, 5, plan, host_name="Hal", clock=Fischer(3, 2)).info.code


async def bea_sits(pilot: Any, app: CovenApp, other: TableStore, code: str) -> TableGameScreen:
    """Ana takes seat 2 from her Coven, Hal starts the game; her game screen."""
    await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    lobby.link.tables.clock = lambda: START
    said = lambda: str(lobby.query_one("#lobby-spectators", Static).render())  # noqa: E731
    await until(pilot, lambda: "Clock: 3+2, 3 minutes plus 2 seconds a move" in said(), "the clock in the lobby")
    other.start(code)
    await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
    game = app.screen
    assert isinstance(game, TableGameScreen)
    return game


def clock_line(game: TableGameScreen) -> str:
    return str(game.query_one("#table-clock", Static).render())


async def test_the_clock_shows_at_80x24_with_a_players_double_time_and_answers_the_ask_key(
        other: TableStore, store: SessionStore) -> None:
    code = hal_hosts_with_clock(other)
    write_setting(store, None, "clock", "double")  # Ana asked for double time in her Settings
    app = CovenApp(auto_delay=0.0, join_code=code)
    async with app.run_test(size=SIZE) as pilot:
        game = await bea_sits(pilot, app, other, code)
        # The lineups are chosen at once: both seats' clocks run, and Ana's shows her request.
        want = "Clock 3+2 · ▶Hal 3:00 · ▶Ana 6:00 (double, asked)"
        await until(pilot, lambda: want in screen_text(app), "the clock line on screen")
        game.link.tables.clock = lambda: START + timedelta(seconds=65)
        await until(pilot, lambda: "▶Ana 4:55 (double, asked)" in clock_line(game), "Ana's time running")
        await pilot.press("apostrophe")
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press("c")
        said = game.narrator.transcript.lines
        await until(pilot, lambda: said[-1].startswith("The clock is 3 minutes plus 2 seconds a move."), "answer")
        assert "Ana has 4 minutes 55 seconds, running (double time, asked)" in said[-1]


async def test_time_running_out_waits_for_a_dialog_then_the_bot_takes_the_seat_and_bea_takes_it_back(
        other: TableStore) -> None:
    code = hal_hosts_with_clock(other)
    app = CovenApp(auto_delay=0.0, join_code=code)
    async with app.run_test(size=SIZE) as pilot:
        game = await bea_sits(pilot, app, other, code)
        await until(pilot, lambda: "▶Ana 3:00" in clock_line(game), "Ana's clock running")
        app.push_screen(ConfirmScreen("Leave the table?", "Leave", "Stay"))  # Ana is mid-confirm
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the dialog")
        game.link.tables.clock = lambda: START + timedelta(minutes=4)
        await until(pilot, lambda: "Ana 0:00" in clock_line(game), "Ana's time run out, drawn")
        assert other.find(code).seats[1].role == "remote"  # a clock never takes a choice away mid-confirm
        await pilot.press("escape")
        await until(pilot, lambda: other.find(code).seats[1].role == "bot", "the seat handed to the bot")
        assert other.find(code).seats[1].bot_level == "normal"
        notes = lambda: " ".join(str(note.message) for note in app._notifications)  # noqa: E731
        await until(pilot, lambda: "Ana's time ran out: a normal bot plays the seat now. Press B to take it back."
                    in notes(), "everyone told")
        await until(pilot, lambda: "Ana: bot (time out)" in clock_line(game), "the clock line says so")
        await pilot.press("B")
        await until(pilot, lambda: other.find(code).seats[1].role == "remote", "the seat taken back")
        assert other.find(code).seats[1].claim == game.link.claim
        await until(pilot, lambda: "▶Ana 1:00" in clock_line(game), "a fresh minute on Ana's clock")


async def test_the_host_form_adds_a_clock_chosen_by_keyboard(other: TableStore) -> None:
    from textual.widgets import Select

    from tui.screens.host_table import HostTableScreen

    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        form = app.screen
        await until(pilot, lambda: bool(form.query("#clock")), "the Clock row")
        select = form.query_one("#clock", Select)
        assert select.value == "none"  # no clock unless the host adds one
        select.focus()
        await pilot.press("enter", "down", "enter")  # the first preset, 5+10
        await until(pilot, lambda: select.value == "5+10", "5+10 chosen")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        clock = other.find(app.screen.link.code).clock  # type: ignore[attr-defined]
        assert clock is not None and clock.clock.fischer == Fischer(5, 10)


async def test_a_replay_shows_each_seats_time_after_the_step_and_answers_the_clock_question(
        other: TableStore, store: SessionStore) -> None:
    import random

    from saves import LiveSession
    from saves.presence import Presence
    from tests.helpers.tables_tui import play_for
    from tui.screens.replay import ReplayScreen

    code = hal_hosts_with_clock(other)
    with Presence() as presence:
        bea = TableStore(store, presence)
        bea.clock = lambda: START
        bea.take_seat(code, 1, "Bea")
        bea.clock_ask(code, [1], "double")
        session_id = other.start(code)
        hal_live = LiveSession.load(other.store, session_id, claim=other.claim)
        bea_live = LiveSession.load(store, session_id, claim=bea.claim)
        other.clock_follow(code, 0, hal_live.to_act)
        rng = random.Random(3)
        other.clock = lambda: START + timedelta(seconds=20)
        play_for(hal_live, 0, rng)  # Hal chooses his team after 20 s
        other.clock_follow(code, len(hal_live.log), hal_live.to_act)
        bea.clock = lambda: START + timedelta(seconds=50)
        bea_live.sync()
        play_for(bea_live, 1, rng)  # Bea hers after 50 s
        bea.clock_follow(code, len(bea_live.log), bea_live.to_act)
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReplayScreen(LiveSession.load(store, session_id), start=1)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, "the replay")
        line = lambda: str(screen.query_one("#replay-clock", Static).render())  # noqa: E731
        await until(pilot, lambda: "Clock 3+2 after step 1 · Hal 2:42 · Bea 6:00 (double, asked)" in line(), "step 1")
        await pilot.press("right")
        await until(pilot, lambda: "Hal 2:42 · Bea 5:14 (double, asked)" in line(), "step 2's times")
        assert "Bea 5:14" in screen_text(app)  # on screen at 80x24
        await pilot.press("apostrophe")
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press("c")
        await until(pilot, lambda: app.screen is screen, "the questions to close")
        notes = lambda: [str(note.message) for note in app._notifications]  # noqa: E731
        await until(pilot, lambda: any(note.startswith("The clock was 3 minutes plus 2 seconds a move. After step 2, "
                                                       "Hal had 2 minutes 42 seconds; Bea had 5 minutes 14 seconds "
                                                       "(double time, asked).") for note in notes()), "the answer")


async def test_the_clock_stands_still_while_a_curtain_is_up_at_the_hosts_terminal(other: TableStore) -> None:
    from tui.screens.curtain import CurtainScreen

    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tables = app.tables.store()
        assert tables is not None
        tables.clock = lambda: START
        plan = [SeatPlan("local", "Anastasia Quill"), SeatPlan("local", "Cyrilla Moonwort"), SeatPlan("remote", "Seat 3")]
        hosted = tables.host("witchdraft", {}, 4, plan, host_name="Anastasia Quill", clock=Fischer(3, 2))
        code = hosted.info.code
        app.tables.open_lobby(code, hosted.token)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.take_seat(code, 2, "Beatrice Hollowell")
        await until(pilot, lambda: "Beatrice Hollowell · seated" in screen_text(app), "Beatrice seated")
        await pilot.press("s")
        # Anastasia and Cyrilla share this keyboard: the secret picks start behind a curtain, and the clock waits for it.
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "the curtain")

        def stopped() -> bool:
            stored = tables.find(code).clock
            return stored is not None and stored.clock.curtain

        await until(pilot, stopped, "the clock stopped")
        game = app.screen_stack[-2]
        assert isinstance(game, TableGameScreen)
        await until(pilot, lambda: clock_line(game).startswith("3+2 (stopped: curtain)"), "the line says so")
        tables.clock = lambda: START + timedelta(minutes=10)
        await until(pilot, lambda: "Anastasia Quill 3:00 · Cyrilla Moonwort 3:00" in clock_line(game), "no time spent")
        await pilot.press("enter")  # Anastasia looks: the curtain is down, the clocks run again
        await until(pilot, lambda: app.screen is game, "the table")
        await until(pilot, lambda: "▶Anastasia Quill" in clock_line(game) and "stopped" not in clock_line(game), "running again")
        stored = tables.find(code).clock
        assert stored is not None and stored.clock.left_at(0, START.timestamp() + 600) == 180.0
        seen = look(app, "a three-seat table's clock at 80x24")  # every line whole, or shortened with its help
        assert not seen.problems, seen.problems
        whole = game.clock.text()
        assert len(whole) > SIZE[0] - 2 and clock_line(game).endswith("…")  # three long names do not fit
        assert whole in game.help_now()


async def test_a_player_who_asked_for_no_clock_is_shown_so_and_never_runs_out(
        other: TableStore, store: SessionStore) -> None:
    code = hal_hosts_with_clock(other)
    write_setting(store, None, "clock", "none")
    app = CovenApp(auto_delay=0.0, join_code=code)
    async with app.run_test(size=SIZE) as pilot:
        game = await bea_sits(pilot, app, other, code)
        await until(pilot, lambda: "Clock 3+2 · ▶Hal 3:00 · Ana: no clock (asked)" in screen_text(app), "the line")
        game.link.tables.clock = lambda: START + timedelta(hours=2)
        await until(pilot, lambda: "▶Hal 0:00" in clock_line(game), "two hours later, drawn")
        assert other.find(code).seats[1].role == "remote"  # Ana keeps her seat: she plays without a clock


async def test_a_setting_changed_during_the_game_reaches_the_table_when_the_player_comes_back(
        other: TableStore, store: SessionStore) -> None:
    code = hal_hosts_with_clock(other)
    app = CovenApp(auto_delay=0.0, join_code=code)
    async with app.run_test(size=SIZE) as pilot:
        game = await bea_sits(pilot, app, other, code)
        await until(pilot, lambda: "▶Ana 3:00" in clock_line(game), "Ana on the table's clock")
        await pilot.press("f1")  # the help covers the table while her setting changes
        await until(pilot, lambda: app.screen is not game, "a screen over the table")
        write_setting(store, None, "clock", "none")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game, "back at the table")
        await until(pilot, lambda: "Ana: no clock (asked)" in clock_line(game), "her request taken up")
        stored = other.find(code).clock
        assert stored is not None and stored.clock.ask(1) == "none"


async def test_a_host_back_at_a_new_terminal_takes_the_seat_the_clock_gave_a_bot_back_with_the_host_token(
        other: TableStore) -> None:
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    other.clock = lambda: START
    hosted = other.host("wizards-cup", {}, 5, plan, host_name="Hal", clock=Fischer(3, 2))
    code = hosted.info.code
    with SessionStore() as bea_store, Presence() as bea_presence:
        bea = TableStore(bea_store, bea_presence)
        bea.clock = lambda: START
        bea.take_seat(code, 1, "Bea")
        other.start(code)
        other.clock_follow(code, 0, [0, 1])  # both teams are asked: both clocks run
        other.clock = lambda: START + timedelta(minutes=4)
        other.clock_time_out(code, 0)  # Hal's time ran out at his terminal
        other.release_mine(left=True)  # and that terminal is gone: a bot plays his seat
        assert bea.find(code).seats[0].role == "bot"
        app = CovenApp(auto_delay=0.0, join_code=code)  # Hal, later, at another terminal
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "Reclaim my seat with its token" in screen_text(app), "the reclaim choice")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the token prompt")
            app.screen.query_one("#prompt-input", Input).value = hosted.token
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the table")
            game = app.screen
            assert isinstance(game, TableGameScreen)
            seat = bea.find(code).seats[0]
            assert (seat.role, seat.claim) == ("local", game.link.claim)
            await until(pilot, lambda: game.human_seats == [0], "Hal playing his seat here again")
            await until(pilot, lambda: "▶Hal" in clock_line(game) and "bot" not in clock_line(game),
                        "his clock running again")
