"""Auto-pass never tells the table what a seat behind a pass-and-play curtain holds.

Passing at once, with no curtain, because passing is all a seat may do would
show whoever looks at the shared screen that the seat had nothing to play:
with cards in hand, that is a secret. A yield the seat asked for still passes.
"""

from __future__ import annotations

from typing import Any

from engine.wizbits import actions as act
from saves import SessionStore
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tests.helpers.wizbits_passing import DEFAULT_DECKS, SIZE, Curtains, asked, lift, log_text, two_people
from tui.app import CovenApp
from tui.games.base import AutomaticChoice
from tui.screens.curtain import CurtainScreen


def passing_for_everyone(asked_for: bool) -> Any:
    """A table's automatic choice that passes whenever passing is legal (as auto-pass would with nothing else)."""
    def choice(seat: int, view: Any, legal: Any) -> AutomaticChoice | None:
        return AutomaticChoice(act.Pass(), "yielding" if asked_for else "auto", asked_for) if act.Pass() in legal else None
    return choice


async def test_a_seat_with_secrets_is_asked_behind_its_curtain_not_passed_for() -> None:
    with SessionStore() as store:
        live = two_people(store, DEFAULT_DECKS, turn=2)  # both hold cards: every hand-over needs a curtain
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "the first curtain")
            game_screen(app).table.automatic_choice = passing_for_everyone(asked_for=False)
            moves = len(live.log)
            await lift(pilot, app, "Bo")
            await asked(pilot, app, 1)
            assert curtains.names == ["Bo"] and len(live.log) == moves
            assert not any("(auto)" in line for line in log_text(app))


async def test_a_yield_the_seat_asked_for_still_passes_without_a_curtain() -> None:
    with SessionStore() as store:
        live = two_people(store, DEFAULT_DECKS, turn=2)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "the first curtain")
            game_screen(app).table.automatic_choice = passing_for_everyone(asked_for=True)
            await lift(pilot, app, "Bo")
            await until(pilot, lambda: any("Bo passes (yielding)." in line for line in log_text(app)),
                        "Bo's yielded pass")
            await until(pilot, lambda: any("Ana passes (yielding)." in line for line in log_text(app)),
                        "Ana's yielded pass, with no curtain between")
            assert curtains.names == ["Bo"]
