"""The Ratings screen at 80x24 (a at the menu): each game's players best first, [ ] between games, ; and linear
mode in words, help, hostile and damaged rows; a signed-in player's own rating on the menu; the host form's Rating."""

from __future__ import annotations

from rich.cells import cell_len
from textual.widgets import OptionList, Select

from saves import SessionStore
from tests.helpers.tables_tui import screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.player_settings import write_setting
from tui.screens.help import HelpScreen
from tui.screens.host_table import HostTableScreen
from tui.screens.menu import TAGLINE, MainMenu
from tui.screens.ratings import RatingsScreen

ROWS = [
    ("Ana", "witchdraft", 30.0, 2.0, 12),
    ("Cy", "witchdraft", 34.0, 6.0, 2),  # the highest mu, but so uncertain that the estimate puts Cy last
    ("Bea", "witchdraft", 27.0, 0.5, 30),
    ("[bold red]Eve[/]", "wizbits", 25.0, 8.0, 1),
    ("Wilhelmina-Koenigsberger-Van-Der-Straaten", "wizbits", 20.0, 5.0, 3),
    ("Mal\x1b[2J", "wizbits", 40.0, 1.0, 5),  # a terminal control in a name: damaged, never shown
    ("Odd", "wizbits", "thirty", 1.0, 5),  # not a number: damaged
]


def write(rows: list[tuple[object, ...]]) -> None:
    with SessionStore() as store, store._write() as conn:
        conn.executemany(
            "INSERT INTO ratings (account, game_id, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, ?)",
            [(*row, "2026-12-07T03:00:00+00:00") for row in rows],
        )


async def open_ratings(pilot: object, app: CovenApp) -> RatingsScreen:
    await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
    await pilot.press("a")  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, RatingsScreen), "the ratings")
    screen = app.screen
    assert isinstance(screen, RatingsScreen)
    return screen


def shown_accounts(screen: RatingsScreen) -> list[str]:
    return [rating.account for rating in screen.listing.ratings]


async def test_players_are_listed_best_estimate_first_and_brackets_change_game() -> None:
    write(ROWS)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_ratings(pilot, app)
        # Wizards Cup has nobody: the screen opens at the first game someone is rated at.
        await until(pilot, lambda: shown_accounts(screen) == ["Bea", "Ana", "Cy"], "WitchDraft's players")
        await until(pilot, lambda: "WitchDraft" in screen_text(app) and "Bea" in screen_text(app), "the rows")
        assert screen.said == "WitchDraft: 3 players are rated."
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: screen.game.game_id == "wizbits", "Wizbits")
        await until(pilot, lambda: "[bold red]Eve[/]" in screen_text(app), "the name as typed, not as markup")
        text = screen_text(app)
        assert "2 damaged rating rows were left out" in text and "\x1b" not in text and "Mal" not in text
        row = next(line for line in app.screen._compositor.render_strips() if "Wilhelmina" in line.text).text
        assert "…" in row and cell_len(row.rstrip()) <= 80
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: "Nobody is rated at Wizards Cup yet" in screen_text(app), "the empty game")
        assert screen.said == "Wizards Cup: Nobody is rated yet."
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "back at the menu")


async def test_the_announce_key_and_linear_mode_say_a_player_in_words_and_f1_lists_the_keys() -> None:
    write(ROWS[:3])
    with SessionStore() as store:
        write_setting(store, None, "linear", True)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_ratings(pilot, app)
        sentence = "1. Bea: rating 25.5 (mu 27.0, sigma 0.50), 30 rated games."
        rows = screen.query_one("#ratings", OptionList)
        await until(pilot, lambda: rows.option_count == 3 and str(rows.get_option_at_index(0).prompt) == sentence,
                    "the first row as a sentence")
        assert not screen.query_one("#ratings-heading").display  # no column headings to read through
        await pilot.press("down")
        await until(pilot, lambda: screen.said.endswith("2. Ana: rating 24.0 (mu 30.0, sigma 2.00), 12 rated games."),
                    "the row the cursor reached, said")
        await pilot.press("up", "semicolon")
        await until(pilot, lambda: screen.said == f"WitchDraft: 3 players are rated. {sentence}", "the announcement")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        labels = [label for _, _, label in app.screen.rows]  # type: ignore[attr-defined]
        for label in ("Game", "Say it", "Back"):
            assert any(label in text for text in labels), labels


async def test_a_signed_in_player_sees_their_own_rating_on_the_menu_and_others_do_not() -> None:
    write(ROWS[:3])
    with SessionStore() as store:
        app = CovenApp(store=store, serve_port=2222, account="Ana", player_name="Ana", signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Your rating: WitchDraft 24.0" in screen_text(app), "Ana's rating")
            assert TAGLINE not in screen_text(app)
    with SessionStore() as store:
        app = CovenApp(store=store, serve_port=2222, account="Dee", player_name="Dee", signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:  # signed in, but never rated
            await until(pilot, lambda: TAGLINE in screen_text(app), "the tagline")
            assert "Your rating" not in screen_text(app)


async def test_the_host_form_offers_rating_only_to_a_signed_in_host_and_on_by_default() -> None:
    with SessionStore() as store:
        app = CovenApp(store=store, serve_port=2222, account="Ana", player_name="Ana", signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
            form = app.screen
            await until(pilot, lambda: bool(form.query("#rated")), "the Rating row")
            assert form.query_one("#rated", Select).value is True
    app = CovenApp(auto_delay=0.0)  # a player at this machine: nobody proved who they are
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HostTableScreen), "the host form")
        await until(pilot, lambda: bool(app.screen.query("#listed")), "the form's rows")
        assert not app.screen.query("#rated")
