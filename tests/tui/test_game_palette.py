"""The command palette (ctrl+p) at a game offers the game's own commands beside the app's, while their keys work."""

from __future__ import annotations

from typing import Any

import pytest
from textual.command import CommandPalette
from textual.widgets import OptionList

from saves import LiveSession, SeatInfo, SessionStore
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.undo_tui import Host, to_a_play
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.game.screen import GameScreen
from tui.screens.table_game import TableGameScreen
from tui.screens.transcript import TranscriptScreen
from tui.widgets.ask import AskScreen

GAME_COMMANDS = ("Transcript", "Announce", "Ask", "Log")


def offered(app: Any) -> list[str]:
    """The names the open palette lists (each prompt's first line)."""
    palette = app.screen
    if not isinstance(palette, CommandPalette):
        return []
    return [str(option.prompt).splitlines()[0] for option in palette.query_one(OptionList).options]


async def open_palette(pilot: Any, app: Any) -> list[str]:
    await pilot.press("ctrl+p")
    await until(pilot, lambda: "Transcript" in offered(app) and "New game" in offered(app), "the palette's commands")
    return offered(app)


async def choose(pilot: Any, app: Any, name: str) -> None:
    """Type ``name`` into the open palette and run the entry it highlights."""
    await pilot.press(*name.lower())

    def highlighted() -> bool:
        palette = app.screen
        if not isinstance(palette, CommandPalette):
            return False
        option = palette.query_one(OptionList).highlighted_option
        return option is not None and str(option.prompt).startswith(name)

    await until(pilot, highlighted, f"the palette to offer {name}")
    await pilot.press("enter")


@pytest.mark.parametrize("humans", [1, 2], ids=["solo", "one keyboard"])
async def test_the_palette_offers_transcript_announce_and_log_and_runs_them(store: SessionStore, humans: int) -> None:
    seats = [SeatInfo("Ana"), SeatInfo("Bo") if humans == 2 else SeatInfo("Bo", "bot", "easy")]
    live = LiveSession.create(store, "witchdraft", {}, 3, seats)
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await until(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack), "the game")
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        if humans == 2:
            await until(pilot, lambda: app.screen is not game, "the curtain")
            await pilot.press("enter")
        await until(pilot, lambda: app.screen is game, "the game in front")
        names = await open_palette(pilot, app)
        assert all(name in names for name in GAME_COMMANDS)
        assert "Undo" not in names  # nothing of Ana's to take back yet
        await choose(pilot, app, "Transcript")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game, "back at the game")
        log = game.query_one("#game-log")
        shown = log.display and "hidden" not in log.classes
        await open_palette(pilot, app)
        await choose(pilot, app, "Log")
        await until(pilot, lambda: ("hidden" in log.classes) == shown, "the log toggled")
        await open_palette(pilot, app)
        await choose(pilot, app, "Ask")
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press("s")
        await until(pilot, lambda: app.screen is game and game.narrator.transcript.lines[-1].startswith("Your score"),
                    "the score answered")


async def test_the_palette_offers_undo_when_the_move_can_be_taken_back(store: SessionStore) -> None:
    live, play = to_a_play(store)
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        before = live.digest
        screen._apply(0, play)
        await until(pilot, lambda: screen.check_action("undo", ()) is True, "Ana's play to be undoable")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: "Undo" in offered(app), "Undo in the palette")
        await choose(pilot, app, "Undo")
        await until(pilot, lambda: live.digest == before, "the play taken back")


async def test_at_a_shared_table_the_palette_offers_the_games_commands(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        code = await host_here(pilot, app)
        other.take_seat(code, 1, "Bea")
        await until(pilot, lambda: "Press s to start" in app.export_screenshot().replace("&#160;", " "), "Bea seated")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        names = await open_palette(pilot, app)
        assert all(name in names for name in GAME_COMMANDS)
        await choose(pilot, app, "Announce")
        await until(pilot, lambda: app.screen is game and game._announced is not None, "the announcement")
