"""Taking back a move in Wizards Cup and WitchDraft: solo before the bots answer, at one keyboard on the curtain.

Solo, the player chooses before the bots in a round everyone plays at once, so
their choice is not the one that shows all, and ``u`` takes it back until the
bots have answered. At one keyboard the curtain rises as soon as a player
confirms: ``u`` on it takes the move back for the player who made it (who still
has the keyboard), and a new curtain then goes up for whoever must choose,
so nothing secret is shown; when the rule keeps the move, the key says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import game_screen, seats
from tests.helpers.undo_tui import Host, undo_key
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import HeldPauses
from tests.helpers.wizbits_passing import Curtains, lift
from tui.app import CovenApp
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.widgets.fitting_footer import FittingFooter

GAMES = ["wizards-cup", "witchdraft"]


def first_choice(live: LiveSession, seat: int) -> Any:
    """A legal choice of ``seat``'s (the first the rules list)."""
    return live.rules.legal_actions(live.state, seat)[0]


def curtain_undo(app: CovenApp) -> str | None:
    """The curtain's undo key as its Footer shows it, or None when it is not shown."""
    screen = app.screen
    assert isinstance(screen, CurtainScreen)
    return next((text for text in screen.query_one(FittingFooter).shown if text.startswith("Undo")), None)


def curtain_words(app: CovenApp) -> str:
    screen = app.screen
    assert isinstance(screen, CurtainScreen)
    return str(screen.query_one("#curtain-text").render())


@pytest.mark.parametrize("game", GAMES)
async def test_solo_the_player_chooses_before_the_bot_and_u_takes_it_back(store: SessionStore, game: str) -> None:
    live = LiveSession.create(store, game, None, 5, seats("Ana", "Merlin:easy"))
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        held = HeldPauses(screen)  # the bot answers when the test says
        await until(pilot, lambda: screen.status_text == "Ana to choose", "Ana asked first")
        assert live.log == [] or all(entry.seat == 0 for entry in live.log)  # the bot has not chosen before her
        before = live.digest
        screen._apply(0, first_choice(live, 0))
        await until(pilot, lambda: bool(held.waiting) and undo_key(screen) == "Undo", "the bot waits; u offered")
        assert "u takes your move back" in screen.status_text
        await pilot.press("u")
        await until(pilot, lambda: live.digest == before, "Ana's choice taken back")
        assert live.log[-1].action == {"type": "undo"}
        await until(pilot, lambda: screen.status_text == "Ana to choose", "Ana asked again")
        held.end_one()  # the bot's stale pause ends: it must not answer a table that changed under it
        await until(pilot, lambda: screen.status_text == "Ana to choose" and not held.waiting, "Ana still asked")
        assert live.digest == before
        # Chosen again, then answered: the round is shown, and the choice stays.
        screen._apply(0, first_choice(live, 0))
        await until(pilot, lambda: bool(held.waiting), "the bot's pause")
        held.end_one()
        await until(pilot, lambda: live.last_mover == 1, "the bot's answer")
        await until(pilot, lambda: undo_key(screen) is None or undo_key(screen) != "Undo", "no take-back now")


@pytest.mark.parametrize("game", GAMES)
async def test_at_one_keyboard_u_on_the_curtain_takes_back_the_move_just_made(game: str) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, game, None, 5, seats("Ana", "Bo"))
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await lift(pilot, app, "Ana")
            screen = game_screen(app)
            await until(pilot, lambda: screen.revealed_seat == 0 and 0 in live.to_act, "Ana asked")
            before = live.digest
            screen._apply(0, first_choice(live, 0))
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bo",
                        "Bo's curtain")
            await until(pilot, lambda: curtain_undo(app) == "Undo Ana's move", "u offered to Ana")
            assert "Ana: u takes your move back." in curtain_words(app)
            await pilot.press("u")
            await until(pilot, lambda: live.digest == before, "Ana's move taken back")
            # Nobody's hand is shown on the way: a curtain goes up for Ana, who must choose again.
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ana",
                        "Ana's curtain again")
            assert screen.revealed_seat is None
            assert curtains.names == ["Ana", "Bo", "Ana"]
            assert curtain_undo(app) is None  # the last move is an undo: nothing more of Ana's to take back


async def test_at_one_keyboard_the_curtain_says_why_a_witchdraft_pick_that_showed_all_stays() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "witchdraft", None, 5, seats("Ana", "Bo"))
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            app.start_game(live)
            await lift(pilot, app, "Ana")
            screen = game_screen(app)
            await until(pilot, lambda: screen.revealed_seat == 0 and 0 in live.to_act, "Ana asked")
            screen._apply(0, first_choice(live, 0))
            await lift(pilot, app, "Bo")
            await until(pilot, lambda: screen.revealed_seat == 1 and 1 in live.to_act, "Bo asked")
            screen._apply(1, first_choice(live, 1))  # the last pick: both are shown
            before = live.digest
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ana",
                        "Ana's curtain to place")
            await until(pilot, lambda: curtain_undo(app) == "Undo: all secret choices are shown", "the reason")
            assert "Bo's move stays: all secret choices are shown." in curtain_words(app)
            await pilot.press("u")  # dimmed: nothing happens
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, CurtainScreen), "the curtain lifted")
            assert live.digest == before and live.log[-1].action != {"type": "undo"}
