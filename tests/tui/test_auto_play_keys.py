"""Auto play as the status line and Footer tell it: stopped when stopped, gone when the game is over."""

from __future__ import annotations

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import FakeUI, game_screen, play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp


async def test_stopping_auto_play_says_so_at_once(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 4)  # teams and lineups chosen: the duels wait for the table
    assert live.table_action is not None and not live.to_act
    app = CovenApp(store=store, auto_delay=600)  # no automatic step comes during the test: the status alone moves
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await until(pilot, lambda: app.screen is game_screen(app), "the game screen")
        screen = game_screen(app)
        await pilot.press("a")
        await until(pilot, lambda: "automatically" in screen.status_text, "the status to say auto play is on")
        await pilot.press("a")
        await until(pilot, lambda: not screen.auto_play, "auto play to stop")
        await until(pilot, lambda: "automatically" not in screen.status_text,
                    "the status to stop saying auto play is on")
        assert "next step" in screen.status_text.casefold()
        assert len(live.log) == 4, "no step was played: the status changed by itself"


async def test_a_finished_game_offers_no_step_keys(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 10_000)
    assert live.result is not None
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(live.session_id)
        await until(pilot, lambda: type(app.screen).__name__ == "FakeResult", "the result screen")
        await pilot.press("escape")
        screen = game_screen(app)
        await until(pilot, lambda: app.screen is screen, "the finished game's screen")
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "Game over" in screen.status_text
        assert "Next step" not in shown and "Auto play" not in shown and "Log" in shown
