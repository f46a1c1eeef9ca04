"""``?`` and F1 open the help of the screen in front; footers fit; the status line and Sessions fit 80 columns."""

from __future__ import annotations

import time
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.widgets._footer import FooterKey

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.game.screen import GameScreen, fit_status
from tui.screens.help import HelpScreen
from tui.widgets.fitting_footer import HELP_LABEL, FittingFooter


def rows(app: App[Any]) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def listed(help_screen: Any) -> str:
    assert isinstance(help_screen, HelpScreen)
    return "\n".join(f"{group}: {label}" for group, _, label in help_screen.rows)


def wizards_cup_at(steps: int) -> int:
    """A Wizards Cup session of Ana against a bot, after ``steps`` moves; its id."""
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", None, 5, seats("Ana", "Merlin:normal"))
        play_until(live, steps)
        return live.session_id


async def open_game(pilot: Any, app: CovenApp, session_id: int) -> GameScreen:
    app.open_session(session_id)
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def test_question_mark_on_the_game_screen_lists_its_keys_grouped_and_escape_closes() -> None:
    session_id = wizards_cup_at(2)  # Ana's lineup
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await open_game(pilot, app, session_id)
        # The log has the focus until the table shows Ana's lineup; the help lists the keys of what has it.
        await until(pilot, lambda: getattr(game.focused, "id", None) == "lu-list", "Ana's lineup to take the focus")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert help_screen.title_text == "Help · Wizards Cup"
        assert "The table of one game" in help_screen.about and "Now: Wizards Cup · Round 1, lineups" in help_screen.about
        text = listed(help_screen)
        for expected in ("Choosing:", "Confirm", "Waiting Card", "Showing:", "Log", "Leaving:", "Menu", "Moving:"):
            assert expected in text, text
        groups = [group for group, _, _ in help_screen.rows]
        assert groups.index("Leaving") > groups.index("Choosing")  # leaving comes last
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game, "the help to close")


async def test_f1_opens_the_help_and_enter_presses_the_chosen_key() -> None:
    session_id = wizards_cup_at(2)
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await open_game(pilot, app, session_id)
        log = game.query_one("#game-log")
        assert not log.has_class("hidden")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = [key for _, key, _ in help_screen.rows]
        options = help_screen.query_one("#help-keys")
        options.highlighted = keys.index("l")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is game and log.has_class("hidden"), "the log to hide")


async def test_question_mark_types_into_a_field_and_f1_still_opens_the_help() -> None:
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: type(app.screen).__name__ == "SessionsScreen", "the sessions")
        await pilot.press("i")  # the import dialog: a path typed into a field
        await until(pilot, lambda: isinstance(app.focused, Input), "the path field")
        dialog = app.screen
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press("a", "question_mark", "b")
        await until(pilot, lambda: field.value == "a?b", "the typed path")
        assert app.screen is dialog
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert "Type the value asked for" in app.screen.about  # type: ignore[attr-defined]
        await pilot.press("f1")  # F1 (or ?) again closes it
        await until(pilot, lambda: app.screen is dialog, "the dialog again")
        assert field.value == "a?b"


async def test_help_opens_over_a_dialog_and_on_every_menu_place() -> None:
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the menu's help")
        text = listed(app.screen)
        for place in ("New", "Sessions", "Host", "Join", "Decks", "Lab", "Rules", "Quit"):
            assert place in text, text
        await pilot.press("escape")
        await pilot.press("r")  # the rules' game picker is a dialog
        await until(pilot, lambda: type(app.screen).__name__ == "GamePicker", "the game picker")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the picker's help")
        assert "Cancel" in listed(app.screen) and "Move the highlight" in listed(app.screen)


class Crowded(Screen[None]):
    """A screen with more keys than 80 columns hold."""

    BINDINGS = [Binding(key, f"press('{key}')", f"Long action {key}") for key in "abcdefgh"] + [
        Binding("escape", "leave", "Leave")]

    def compose(self) -> ComposeResult:
        yield Static("crowded")
        yield FittingFooter()

    def action_press(self, key: str) -> None:
        self.pressed = key


class CrowdedApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Crowded())


def footer_row(app: App[Any]) -> str:
    return rows(app)[-1]


async def test_a_footer_too_narrow_keeps_the_first_keys_escape_and_help_whole() -> None:
    app = CrowdedApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query(FooterKey), "the footer")
        await until(pilot, lambda: (app.screen.query_one(FittingFooter).shown[0] == 'Long action a'),
                    'footer.shown[0] == "Long action a" and footer.shown[-2:] ...')
        footer = app.screen.query_one(FittingFooter)
        assert footer.shown[0] == "Long action a" and footer.shown[-2:] == ["Leave", HELP_LABEL], footer.shown
        assert footer.left_out and "Long action h" in footer.left_out
        row = footer_row(app)
        for description in footer.shown:
            assert description in row, row
        assert "palette" not in row  # the palette goes first
        for key in app.screen.query(FooterKey):
            assert key.region.right <= 80
        await pilot.resize_terminal(200, 30)  # type: ignore[attr-defined]
        await until(pilot, lambda: not app.screen.query_one(FittingFooter).left_out, "every key at 200 columns")
        await until(pilot, lambda: (
            "Long action h" in footer_row(app) and HELP_LABEL not in app.screen.query_one(FittingFooter).shown
        ), '"Long action h" in footer_row(app) and HELP_LABEL not in ...')


