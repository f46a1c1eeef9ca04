"""The Open tables screen at 80x24: tables listed by another process appear, are joined or watched by keyboard,
and the list follows them without losing the cursor; linear mode, help and hostile names."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from rich.cells import cell_len
from textual.widgets import OptionList

from engine.core.clock import Fischer
from saves import SessionStore, db_path
from saves.table_records import parse_time
from saves.tables import SeatPlan, TableStore
from tests.helpers.tables_tui import screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.player_settings import write_setting
from tui.screens.help import HelpScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.menu import MainMenu
from tui.screens.open_tables import OpenTablesScreen
from tui.screens.open_tables_rows import COLUMNS

TWO = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]


def hosts(other: TableStore, name: str = "Hal", *, listed: bool = True, spectators: bool = False,
          options: dict[str, object] | None = None, clock: Fischer | None = None) -> str:
    """``name`` hosts a two-seat Wizards Cup table from the other process; its code."""
    plan = [SeatPlan("local", name), SeatPlan("remote", "Seat 2")]
    return other.host("wizards-cup", options or {}, 3, plan, host_name=name, listed=listed,
                      allow_spectators=spectators, clock=clock).info.code


async def open_list(pilot: object, app: CovenApp) -> OpenTablesScreen:
    await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
    await pilot.press("t")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, OpenTablesScreen), "the open tables")
    screen = app.screen
    assert isinstance(screen, OpenTablesScreen)
    return screen


def listed_codes(screen: OpenTablesScreen) -> list[str]:
    return [table.code for table in screen.listing.tables]


async def test_a_table_listed_elsewhere_appears_and_enter_joins_it(other: TableStore) -> None:
    hosts(other, "Uma", listed=False)  # reachable by code only: never on the list
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: "No table is listed now" in screen_text(app), "the empty list")
        code = hosts(other, options={"tokens_to_win": 3})
        await until(pilot, lambda: listed_codes(screen) == [code], "Hal's table to appear")
        await until(pilot, lambda: "Hal" in screen_text(app), "Hal's row")
        text = screen_text(app)
        for shown in ("Wizards Cup", "Cup Tokens to win 3", "no clock", "1 of 2", "just now"):
            assert shown in text, shown
        assert "Uma" not in text
        assert screen.said.startswith("New: Wizards Cup hosted by Hal: 1 of 2 seats free")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.link.token and not lobby.link.spectator
        seat = other.find(code).seats[1]
        assert (seat.name, seat.claim) == ("Ana", lobby.link.claim)
        assert other.listed().tables == ()  # full now: off the list


async def test_w_watches_a_table_that_allows_spectators(other: TableStore) -> None:
    closed_door = hosts(other, "Uma")
    open_door = hosts(other, spectators=True)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [closed_door, open_door], "both tables")
        assert screen.highlighted() is not None and screen.highlighted().code == closed_door  # type: ignore[union-attr]
        await pilot.press("w")  # Uma allows no spectators: nothing happens
        assert isinstance(app.screen, OpenTablesScreen) and other.find(closed_door).watchers == ()
        await pilot.press("down", "w")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby, watching")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.link.spectator
        assert [watcher.name for watcher in other.find(open_door).watchers] == ["Ana"]
        assert other.find(open_door).open_seats() == [1]  # watching takes no seat


async def test_the_list_follows_tables_opening_and_closing_and_keeps_the_cursor(other: TableStore) -> None:
    first, second = hosts(other, "Hal"), hosts(other, "Ivy")
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [first, second], "two tables")
        await pilot.press("down")
        await until(pilot, lambda: getattr(screen.highlighted(), "code", None) == second, "the cursor on Ivy's")
        third = hosts(other, "Jo")
        await until(pilot, lambda: listed_codes(screen) == [first, second, third], "Jo's table")
        assert getattr(screen.highlighted(), "code", None) == second
        other.close(first)
        await until(pilot, lambda: listed_codes(screen) == [second, third], "Hal's table to go")
        assert getattr(screen.highlighted(), "code", None) == second
        assert "1 table left the list." in screen.said
        shown = screen._shown
        screen.reload(force=True)  # nothing changed: nothing is redrawn
        assert screen._shown is shown


async def test_linear_mode_reads_each_table_as_a_sentence_and_the_announce_key_says_it(other: TableStore) -> None:
    with SessionStore() as store:
        write_setting(store, None, "linear", True)
    code = hosts(other, spectators=True)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [code], "the table")
        sentence = ("Wizards Cup hosted by Hal: 1 of 2 seats free, live play, no clock, options standard, "
                    "spectators may watch")
        rows = screen.query_one("#open-tables", OptionList)
        await until(pilot, lambda: rows.option_count == 1 and str(rows.get_option_at_index(0).prompt).startswith(
            sentence), "the sentence")
        await until(pilot, lambda: "spectators may" in screen_text(app), "the sentence on screen")
        assert not screen.query_one("#open-tables-heading").display  # no column headings to read through
        await pilot.press("semicolon")
        await until(pilot, lambda: screen.said.startswith(f"1 table is listed. {sentence}"), "the announcement")


async def test_each_live_table_shows_its_clock_in_its_row_and_its_sentence(other: TableStore) -> None:
    clocked = hosts(other, "Cleo", clock=Fischer(5, 10))
    plain_table = hosts(other, "Hal")
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [clocked, plain_table], "both tables")
        lines = [strip.text for strip in app.screen._compositor.render_strips()]
        heading = next(line for line in lines if "Pace" in line)
        cleo = next(line for line in lines if "Cleo" in line)
        hal = next(line for line in lines if "Hal" in line)
        column = heading.index("Pace")  # the cell sits under its heading, inside 80 columns
        assert cleo[column:].startswith("5+10") and hal[column:].startswith("no clock")
        assert all(cell_len(line.rstrip()) <= 80 for line in (heading, cleo, hal))
    with SessionStore() as store:
        write_setting(store, None, "linear", True)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:  # linear mode and the narrator read the sentences
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [clocked, plain_table], "both tables")
        rows = screen.query_one("#open-tables", OptionList)
        await until(pilot, lambda: rows.option_count == 2, "the sentences")
        said = [str(rows.get_option_at_index(index).prompt) for index in range(2)]
        assert "live play, a clock of 5 minutes plus 10 seconds a move," in said[0]
        assert "live play, no clock," in said[1]
        await pilot.press("semicolon")
        await until(pilot, lambda: "a clock of 5 minutes plus 10 seconds a move" in screen.said, "the announcement")


async def test_f1_lists_the_keys_and_hostile_names_stay_plain_and_fit(other: TableStore) -> None:
    marked = hosts(other, "[bold red]Eve")
    long = hosts(other, "Wilhelmina-Koenigsberger-Van-Der-Straaten")
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [marked, long], "both tables")
        await until(pilot, lambda: "[bold red]Eve" in screen_text(app), "the name as typed")
        row = next(line for line in app.screen._compositor.render_strips() if "Wilhelmina" in line.text).text
        assert "…" in row and "Van-Der-Straaten" not in row
        assert cell_len(row.rstrip()) <= 80 and sum(width for _, width in COLUMNS) + len(COLUMNS) - 1 <= 78
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        labels = [label for _, _, label in app.screen.rows]  # type: ignore[attr-defined]
        for label in ("Join", "Watch", "Say it", "Back"):
            assert any(label in text for text in labels), labels


async def test_the_host_form_lists_a_table_only_when_asked_and_remembers_the_choice(other: TableStore) -> None:
    from textual.widgets import Select

    from tui.screens.host_table import HostTableScreen

    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        form = app.screen
        await until(pilot, lambda: bool(form.query("#listed")), "the Listing row")
        assert form.query_one("#listed", Select).value is False  # off the first time
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the unlisted table's lobby")
        assert other.listed().tables == () and not app.screen.link.current().listed  # type: ignore[attr-defined]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form again")
        form = app.screen
        await until(pilot, lambda: bool(form.query("#listed")), "the Listing row")
        form.query_one("#listed", Select).value = True
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the listed table's lobby")
        code = app.screen.link.code  # type: ignore[attr-defined]
        assert [(table.code, table.host_name) for table in other.listed().tables] == [(code, "Ana")]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        assert other.listed().tables == ()  # closed: off the list
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form a third time")
        form = app.screen
        await until(pilot, lambda: bool(form.query("#listed")), "the Listing row")
        assert form.query_one("#listed", Select).value is True


async def test_ages_move_on_and_an_hour_without_a_join_drops_the_table_from_the_screen(other: TableStore) -> None:
    code = hosts(other)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [code], "the table")
        tables = app.tables.store()
        assert tables is not None
        start = parse_time(other.find(code).created)
        tables.clock = lambda: start + timedelta(minutes=5, seconds=30)  # no commit: the age is read on time
        await until(pilot, lambda: "5 min" in screen_text(app), "the table's age")
        tables.clock = lambda: start + timedelta(minutes=61)
        await until(pilot, lambda: listed_codes(screen) == [], "the table to drop off")
        assert "No table is listed now" in screen_text(app)


async def test_a_damaged_listed_row_is_left_out_and_said(other: TableStore) -> None:
    good, bad = hosts(other), hosts(other, "Ivy")
    conn = sqlite3.connect(db_path())
    conn.execute("UPDATE tables SET options = 'null' WHERE code = ?", (bad,))
    conn.commit()
    conn.close()
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [good], "the readable table")
        await until(pilot, lambda: "1 listed table could not be read" in screen_text(app), "the damage said")


async def test_a_name_the_table_already_has_sends_the_player_to_the_join_form(other: TableStore) -> None:
    from tui.screens.join_table import JoinTableScreen

    code = hosts(other, "Ana")  # the host here is Ana too, as this terminal's player is
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_list(pilot, app)
        await until(pilot, lambda: listed_codes(screen) == [code], "the table")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, JoinTableScreen), "the join form")
        await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat offered")
        assert other.find(code).open_seats() == [1]  # nobody sat down under a name taken already


def test_options_read_as_the_changes_from_the_defaults_and_never_a_deck_lists_text() -> None:
    from saves.table_listing import ListedTable
    from tui.screens.open_tables_rows import options_text

    def table(game_id: str, options: dict[str, object]) -> ListedTable:
        return ListedTable("KXMP", game_id, options, False, "Hal", datetime.now(UTC), None, 2, 1)

    assert options_text(table("wizards-cup", {"tokens_to_win": 2})) == "standard"
    assert options_text(table("witchdraft", {"faster": True, "face_up": True})) == "Recipes face up, Faster Game"
    deck = "4 Ember Imp\n4 Secret Combo"
    text = options_text(table("wizbits", {"deck_1": deck, "format": "limited"}))
    assert text == "Format limited, Seat 1 deck custom" and "Ember" not in text
