"""Play again from every game's final screen, solo and pass-and-play, and the series line it shows."""

from __future__ import annotations

import random

import pytest

from saves import LiveSession, SessionStore
from saves.rematch import start_rematch
from saves.series import series_of, series_score
from tests.helpers.rematch_series import finish
from tests.helpers.tui_fakes import seats
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.help import HelpScreen
from tui.widgets.game_over import GameOverScreen

GAMES = ["wizards-cup", "witchdraft", "wizbits"]
MODES = {"solo": ("Ana", "Merlin:easy"), "pass-and-play": ("Ana", "Bo")}


def _footer_text(app: CovenApp) -> str:
    """The footer's keys, or "" while the screen on top has not composed its footer yet (a busy machine)."""
    from tui.widgets.fitting_footer import FittingFooter

    footers = app.screen.query(FittingFooter)
    return " · ".join(footers.first().shown) if footers else ""


@pytest.fixture
def steady_rematch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's rematches draw their seed from a fixed generator.

    A random seed deals, about once in fifty, a Wizbits game that a failed check ends
    before Ana's first turn; its final screen is right, but this test wants a game to play.
    """
    import saves.rematch

    real = saves.rematch.start_rematch

    def seeded(live: LiveSession, owner: str | None = None, rng: random.Random | None = None) -> LiveSession:
        return real(live, owner=owner, rng=random.Random(7) if rng is None else rng)

    monkeypatch.setattr(saves.rematch, "start_rematch", seeded)


@pytest.mark.usefixtures("steady_rematch")
@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("game_id", GAMES)
async def test_p_on_the_final_screen_plays_the_same_game_again(store: SessionStore, game_id: str, mode: str) -> None:
    from tui.screens.game.screen import GameScreen

    finished = finish(LiveSession.create(store, game_id, None, 21, seats(*MODES[mode])), 3)
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(finished.session_id)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and app.screen.is_mounted, "the final screen")
        assert app.screen.check_action("play_again", ()) is True
        await until(pilot, lambda: "Play again" in _footer_text(app), "'p Play again' in the footer")
        final = app.screen
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the final screen's help")
        assert isinstance(app.screen, HelpScreen)
        assert any("Play again" in str(label) for _, _, label in app.screen.rows)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is final, "the help to close")
        await pilot.press("p")

        def new_game() -> GameScreen | None:
            found = [s for s in app.screen_stack if isinstance(s, GameScreen)]
            return found[0] if len(found) == 1 and found[0].live.session_id != finished.session_id else None

        await until(pilot, lambda: new_game() is not None, "the rematch's game screen")
        again = new_game()
        assert again is not None
        # The new game replaced the finished one: the menu, then the game (and a curtain or a bot at most).
        assert not any(isinstance(s, GameOverScreen) for s in app.screen_stack)
        live = again.live
        assert (live.spec.game_id, live.options, live.seats) == (game_id, finished.options, finished.seats)
        assert live.seed != finished.seed and live.result is None
        assert series_of(store, live.session_id) == finished.session_id


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_final_screen_shows_the_running_series(store: SessionStore, game_id: str) -> None:
    first = finish(LiveSession.create(store, game_id, None, 4, seats("Ana", "Bo")), 1)
    second = finish(start_rematch(first, rng=random.Random(2)), 2)
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(second.session_id)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and app.screen.is_mounted, "the final screen")
        line = app.screen.query_one("#game-over-series")
        wins = [store.load(i).result or "" for i in (first.session_id, second.session_id)]
        ana, bo = (sum(text.startswith(f"{name} won") for text in wins) for name in ("Ana", "Bo"))
        draws = 2 - ana - bo
        tail = {0: "", 1: ", 1 draw", 2: ", 2 draws"}[draws]
        assert str(line.render()) == f"Series  Ana {ana} – {bo} Bo{tail}"


async def test_a_single_game_shows_no_series_line(store: SessionStore) -> None:
    alone = finish(LiveSession.create(store, "wizards-cup", None, 4, seats("Ana", "Bo")), 1)
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(alone.session_id)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen) and app.screen.is_mounted, "the final screen")
        assert not app.screen.query("#game-over-series")


async def test_sessions_say_the_running_series_on_the_detail_line(store: SessionStore) -> None:
    from textual.widgets import DataTable, Static

    first = finish(LiveSession.create(store, "wizards-cup", None, 4, seats("Ana", "Bo")), 1)
    second = finish(start_rematch(first, rng=random.Random(2)), 2)
    third = start_rematch(second, rng=random.Random(3))  # not over yet: it shows the score so far
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: bool(app.screen.query(DataTable)), "Sessions")
        table = app.screen.query_one(DataTable)
        ids = [int(str(table.get_row_at(index)[0])) for index in range(table.row_count)]
        details = {}
        for session_id in (third.session_id, second.session_id, first.session_id):
            table.move_cursor(row=ids.index(session_id))
            await pilot.pause()
            details[session_id] = str(app.screen.query_one("#session-detail", Static).render())
        score = series_score(store, second.session_id)
        assert score is not None and score.games == 2
        assert details[third.session_id].endswith(f"\nSeries {score.text}")
        assert details[second.session_id].endswith(f"\nSeries {score.text}")
        assert "Series" not in details[first.session_id]  # one game is no series yet
