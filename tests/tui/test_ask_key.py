"""The ask key at a game: ``'`` then a letter answers on the status line, in a toast and in the transcript.

One test per way of playing at 80x24: solo, one keyboard (where a question is never answered for the seat behind
the curtain) and a shared table (in-process, the other player's moves arriving through a second connection).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from engine.wizards_cup.actions import ChooseTeam
from engine.wizards_cup.cards import CARDS
from saves import LiveSession, SeatInfo, SessionStore
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.narration import Host, game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.screens.table_game import TableGameScreen
from tui.widgets.ask import AskScreen

SIZE = (80, 24)


def status(screen: GameScreen) -> str:
    return str(screen.query_one("#game-status", Static).render())


async def ask(pilot: Any, screen: GameScreen, letter: str) -> None:
    """Press ``'`` and ``letter``, and wait for the questions to close."""
    await pilot.press("apostrophe")
    await until(pilot, lambda: isinstance(screen.app.screen, AskScreen), "the questions")
    await pilot.press(letter)
    await until(pilot, lambda: screen.app.screen is screen, "the questions to close")


async def answered(pilot: Any, screen: GameScreen, start: str) -> str:
    """Wait for an answer starting with ``start`` in the transcript and on the status line; the answer."""
    lines = screen.narrator.transcript.lines
    await until(pilot, lambda: lines[-1].startswith(start), f"{start!r} in the transcript")
    await until(pilot, lambda: start[:20] in status(screen), f"{start!r} on the status line")
    return lines[-1]


async def test_solo_the_questions_list_their_keys_and_answer_from_the_player_s_seat(store: SessionStore) -> None:
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = Host(live)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await until(pilot, lambda: 0 in live.to_act and screen.status_text.startswith("Ana"), "Ana's pick")
        await pilot.press("apostrophe")
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        shot = app.export_screenshot().replace("&#160;", " ")
        for words in ("l  the last thing that happened", "h  my hand", "c  the clock", "Opponents", "Close"):
            assert words in shot, words
        assert isinstance(app.focused, OptionList)  # the cursor, and a screen reader, start on the questions
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the questions closed")
        assert not screen.narrator.transcript.lines[-1].startswith("Your hand")  # escape asks nothing
        await ask(pilot, screen, "h")
        hand = await answered(pilot, screen, "Your hand: ")
        assert list(app._notifications)[-1].message == hand
        await ask(pilot, screen, "c")
        await answered(pilot, screen, "This table has no clock.")
        await pilot.press("apostrophe")  # enter asks the highlighted question: down from the first, whose turn
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.screen is screen, "the questions to close")
        await answered(pilot, screen, "Ana and Bo choose at the same time: pick a card from your hand.")


async def test_at_one_keyboard_nobody_behind_a_curtain_is_answered_for(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo("Ana"), SeatInfo("Bo")])
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game(live)
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ana",
                    "Ana's curtain")
        screen = game_screen(app)
        before = len(screen.narrator.transcript.lines)
        await pilot.press("apostrophe", "h", "enter")  # on the curtain: no question; enter lifts it
        await until(pilot, lambda: app.screen is screen, "Ana's curtain lifted")
        assert len(screen.narrator.transcript.lines) == before  # the ask key did nothing behind the curtain
        await ask(pilot, screen, "h")
        ana = live.state.players[0]
        await answered(pilot, screen, f"Your team is not chosen yet. Your displayed wizard is "
                                      f"{CARDS[ana.displayed].name}")
        team = tuple(card for card in CARDS if card != ana.displayed)[:5]
        screen.table.post_message(GameTable.ActionChosen(0, ChooseTeam(team)))
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bo",
                    "Bo's curtain")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "Bo's curtain lifted")
        await ask(pilot, screen, "h")
        bo = live.state.players[1]
        answer = await answered(pilot, screen, "Your team is not chosen yet. Your displayed wizard is "
                                               f"{CARDS[bo.displayed].name}")
        await ask(pilot, screen, "o")
        others = await answered(pilot, screen, f"Ana's displayed wizard is {CARDS[ana.displayed].name}")
        secret = [CARDS[card].name for card in team]  # Ana's chosen team, hers until the duels
        assert not any(name in text for name in secret for text in (answer, others))


async def test_at_a_shared_table_the_questions_answer_for_the_seat_here(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        code = await host_here(pilot, app)
        other.take_seat(code, 1, "Bea")
        await until(pilot, lambda: "Press s to start" in app.export_screenshot().replace("&#160;", " "), "Bea seated")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        await until(pilot, lambda: 0 in game.live.to_act, "Ana asked to choose")
        await ask(pilot, game, "t")
        await answered(pilot, game, "Ana and Bea choose at the same time: choose five wizards")
        await ask(pilot, game, "o")
        bea = game.live.state.players[1]
        await answered(pilot, game, f"Bea's displayed wizard is {CARDS[bea.displayed].name}")
        await ask(pilot, game, "s")
        await answered(pilot, game, "Cup Tokens: Ana 0, Bea 0 (first to 2).")
