"""The Wizbits deck editor's files and saving: the deck store, import and export, leaving with unsaved changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist, parse_decklist
from saves import SessionStore
from saves.decks import DeckStore
from tests.helpers.deck_editor_helpers import (
    SIZE,
    answer_prompt,
    editor,
    message,
    open_starter,
)
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizbits.decks.editor import DeckEditorScreen
from tui.screens.menu import MainMenu
from tui.widgets.confirm import ConfirmScreen


async def test_save_rename_duplicate_delete(store: SessionStore) -> None:
    decks = DeckStore(store)
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("plus", "ctrl+s")
        assert "Only a legal deck can be saved" in message(app) and decks.list_decks() == []
        await open_starter(pilot, 0)
        assert isinstance(app.screen, ConfirmScreen)  # the one card added is unsaved
        await pilot.press("y")
        await until(pilot, lambda: (editor(app).draft.deck() == STARTER_DECKS["ember-dawn"].deck),
                    'editor(app).draft.deck() == STARTER_DECKS["ember-dawn"].deck')
        await pilot.press("ctrl+s")
        await answer_prompt(pilot, "Embers")
        assert [d.name for d in decks.list_decks()] == ["Embers"]
        assert parse_decklist(decks.load_deck("Embers").text) == STARTER_DECKS["ember-dawn"].deck
        assert not editor(app).dirty
        await pilot.press("r")
        await answer_prompt(pilot, "Bright Embers")
        assert [d.name for d in decks.list_decks()] == ["Bright Embers"]
        await pilot.press("d")
        await answer_prompt(pilot, "Second Embers")
        assert [d.name for d in decks.list_decks()] == ["Bright Embers", "Second Embers"]
        assert editor(app).deck_name == "Second Embers"
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: ([d.name for d in decks.list_decks()] == ["Bright Embers"]
                                    and editor(app).deck_name is None and editor(app).draft.size == 60),
                    '[d.name for d in decks.list_decks()] == ["Bright Embers"]')
        assert [d.name for d in decks.list_decks()] == ["Bright Embers"]
        assert editor(app).deck_name is None and editor(app).draft.size == 60


async def test_import_shows_the_bad_line_and_export_round_trips(store: SessionStore, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("# my deck\n4 Sparkswarm Volley\n3 Sparkle Pony\n", encoding="utf-8")
    good = tmp_path / "tidal.txt"
    good.write_text(decklist(STARTER_DECKS["tidal-dusk"].deck), encoding="utf-8")
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("i")
        await answer_prompt(pilot, str(bad))
        assert "line 3: unknown card 'Sparkle Pony'" in str(app.screen.query_one("#problems-text").render())
        await pilot.press("escape")  # the list of problems closes
        await until(pilot, lambda: (f"{bad} can't be imported: 1 problem" in message(app)
                                    and editor(app).draft.size == 0),
                    'f"{bad} can\'t be imported: 1 problem" in message(app)')
        assert f"{bad} can't be imported: 1 problem" in message(app)
        assert editor(app).draft.size == 0
        await pilot.press("i")
        await answer_prompt(pilot, str(good))
        assert editor(app).draft.deck() == STARTER_DECKS["tidal-dusk"].deck
        assert f"Imported {good}" in message(app)
        out = tmp_path / "out.txt"
        await pilot.press("x")
        await answer_prompt(pilot, str(out))
        assert parse_decklist(out.read_text(encoding="utf-8")) == STARTER_DECKS["tidal-dusk"].deck
        await pilot.press("i")
        await answer_prompt(pilot, str(tmp_path / "missing.txt"))
        assert "Could not read" in message(app)


async def test_unsaved_changes_are_asked_about_before_leaving(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")  # nothing changed: straight back
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DeckEditorScreen), 'isinstance(app.screen, DeckEditorScreen)')
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("plus", "escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 'isinstance(app.screen, ConfirmScreen)')
        await pilot.press("n")
        await until(pilot, lambda: (isinstance(app.screen, DeckEditorScreen) and editor(app).draft.size == 1),
                    'isinstance(app.screen, DeckEditorScreen) and editor(app)....')
        await pilot.press("escape", "y")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')


async def test_export_goes_to_the_exports_folder_shows_the_path_and_asks_before_replacing(
        store: SessionStore, coven_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await open_starter(pilot, 0)
        await pilot.press("x")
        await until(pilot, lambda: (Path(app.screen.query_one(Input).value).is_absolute()),
                    'Path(prompt).is_absolute() and Path(prompt).parent == cov...')
        prompt = app.screen.query_one(Input).value
        assert Path(prompt).is_absolute() and Path(prompt).parent == coven_data_dir / "exports"
        await pilot.press("enter")
        await until(pilot, lambda: (
            parse_decklist(Path(prompt).resolve().read_text(encoding='utf-8')) == STARTER_DECKS['ember-dawn'].deck
        ), 'parse_decklist(written.read_text(encoding="utf-8")) == ST...')
        written = Path(prompt).resolve()
        assert parse_decklist(written.read_text(encoding="utf-8")) == STARTER_DECKS["ember-dawn"].deck
        assert f"to {written}" in message(app)
        await pilot.press("minus")  # the deck changes; exporting over the file must be agreed to
        await pilot.press("x")
        await pilot.pause()
        monkeypatch.chdir(written.parent)
        await answer_prompt(pilot, written.name)  # a bare name: relative to the working directory
        assert isinstance(app.screen, ConfirmScreen) and str(written) in str(
            app.screen.query_one(".dialog-text", Static).render())
        await pilot.press("n")
        await until(pilot, lambda: (
            parse_decklist(written.read_text(encoding="utf-8")) == STARTER_DECKS["ember-dawn"].deck
        ), 'parse_decklist(written.read_text(encoding="utf-8")) == ST...')
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter", "y")
        await until(pilot, lambda: (
            parse_decklist(written.read_text(encoding="utf-8"), check_rules=False) == editor(app).draft.deck()
        ), 'parse_decklist(written.read_text(encoding="utf-8"), check...')


async def test_quitting_or_the_palette_asks_about_unsaved_changes(store: SessionStore,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.commands import CovenCommands

    app = CovenApp(store=store, auto_delay=60)
    exits: list[bool] = []
    monkeypatch.setattr(app, "exit", lambda *args, **kwargs: exits.append(True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("plus")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: (isinstance(app.screen, ConfirmScreen) and not exits),
                    'isinstance(app.screen, ConfirmScreen) and not exits')
        await pilot.press("n")
        await until(pilot, lambda: (editor(app).draft.size == 1 and not exits),
                    'editor(app).draft.size == 1 and not exits')
        commands = {name: callback for name, _, callback in CovenCommands(app.screen)._commands()}
        commands["Sessions"]()
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 'isinstance(app.screen, ConfirmScreen)')
        await pilot.press("n")
        await until(pilot, lambda: editor(app).draft.size == 1, 'editor(app).draft.size == 1')
        commands["Quit Coven"]()
        await pilot.pause()
        await pilot.press("y")
        await until(pilot, lambda: exits == [True], 'exits == [True]')
        exits.clear()
        await pilot.press("minus")  # back to the empty deck it opened on: nothing to lose, so no question
        await pilot.press("ctrl+q")
        await until(pilot, lambda: (exits == [True] and isinstance(app.screen, DeckEditorScreen)),
                    'exits == [True] and isinstance(app.screen, DeckEditorScreen)')


async def test_saving_under_a_taken_name_and_answering_replace_replaces_the_deck(store: SessionStore) -> None:
    decks = DeckStore(store)
    decks.save_deck("Embers", decklist(STARTER_DECKS["tidal-dusk"].deck))
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await open_starter(pilot, 0)
        assert editor(app).draft.deck() == STARTER_DECKS["ember-dawn"].deck
        await pilot.press("ctrl+s")
        await answer_prompt(pilot, "Embers")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: (
            isinstance(app.screen, DeckEditorScreen)
            and [d.name for d in decks.list_decks()] == ["Embers"]
            and parse_decklist(decks.load_deck("Embers").text) == STARTER_DECKS["ember-dawn"].deck
            and editor(app).deck_name == "Embers" and not editor(app).dirty
        ), 'isinstance(app.screen, DeckEditorScreen)')
        assert isinstance(app.screen, DeckEditorScreen)
        assert [d.name for d in decks.list_decks()] == ["Embers"]
        assert parse_decklist(decks.load_deck("Embers").text) == STARTER_DECKS["ember-dawn"].deck
        assert editor(app).deck_name == "Embers" and not editor(app).dirty
