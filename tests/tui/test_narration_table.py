"""The narrator at a shared table: the transcript says who is awaited at another terminal, and keeps secrets."""

from __future__ import annotations

import random

from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase
from saves import LiveSession
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.tables_tui import play_for
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.table_game import TableGameScreen


async def test_the_transcript_at_a_table_waits_for_the_remote_seat_by_name(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        code = await host_here(pilot, app)
        other.take_seat(code, 1, "Bea")
        await until(pilot, lambda: "Press s to start" in app.export_screenshot().replace("&#160;", " "), "Bea seated")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        lines = game.narrator.transcript.lines
        await until(pilot, lambda: any(line.startswith("Ana and Bea choose at the same time: choose five wizards")
                                       and line.endswith("Waiting for Bea.") for line in lines), "the first turn line")
        assert sum("choose at the same time" in line for line in lines) == 1, lines  # one turn, said once
        game._apply(0, game.live.rules.legal_actions(game.live.state, 0)[0])
        await until(pilot, lambda: lines[-1] == "Waiting for Bea to choose.", "Bea awaited")
        remote = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
        play_for(remote, 1, random.Random(3))
        await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "Bea's team to arrive")
        await until(pilot, lambda: "Bea has chosen a team." in lines, "Bea's move in the transcript")
        # Bea's team is hers until the duels show it: Ana's transcript never names it.
        mine = repr(game.live.rules.view(game.live.state, 0))
        secret = [CARDS[card].name for card in game.live.state.players[1].team if card not in mine]
        assert secret and not any(name in line for line in lines for name in secret)
        await pilot.press("semicolon")
        await until(pilot, lambda: (
            lines[-1].startswith("Round 1, setting lineups. Cup Tokens: Ana 0, Bea 0 (first to 2).")
        ), 'lines[-1].startswith("Round 1, setting lineups. Cup Token...')