def test_the_status_line_drops_the_game_name_then_cuts_after_a_word() -> None:
    parts = ("Table ABCD · ", "Wizbits Elemenstor Battle", "Turn 3 (Ana): Play Phase 1: Non-Elements",
             "Playing automatically (a to stop)")
    assert fit_status(parts, 100) == ("Table ABCD · Turn 3 (Ana): Play Phase 1: Non-Elements — "
                                      "Playing automatically (a to stop)")
    assert fit_status(parts, 78) == "Turn 3 (Ana): Play Phase 1: Non-Elements — Playing automatically (a to stop)"
    assert fit_status(parts, 60) == "Turn 3 (Ana): Play… — Playing automatically (a to stop)"
    narrow = fit_status(("", "Wizards Cup", "Round 1", "Waiting for Bartholomew the Late and Morgana the Patient…"), 40)
    assert len(narrow) <= 40 and narrow.endswith("…")
    assert narrow.rstrip("…").split()[-1] in "Waiting for Bartholomew the Late and Morgana the Patient".split()
    assert fit_status(("", "Wizards Cup", "Round 1", "Ana to choose"), 78) == "Wizards Cup · Round 1 — Ana to choose"


async def test_auto_play_status_fits_80_columns() -> None:
    session_id = wizards_cup_at(4)  # both lineups set: the table's duel waits
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await open_game(pilot, app, session_id)
        await pilot.press("a")
        await until(pilot, lambda: game.auto_play, "automatic play")
        await until(pilot, lambda: (
            'Playing automatically (a to stop)' in next((row for row in rows(app) if 'Round 1' in row))
        ), '"Playing automatically (a to stop)" in status')
        status = next(row for row in rows(app) if "Round 1" in row)
        assert "Playing automatically (a to stop)" in status, status
        assert "auto —" not in status  # said once


@pytest.fixture
def pinned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("saves.store.utc_now", lambda: "2026-03-14T15:09:26.000000+00:00")
    monkeypatch.setattr("tui.screens.sessions.current_year", lambda: 2026)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


async def test_sessions_of_three_games_show_last_played_at_80_columns(pinned: None) -> None:
    with SessionStore() as store:
        LiveSession.create(store, "wizards-cup", None, 1, seats("Morgana the Patient", "Merlin:normal"))
        draft = LiveSession.create(store, "witchdraft", None, 2, seats("Ana", "Bo:easy", "Cy:easy"))
        play_until(draft, 3)
        battle = LiveSession.create(store, "wizbits", {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}, 3,
                                    seats("Ana", "Bo:easy"))
        play_until(battle, 12)
        progress = LiveSession.load(store, battle.session_id).progress
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: type(app.screen).__name__ == "SessionsScreen", "the sessions")
        await until(pilot, lambda: (any(('Game' in row and 'Last played' in row for row in rows(app)))),
                    'any("Game" in row and "Last played" in row for row in shown)')
        shown = rows(app)
        assert any("Game" in row and "Last played" in row for row in shown), "\n".join(shown)
        listed = [row for row in shown if "in progress" in row]
        assert len(listed) == 3 and all(row.rstrip().endswith("Mar 14 15:09") for row in listed), "\n".join(shown)
        # The newest (Wizbits) is highlighted: its whole progress is in the line under the list.
        assert progress and any(progress in row for row in shown), "\n".join(shown)


async def test_a_long_list_of_sessions_keeps_last_played_beside_its_scrollbar(pinned: None) -> None:
    with SessionStore() as store:
        for number in range(30):
            game = ("wizards-cup", "witchdraft")[number % 2]
            LiveSession.create(store, game, None, number, seats("Morgana the Patient", "Bo:easy"))
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: type(app.screen).__name__ == "SessionsScreen", "the sessions")
        await until(pilot, lambda: (any(('Game' in row and 'Last played' in row for row in rows(app)))),
                    'any("Game" in row and "Last played" in row for row in shown)')
        shown = rows(app)
        assert any("Game" in row and "Last played" in row for row in shown), "\n".join(shown)
        listed = [row for row in shown if "in progress" in row]
        assert len(listed) > 10 and all("Mar 14 15:09" in row for row in listed), "\n".join(shown)


def test_a_cut_keeps_whole_words_and_says_so() -> None:
    from tui.fit_text import cut_words

    assert cut_words("Turn 1 (Ana): Play Phase 1: Non-Elements", 14) == "Turn 1 (Ana)…"
    assert cut_words("Phase 1, pick 2 of 9", 15) == "Phase 1, pick…"
    assert cut_words("Phase 1, pick 2 of 9", 20) == "Phase 1, pick 2 of 9"
    assert cut_words("Bartholomew", 6) == "Barth…"  # one word longer than the room: cut where it must
