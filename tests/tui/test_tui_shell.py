"""Behaviour tests of the app shell: menu, palette, terminal size, damaged stores, new game, rules."""

from __future__ import annotations

from typing import Any

from textual.command import CommandPalette
from textual.widgets import OptionList, Static

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import FakeUI, game_screen, seats
from tests.helpers.waiting import until
from tui.app import CovenApp


async def test_menu_keys_open_screens(fake_ui: FakeUI) -> None:
    from tui.screens.menu import MainMenu
    from tui.screens.new_game import NewGameScreen
    from tui.screens.rules import RulesScreen
    from tui.screens.sessions import SessionsScreen

    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MainMenu)
        for key, screen_type in (("n", NewGameScreen), ("s", SessionsScreen), ("r", RulesScreen)):
            await pilot.press(key)
            assert isinstance(app.screen, screen_type)
            await pilot.press("escape")
            assert isinstance(app.screen, MainMenu)


async def test_continue_disabled_without_sessions_and_resumes_latest(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.menu import NO_CONTINUE

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        hint = app.screen.query_one("#continue-hint", Static)
        assert str(hint.render()) == NO_CONTINUE
        await pilot.press("c")
        assert type(app.screen).__name__ == "MainMenu"
        live = LiveSession.create(store, "wizards-cup", None, 3, seats("Ann", "Bob"))
        app.screen.refresh_continue()  # type: ignore[attr-defined]
        await pilot.press("c")
        await until(pilot, lambda: (game_screen(app).live.session_id == live.session_id),
                    'game_screen(app).live.session_id == live.session_id')


async def test_command_palette_lists_main_commands(fake_ui: FakeUI) -> None:
    from tui.commands import CovenCommands

    app = CovenApp()
    async with app.run_test(size=(80, 24)):
        provider = CovenCommands(app.screen)
        names = [name for name, _, _ in provider._commands()]
        assert names[:3] == ["New game", "Continue", "Sessions"]
        assert "Rules: Wizards Cup" in names and "Quit Coven" in names


async def test_command_palette_opens_sessions(fake_ui: FakeUI) -> None:
    from tui.screens.sessions import SessionsScreen

    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"sessions")

        def sessions_highlighted() -> bool:
            palette = app.screen
            if not isinstance(palette, CommandPalette):
                return False
            results = palette.query_one(OptionList)
            highlighted = results.highlighted_option
            return highlighted is not None and "Sessions" in str(highlighted.prompt)

        await until(pilot, sessions_highlighted, "the palette to offer Sessions")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(app.screen, SessionsScreen)')


async def test_too_small_notice_appears_and_disappears() -> None:
    from tui.screens.menu import MainMenu
    from tui.screens.too_small import TooSmallScreen

    app = CovenApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen), 'isinstance(app.screen, TooSmallScreen)')
        text = str(app.screen.query_one("#too-small-notice", Static).render())
        assert "80×24" in text and "60×20" in text
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the notice to go")
        await pilot.resize_terminal(70, 30)
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen), "the notice again")


async def test_newer_schema_database_shows_message(coven_data_dir: Any) -> None:
    import sqlite3

    from saves import db_path

    SessionStore().close()
    with sqlite3.connect(db_path()) as conn:
        conn.execute("PRAGMA user_version = 999")
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (type(app.screen).__name__ == "StoreProblemScreen"),
                    'type(app.screen).__name__ == "StoreProblemScreen"')
        message = str(app.screen.query_one("#problem-message", Static).render())
        assert "newer Coven" in message
        await pilot.press("n")  # nothing to open; must not crash
        assert type(app.screen).__name__ == "StoreProblemScreen"


async def test_corrupt_database_notice_is_shown(coven_data_dir: Any) -> None:
    from saves import db_path

    db_path().write_bytes(b"this is not a database" * 100)
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (any("moved" in notification.message for notification in app._notifications)),
                    'any("moved" in notification.message for notification in a...')


# -- new game -------------------------------------------------------------------------


async def test_new_game_form_starts_a_game(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.new_game import NewGameScreen

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), 'isinstance(app.screen, NewGameScreen)')
        app.screen.query_one("#seed").value = "42"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: game_screen(app).live.seed == 42, 'screen.live.seed == 42')
        screen = game_screen(app)
        assert screen.live.seed == 42
        assert [seat.name for seat in screen.live.seats] == ["Ana", "Merlin"]
        assert screen.live.seats[1].bot_level == "normal"
        assert [type(s).__name__ for s in app.screen_stack][-2:] == ["MainMenu", "GameScreen"]


async def test_new_game_validation_messages(fake_ui: FakeUI, store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#seat-name-0").value = "Merlin"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = "abc"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        errors = str(screen.query_one("#form-errors", Static).render())
        assert "names must differ" in errors and "whole number" in errors
        assert screen.focused is not None and screen.focused.id == "seat-name-1"  # the second "Merlin"
        assert any("names must differ" in n.message for n in app._notifications)
        screen.query_one("#seat-name-0").value = "  "  # type: ignore[attr-defined]
        screen.query_one("#seat-name-1").value = "merlin"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        assert "Seat 1 needs a name" in str(screen.query_one("#form-errors", Static).render())
        screen.query_one("#seat-name-0").value = "MERLIN"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = ""  # type: ignore[attr-defined]
        screen.query_one("#seat-count").focus()
        await pilot.press("ctrl+s")
        errors = str(screen.query_one("#form-errors", Static).render())
        assert "Seats 1 and 2 are both called 'merlin'" in errors  # capitals don't count
        assert "whole number" not in errors
        assert screen.focused is not None and screen.focused.id == "seat-name-1"
        assert store.list_sessions() == []


async def test_new_game_errors_are_visible_at_80x24(fake_ui: FakeUI, store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#seed").value = "not a number"  # type: ignore[attr-defined]
        screen.query_one("#seat-name-0").focus()
        await pilot.press("ctrl+s")
        await until(pilot, lambda: screen.focused is screen.query_one('#seed'), 'screen.focused is seed')
        seed = screen.query_one("#seed")
        assert screen.focused is seed
        assert seed.region.bottom <= 23 and seed.region.y >= 1  # scrolled into view, above the footer
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "whole number" in shown


async def test_switching_a_seat_kind_keeps_a_typed_name(fake_ui: FakeUI, store: SessionStore) -> None:
    from textual.widgets import Input, Select

    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: app.screen.query("#seat-name-1")
                    and app.screen.query_one("#seat-name-1", Input).value == "Merlin", "the new-game form's seat 2")
        screen = app.screen
        name = screen.query_one("#seat-name-1", Input)
        kind = screen.query_one("#seat-kind-1", Select)
        assert (name.value, kind.value) == ("Merlin", "bot:normal")
        kind.value = "human"  # a name the form chose follows the kind
        await until(pilot, lambda: name.value == "Player 2", 'name.value == "Player 2"')
        kind.value = "bot:easy"
        await until(pilot, lambda: name.value == "Merlin", 'name.value == "Merlin"')
        name.value = "Bo"  # a typed name stays, whatever the kind
        kind.value = "human"
        await until(pilot, lambda: name.value == "Bo", 'name.value == "Bo"')
        kind.value = "bot:normal"
        await until(pilot, lambda: name.value == "Bo", 'name.value == "Bo"')


# -- game screen and curtain ---------------------------------------------------------------


async def test_rules_screen_missing_file_is_friendly(tmp_path: Any) -> None:
    from tui.screens.rules import rules_markdown

    text = rules_markdown("wizards-cup", tmp_path)
    assert "not installed" in text and "Wizards Cup" in text
