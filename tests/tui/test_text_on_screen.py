"""Names on screen: Rich markup shows as typed, and nothing from the store reaches the terminal raw."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from saves import LiveSession, SeatInfo, SessionStore, export_session
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.curtain import CurtainScreen
from tui.screens.sessions import SessionsScreen

MARKUP_NAME = "[bold red]x"


def screen_lines(app: CovenApp) -> str:
    """What the terminal would show, as plain text, one line per row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_a_name_that_looks_like_markup_is_shown_as_typed_in_the_game(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo(MARKUP_NAME), SeatInfo("[i]Bea[/i]")])
    app = CovenApp(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        app.start_game(live)
        await until(pilot, lambda: (isinstance(app.screen, CurtainScreen)
                                    and f"Pass to {MARKUP_NAME}." in screen_lines(app)),
                    'isinstance(app.screen, CurtainScreen)')
        assert isinstance(app.screen, CurtainScreen)
        assert f"Pass to {MARKUP_NAME}." in screen_lines(app)
        await pilot.press("enter")
        await until(pilot, lambda: (f"{MARKUP_NAME} to choose" in screen_lines(app)),
                    'f"{MARKUP_NAME} to choose" in screen_lines(app)')
        app.notify(f"It is {MARKUP_NAME}'s turn [/]")  # a closing tag alone would be a markup error
        await until(pilot, lambda: (list(app._notifications)[-1].message == f"It is {MARKUP_NAME}'s turn [/]"),
                    'toast.message == f"It is {MARKUP_NAME}\'s turn [/]" and no...')
        toast = list(app._notifications)[-1]
        assert toast.message == f"It is {MARKUP_NAME}'s turn [/]" and not toast.markup


async def test_the_sessions_screen_shows_names_as_typed(store: SessionStore) -> None:
    LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo(MARKUP_NAME), SeatInfo("[i]Bea")])
    app = CovenApp(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_sessions()
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(app.screen, SessionsScreen)')
        shown = screen_lines(app)
        assert f"{MARKUP_NAME} vs [i]Bea" in shown


async def test_the_sessions_screen_never_draws_a_raw_escape_from_the_store(
    store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo("Ana"), SeatInfo("Bea")])
    summary = store.list_sessions()[0]
    # As a damaged row might hold it, past every check: the screen must guard by itself.
    seat = SeatInfo("placeholder")
    object.__setattr__(seat, "name", "Ana\x1b]0;pwned\x07")
    hostile = type(summary)(**{**summary.__dict__, "seats": (seat, summary.seats[1]),
                               "result": "Ana\x1b[2J wins"})
    monkeypatch.setattr(SessionStore, "list_sessions", lambda self, owner=None: [hostile])
    app = CovenApp(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_sessions()
        await until(pilot, lambda: 'Ana\\x1b]0;pwned\\x07' in screen_lines(app), '"Ana\\\\x1b]0;pwned\\\\x07" in shown')
        shown = screen_lines(app)
        assert "Ana\\x1b]0;pwned\\x07" in shown
        assert "\x1b" not in shown and "\x07" not in shown


async def test_the_new_game_form_refuses_an_unsafe_name_and_says_which(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#seat-name-0").value = "Ana\u202e"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "bidirectional override" in str(screen.query_one("#form-errors", Static).render()),
                    "the form's error")
        errors = str(screen.query_one("#form-errors", Static).render())
        assert "Seat 1's name must not contain a bidirectional override (U+202E)." in errors
        assert app.screen is screen and store.list_sessions() == []


async def test_the_delete_question_quotes_a_markup_name_as_typed(store: SessionStore) -> None:
    from tui.widgets.confirm import ConfirmScreen

    LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo(MARKUP_NAME), SeatInfo("Bea")])
    app = CovenApp(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_sessions()
        await pilot.pause()
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 'isinstance(app.screen, ConfirmScreen)')
        shown = screen_lines(app)
        assert f"{MARKUP_NAME} vs Bea" in shown and "\\[" not in shown


async def test_importing_a_lone_surrogate_on_the_sessions_screen_is_refused_not_a_crash(
    store: SessionStore, tmp_path: Path
) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo("Ana"), SeatInfo("Bea")])
    path = tmp_path / "game.json"
    export_session(store, live.session_id, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["seats"][1]["name"] = "Bea\ud800"
    path.write_text(json.dumps(document, ensure_ascii=True), encoding="utf-8")
    app = CovenApp(store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_sessions()
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = str(path)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(app.screen, SessionsScreen)')
        toast = list(app._notifications)[-1]
        assert toast.title == "Import failed" and toast.severity == "error"
        assert "Seat 2's name must not contain a lone surrogate (U+D800)" in toast.message
        assert len(store.list_sessions()) == 1
