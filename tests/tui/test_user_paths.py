"""One rule for every path a player types: relative to the working directory, ``~`` expanded, named whole.

The rule lives in :mod:`tui.user_paths`; these tests hold the deck editor's
import and export, the Pillar Lab's load, ``coven export``/``import`` and
``coven deck`` to it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist, parse_decklist
from engine.wizbits.lab.json_form import shipped_scenarios, write_scenario
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.deck_editor_helpers import SIZE, answer_prompt, editor, message, open_starter
from tests.helpers.pillar_lab_tui import LabHost, lab
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.cli import main
from tui.user_paths import NoPathError, user_path


def bad_deck(count: int) -> str:
    """A deck list of ``count`` unknown cards: ``count`` problems, one a line."""
    return "".join(f"4 Not A Card {n}\n" for n in range(1, count + 1))


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory of the test's own, and a home folder beside it."""
    work = tmp_path / "work"
    work.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    return work


def test_the_rule(elsewhere: Path) -> None:
    home = Path(os.environ["HOME"])
    assert user_path("deck.txt") == elsewhere / "deck.txt"
    assert user_path("  sub/../deck.txt \n") == elsewhere / "deck.txt"
    assert user_path("~/deck.txt") == home / "deck.txt"
    assert user_path("/tmp/x/deck.txt") == Path("/tmp/x/deck.txt")
    assert user_path(Path("deck.txt")).is_absolute()
    for blank in ("", "   ", "\t\n"):
        with pytest.raises(NoPathError, match="No file was given"):
            user_path(blank)


def test_cli_export_and_import_are_relative_to_the_working_directory(
        elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SessionStore() as store:
        session = LiveSession.create(store, "witchdraft", {}, 4, [SeatInfo("Ana"), SeatInfo("Bo")])
    assert main(["export", str(session.session_id), "game.json"]) == 0
    written = elsewhere / "game.json"
    assert json.loads(written.read_text(encoding="utf-8"))["game"] == "witchdraft"
    assert f"to {written}." in capsys.readouterr().out  # the absolute path, not the typed one
    os.chdir(Path(os.environ["HOME"]))
    assert main(["import", str(Path("..") / "work" / "game.json")]) == 0
    assert f"Imported {written} as session" in capsys.readouterr().out
    assert main(["export", str(session.session_id), "~/again.json"]) == 0
    assert (Path(os.environ["HOME"]) / "again.json").is_file()
    assert main(["export", str(session.session_id), "  "]) == 2
    assert "No file was given" in capsys.readouterr().err


def test_cli_deck_commands_are_relative_to_the_working_directory(
        elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "export-starter", "ember-dawn", "ember.txt"]) == 0
    assert f"to {elsewhere / 'ember.txt'}." in capsys.readouterr().out
    assert main(["deck", "check", "ember.txt"]) == 0
    assert main(["deck", "check", "missing.txt"]) == 2
    assert str(elsewhere / "missing.txt") in capsys.readouterr().err


async def test_deck_import_reads_from_the_working_directory_and_names_the_file(
        store: SessionStore, elsewhere: Path) -> None:
    (elsewhere / "tidal.txt").write_text(decklist(STARTER_DECKS["tidal-dusk"].deck), encoding="utf-8")
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("i")
        await answer_prompt(pilot, "tidal.txt")
        assert editor(app).draft.deck() == STARTER_DECKS["tidal-dusk"].deck
        assert f"Imported {elsewhere / 'tidal.txt'}" in message(app)
        await pilot.press("i")
        await answer_prompt(pilot, "nowhere.txt")
        assert str(elsewhere / "nowhere.txt") in message(app)


async def test_deck_export_of_a_bare_name_lands_in_the_working_directory(
        store: SessionStore, elsewhere: Path) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await open_starter(pilot, 0)
        await pilot.press("x")
        await pilot.pause()
        await answer_prompt(pilot, "mine.txt")
        written = elsewhere / "mine.txt"
        assert parse_decklist(written.read_text(encoding="utf-8")) == STARTER_DECKS["ember-dawn"].deck
        assert f"to {written}" in message(app)


