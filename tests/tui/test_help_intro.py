"""The help's intro says all it has to say: whole where the terminal has room, else it shows that it scrolls."""

from __future__ import annotations

import re

import pytest

from saves import LiveSession, SessionStore
from tests.helpers.layout_audit import rows
from tests.helpers.tui_fakes import play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.game.screen import GameScreen
from tui.screens.help import HelpScreen


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
async def test_the_game_help_shows_its_whole_intro(size: tuple[int, int]) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", None, 5, seats("Ana", "Merlin:normal"))
        play_until(live, 2)
        session_id = live.session_id
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    async with app.run_test(size=size) as pilot:
        app.open_session(session_id)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        box = help_screen.query_one("#help-about-box")
        await until(pilot, lambda: box.region.height > 0, "the intro to be laid out")
        drawn = squeezed(" ".join(row[box.region.x:box.region.right].strip("▁▇█▎▊ ")
                                  for row in rows(app)[box.region.y:box.region.bottom]))
        last_sentence = squeezed(GameScreen.HELP.rsplit(". ", 1)[-1])
        assert "Linear mode" in last_sentence
        assert last_sentence in drawn, drawn
        assert "Now:" in drawn, "the line saying where the game stands shows too"
        assert help_screen.query_one("#help-keys").region.height >= 3, "the keys keep a few rows in view"
        hint = help_screen.query_one("#help-hint").region
        assert hint.height == 1 and hint.bottom <= app.size.height, "the hint line stays on the screen"
        assert "escape: close" in rows(app)[hint.y]
