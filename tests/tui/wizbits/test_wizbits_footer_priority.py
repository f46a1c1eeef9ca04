"""No frame shows the keys of the moment before (issue 28): "space Next step" never shows over the player's Priority.

The footer put up the new keys only after the next paint, so the frame that
first showed Ana's Priority still showed the keys of Bo's turn, "Next step"
among them, until the footer caught up. Every frame the terminal is sent is
read here as it is painted, through the app's one door to the terminal.
"""

from __future__ import annotations

import asyncio
import time

from rich.console import RenderableType
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.wizbits_e2e import Host, game_screen
from tui.games.wizbits.table import WizbitsTable
from tui.screens.game.screen import GameScreen

OPTIONS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}
PRIORITIES = 4
"""Times Ana is asked after another move: each is a frame where the keys change under her."""


class FramesHost(Host):
    """Notes, for each frame painted on the game screen, whether it shows Ana's Priority and which keys."""

    def __init__(self, live: LiveSession) -> None:
        super().__init__(lambda: GameScreen(live, auto_delay=0.01))
        self.live = live
        self.frames: list[tuple[bool, list[str]]] = []

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        if renderable is not None and isinstance(screen, GameScreen):
            table = screen.query_one(WizbitsTable)
            asked = self.live.to_act == (0,) and table.stage == "hand"
            keys = [key.description for key in screen.query(FooterKey) if key.region.width]
            self.frames.append((asked, keys))
        super()._display(screen, renderable)


def test_no_frame_shows_next_step_over_the_players_priority() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "wizbits", OPTIONS, 3, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
            app = FramesHost(live)
            async with app.run_test(size=(100, 30)) as pilot:
                table = game_screen(app).query_one(WizbitsTable)
                asked, deadline = 0, time.monotonic() + 120  # only the end of a hung test
                while asked < PRIORITIES:
                    assert time.monotonic() < deadline, f"Ana was asked {asked} times"
                    if live.to_act == (0,) and table.stage == "hand":
                        asked += 1
                        await pilot.press("x")  # she passes: Bo (or the table) moves, then she is asked again
                    elif live.table_action is not None and not live.to_act:
                        await pilot.press("n")
                    await pilot.pause(0.02)
        over_priority = [keys for shown, keys in app.frames if shown]
        assert over_priority, "frames showing Ana's Priority were painted"
        assert all("Pass" in keys for keys in over_priority), [k for k in over_priority if "Pass" not in k]
        assert not [keys for keys in over_priority if "Next step" in keys]

    asyncio.run(scenario())
