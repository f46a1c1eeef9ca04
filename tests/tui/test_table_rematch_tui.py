"""Play again at a shared table, in the app: the prompt, y and n, p on the final screen, leaving.

The app under test holds seat 2 of Hal's Wizards Cup table; "the other
process" (Hal, the host) is a second store connection with its own claim.
"""

from __future__ import annotations

import random

from saves import LiveSession
from saves.series import series_of
from saves.table_rematch import ask_rematch, rematch_offer
from saves.tables import TableStore
from tests.helpers.tables_tui import SPEC, hal_hosts, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.table_game import TableGameScreen
from tui.screens.table_rematch import RematchPromptScreen
from tui.widgets.game_over import GameOverScreen


async def finish_both(pilot: object, other: TableStore, session_id: int, claim: str,
                      host_claim: str | None = None) -> None:
    """Play seat 1 (and the table's steps) with the host's claim, seat 2 with ``claim``, from the store."""
    hal = LiveSession.load(other.store, session_id, claim=host_claim or other.claim)
    ana = LiveSession.load(other.store, session_id, claim=claim)
    rng = random.Random(5)
    while not hal.finished:
        hal.sync()
        ana.sync()
        if hal.finished:
            break
        if not hal.to_act:
            if host_claim is None:
                hal.play_table()
            else:  # the host's app plays the table's steps: let it run
                await pilot.pause(0.02)  # type: ignore[attr-defined]
            continue
        live = hal if hal.to_act[0] == 0 else ana
        seat = live.to_act[0]
        view = live.rules.view(live.state, seat)
        live.apply(seat, SPEC.bots["easy"](view, live.rules.legal_actions(live.state, seat), rng))


async def seated_at_the_end(pilot: object, app: CovenApp, other: TableStore) -> tuple[str, TableGameScreen]:
    """Join Hal's table from the menu, play it out, and stop at the final screen; the code and game screen."""
    code = hal_hosts(other, 21)
    await pilot.press("j")  # type: ignore[attr-defined]
    await pilot.press(*code.lower(), "enter")  # type: ignore[attr-defined]
    await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
    await pilot.press("enter")  # type: ignore[attr-defined]
    await until(pilot, lambda: other.find(code).seats[1].claim is not None, "Ana seated")
    other.start(code)
    await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
    game = app.screen
    assert isinstance(game, TableGameScreen)
    await finish_both(pilot, other, game.live.session_id, game.link.claim)
    await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                "the end", bound=90)
    while not isinstance(app.screen, GameOverScreen):  # the last round's summary first
        await pilot.press("enter")  # type: ignore[attr-defined]
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                    "the final screen")
    return code, game


async def test_hal_asks_ana_says_y_and_the_same_table_plays_again(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        code, game = await seated_at_the_end(pilot, app, other)
        first = game.live.session_id
        assert app.screen.check_action("play_again", ()) is True
        ask_rematch(other, first)
        await until(pilot, lambda: isinstance(app.screen, RematchPromptScreen), "the rematch prompt")
        prompt = app.screen
        assert isinstance(prompt, RematchPromptScreen) and prompt.asker == "Hal"
        await until(pilot, lambda: (str(prompt.query_one("#rematch-question").render()) == "Hal wants to play again."),
                    'str(prompt.query_one("#rematch-question").render()) == "H...')
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen) and app.screen is not game,
                    "the rematch's game")
        again = app.screen
        assert isinstance(again, TableGameScreen)
        assert again.live.session_id != first and again.live.result is None
        assert again.human_seats == [1] and again.link.code == code
        assert other.find(code).session_id == again.live.session_id
        assert series_of(other.store, again.live.session_id) == first


async def test_p_asks_hal_and_his_refusal_is_said_in_words(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        _, game = await seated_at_the_end(pilot, app, other)
        first = game.live.session_id
        await pilot.press("p")
        await until(pilot, lambda: rematch_offer(other, first) is not None, "Ana's offer")
        offer = rematch_offer(other, first)
        assert offer is not None and offer.by == 1 and offer.yes == {1}
        await until(pilot, lambda: any("Waiting for Hal" in str(n.message) for n in app._notifications),
                    "'waiting for Hal'")
        ask_rematch(other, first, agree=False)
        await until(pilot, lambda: any("Hal does not want to play again." in str(n.message)
                                       for n in app._notifications), "Hal's refusal in words")
        assert isinstance(app.screen, GameOverScreen)


async def test_closing_the_final_screen_leaves_the_table_and_ends_the_offer(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        _, game = await seated_at_the_end(pilot, app, other)
        first = game.live.session_id
        ask_rematch(other, first)
        await until(pilot, lambda: isinstance(app.screen, RematchPromptScreen), "the rematch prompt")
        await pilot.press("n")
        await until(pilot, lambda: (rematch_offer(other, first) or ask_rematch(other, first)).end == "refused",
                    "Ana's refusal")
        ask_rematch(other, first)  # Hal asks again; Ana closes the final screen instead of answering
        await until(pilot, lambda: isinstance(app.screen, RematchPromptScreen), "the prompt again")
        await pilot.press("escape")  # no
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the final screen")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, GameOverScreen), "the menu")
        offer = ask_rematch(other, first)
        assert offer.end == "left" and offer.who == 1


async def test_the_host_is_asked_too_and_starts_the_rematch_with_y(other: TableStore) -> None:
    from tests.helpers.table_helpers import host_from_menu

    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        code = await host_from_menu(pilot, app)
        other.take_seat(code, 1, "Bea")
        await until(pilot, lambda: "Everyone is here" in screen_text(app), "Bea in the lobby")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        first = game.live.session_id
        await finish_both(pilot, other, first, other.claim, host_claim=game.link.claim)  # the host's app plays the duels
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                    "the end", bound=90)
        while not isinstance(app.screen, GameOverScreen):
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                        "the final screen")
        ask_rematch(other, first)  # Bea asks
        await until(pilot, lambda: isinstance(app.screen, RematchPromptScreen), "the host's prompt")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen) and app.screen is not game,
                    "the rematch's game")
        again = app.screen
        assert isinstance(again, TableGameScreen) and again.drives_table and again.human_seats == [0]
        assert other.find(code).session_id == again.live.session_id != first


async def test_a_spectator_has_no_p_and_follows_the_table_into_its_rematch(other: TableStore) -> None:
    code = hal_hosts(other, 4, spectators=True)
    other.take_seat(code, 1, "Bea")  # Hal's process holds both seats here
    first = other.start(code)
    app = CovenApp(auto_delay=0.0, join_code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Watch as a spectator" in screen_text(app), "the choices")
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen) and game.link.spectator
        await finish_both(pilot, other, first, other.claim)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                    "the end", bound=90)
        while not isinstance(app.screen, GameOverScreen):
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or "continue" in screen_text(app),
                        "the final screen")
        assert app.screen.check_action("play_again", ()) is False  # watching, nobody asks a spectator
        started = ask_rematch(other, first)  # both seats are Hal's: that is everyone
        assert started.end == "started"
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen) and app.screen is not game,
                    "the rematch, watched")
        again = app.screen
        assert isinstance(again, TableGameScreen) and again.link.spectator
        assert again.live.session_id == started.session
