"""The replay's help says what is shown of hidden cards from the viewpoint on screen: v shows a seat's own."""

from __future__ import annotations

from textual.app import App

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import bot_move
from tests.helpers.waiting import until
from tui.screens.help import HelpScreen
from tui.screens.replay import ReplayScreen


def help_words(app: App[None]) -> str:
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    return screen.about


async def test_the_replay_help_tells_the_spectator_from_a_seats_view() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana", "bot", "easy"),
                                                                SeatInfo("Bo", "bot", "easy")])
        while live.result is None:
            bot_move(live)

        class Replay(App[None]):
            def on_mount(self) -> None:
                self.push_screen(ReplayScreen(live, start=6))

        app = Replay()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            app.push_screen(HelpScreen.of(replay))
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
            words = help_words(app)
            assert "v shows it through each seat's eyes" in words and "hand and secret cards included" in words
            assert "As a spectator: no seat's hidden cards are shown." in words
            app.pop_screen()
            await until(pilot, lambda: app.screen is replay, "the replay again")
            await pilot.press("v")
            await until(pilot, lambda: replay.viewpoint == 0, "Ana's view")
            app.push_screen(HelpScreen.of(replay))
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help again")
            words = help_words(app)
            assert "Ana's hand and secret cards are shown" in words
            assert "As a spectator" not in words