async def test_lab_load_reads_from_the_working_directory_and_names_the_file(elsewhere: Path) -> None:
    from textual.widgets import Input

    scenario = shipped_scenarios()[2]
    write_scenario(elsewhere / "mine.json", scenario)
    app = LabHost(shipped_scenarios()[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one(Input).value = "mine.json"
        await pilot.press("enter")
        await until(pilot, lambda: (
            lab(app).table.scenario == scenario
            and any(f"Loaded {elsewhere / 'mine.json'}" in str(note.message) for note in app._notifications)
        ), 'lab(app).table.scenario == scenario')
        assert lab(app).table.scenario == scenario
        assert any(f"Loaded {elsewhere / 'mine.json'}" in str(note.message) for note in app._notifications)
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one(Input).value = "gone.json"
        await pilot.press("enter")
        await until(pilot, lambda: (
            any(str(elsewhere / "gone.json") in str(note.message) for note in app._notifications)
        ), 'any(str(elsewhere / "gone.json") in str(note.message) for...')


@pytest.mark.parametrize("count", [6, 30])
async def test_deck_import_lists_every_problem_with_the_count(store: SessionStore, elsewhere: Path, count: int) -> None:
    """Six bad lines (or thirty): a dialog says "6 problems" and lists them all, the last reachable by scrolling."""
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    from tui.widgets.problem_list import ProblemListScreen

    (elsewhere / "bad.txt").write_text(bad_deck(count), encoding="utf-8")
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("i")
        await answer_prompt(pilot, "bad.txt")
        dialog = app.screen
        assert isinstance(dialog, ProblemListScreen)
        assert f"{count} problems" in str(dialog.query_one("#problems-title", Static).render())
        listed = str(dialog.query_one("#problems-text", Static).render()).splitlines()
        assert len(listed) == count
        for number in range(1, count + 1):
            assert f"line {number}" in listed[number - 1] and f"Not A Card {number}" in listed[number - 1]
        scroll = dialog.query_one("#problems-scroll", VerticalScroll)
        assert scroll.has_focus and scroll.region.bottom <= 23  # above the footer
        assert (scroll.max_scroll_y > 0) == (count > 16)  # a long list scrolls, with its scrollbar showing
        await pilot.press("end")
        await until(pilot, lambda: (scroll.scroll_offset.y == scroll.max_scroll_y),
                    'scroll.scroll_offset.y == scroll.max_scroll_y')
        await pilot.press("escape")
        await until(pilot, lambda: (f"{elsewhere / 'bad.txt'} can't be imported: {count} problems" in message(app)
                                    and editor(app).draft.size == 0),
                    'f"{elsewhere / \'bad.txt\'} can\'t be imported: {count} prob...')
        assert f"{elsewhere / 'bad.txt'} can't be imported: {count} problems" in message(app)
        assert editor(app).draft.size == 0  # nothing was imported


async def test_sessions_export_and_import_are_relative_to_the_working_directory(
        store: SessionStore, elsewhere: Path) -> None:
    from tui.widgets.confirm import PromptScreen

    LiveSession.create(store, "witchdraft", {}, 4, [SeatInfo("Ana"), SeatInfo("Bo")])
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "e")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the export prompt")
        app.screen.query_one("#prompt-input").value = "saved.json"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: (elsewhere / 'saved.json').is_file(), 'written.is_file()')
        written = elsewhere / "saved.json"
        assert written.is_file()
        assert any(str(written) in str(note.message) for note in app._notifications)
        # The file can be written before its prompt has closed: a key pressed then would go to the old prompt.
        await until(pilot, lambda: not isinstance(app.screen, PromptScreen), "the export prompt to close")
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the import prompt")
        app.screen.query_one("#prompt-input").value = "saved.json"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: (
            len(store.list_sessions()) == 2
            and any(f"Imported {written} as session" in str(note.message) for note in app._notifications)
        ), 'len(store.list_sessions()) == 2')
        assert len(store.list_sessions()) == 2
        assert any(f"Imported {written} as session" in str(note.message) for note in app._notifications)
