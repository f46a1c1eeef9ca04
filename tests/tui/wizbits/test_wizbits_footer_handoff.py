"""No frame shows the keys of the moment before, in the modes beside solo (issue 28): one keyboard and a shared table.

The Footer holds the screen's paint while it puts up new keys
(tui/widgets/fitting_footer.py); tests/tui/wizbits/test_wizbits_footer_priority.py
checks it in a solo game. Here the turn passes between two people at one keyboard,
with the curtain between them, and between this app and another process at a
hosted table (the way an SSH player plays). Every frame the terminal is sent is
read as it is painted, through the app's one door to the terminal: a frame that
shows a seat's Priority must show that seat's keys (Pass), never the watching
keys of the moment before (Next step).
"""

from __future__ import annotations

import asyncio

from rich.console import RenderableType
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from engine.wizbits import actions as act
from saves import LiveSession, SessionStore
from saves.tables import SeatPlan, TableStore
from tests.helpers.tables_tui import screen_text
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tests.helpers.wizbits_passing import DEFAULT_DECKS, SIZE, Curtains, two_people
from tui.app import CovenApp
from tui.games.wizbits.table import WizbitsTable
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.table_game import TableGameScreen

HAND_OFFS = 4
"""Times the turn changes hands under the test: each is a frame where the keys change."""


class Frames:
    """Notes, for each frame ``app`` paints on a game screen, whether it shows a seat's Priority and which keys."""

    def __init__(self, app: CovenApp) -> None:
        self.frames: list[tuple[bool, list[str]]] = []
        display = app._display

        def noting(screen: Screen[object], renderable: RenderableType | None) -> None:
            if renderable is not None and isinstance(screen, GameScreen):
                table = screen.query_one(WizbitsTable)
                asked = table.seat in screen.live.to_act and table.stage == "hand"
                keys = [key.description for key in screen.query(FooterKey) if key.region.width]
                self.frames.append((asked, keys))
            display(screen, renderable)

        app._display = noting  # type: ignore[method-assign]

    def problems(self) -> list[list[str]]:
        """The key sets of frames that showed a seat's Priority without its keys."""
        over_priority = [keys for shown, keys in self.frames if shown]
        assert over_priority, "frames showing a seat's Priority were painted"
        return [keys for keys in over_priority if "Pass" not in keys or "Next step" in keys]


def passing(live: LiveSession, seat: int) -> act.Action:
    """The seat's pass (or, asked to attack, no attack)."""
    return act.Pass() if act.Pass() in live.rules.legal_actions(live.state, seat) else act.Attack(())


async def lift(pilot: Pilot[None], app: CovenApp) -> None:
    """Lift the curtain in front (the seat named on it sits down)."""
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CurtainScreen), "the curtain to lift")


async def pass_if_asked(pilot: Pilot[None], app: CovenApp, live: LiveSession, table: WizbitsTable) -> None:
    """Wait until the seat at the table is asked (then it passes) or the next curtain is up."""
    seat = table.seat
    await until(pilot, lambda: (isinstance(app.screen, CurtainScreen)
                                or (table.seat in live.to_act and table.stage == "hand")),
                "a seat asked, or the next curtain")
    if not isinstance(app.screen, CurtainScreen):
        await pilot.press("x")  # the seat passes: the other is asked next, behind a curtain
        await until(pilot, lambda: (isinstance(app.screen, CurtainScreen) or seat not in live.to_act
                                    or table.stage != "hand"), "the pass to land")


def test_no_frame_after_a_curtain_shows_the_other_seats_keys() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = two_people(store, DEFAULT_DECKS, turn=2)  # from turn 2 each hand-over raises a curtain
            app = CovenApp(store=store, auto_delay=0.01)
            frames = Frames(app)
            async with app.run_test(size=SIZE) as pilot:
                curtains = Curtains(app)
                app.start_game(live)
                await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "the first curtain")
                await lift(pilot, app)
                table = game_screen(app).query_one(WizbitsTable)
                while len(curtains.names) < HAND_OFFS + 1:
                    if isinstance(app.screen, CurtainScreen):
                        await lift(pilot, app)
                    await pass_if_asked(pilot, app, live, table)
        assert len(set(curtains.names)) == 2, curtains.names  # the turn went back and forth
        assert not frames.problems(), frames.problems()

    asyncio.run(scenario())


def test_no_frame_at_a_hosted_table_shows_the_keys_of_the_moment_before(other: TableStore) -> None:
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = other.host("wizbits", DEFAULT_DECKS, 1, plan, host_name="Hal").info.code

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        frames = Frames(app)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            other.start(code)
            # The screen is pushed before it has composed its table: wait for the table itself.
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen)
                        and app.screen.query_one(WizbitsTable).is_mounted, "the game's table to open")
            game = app.screen
            assert isinstance(game, TableGameScreen) and game.human_seats == [1]
            hal = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
            table = game.query_one(WizbitsTable)
            asked = 0
            while asked < HAND_OFFS:
                hal.sync()
                if hal.to_act == (0,):
                    hal.apply(0, passing(hal, 0))  # Hal, in his own process, passes back
                elif not hal.to_act and hal.table_action is not None:
                    hal.play_table()  # the host's Coven drives the table's own steps
                await until(pilot, lambda: len(game.live.log) >= len(hal.log), "Hal's move to arrive")
                if game.live.to_act == (1,):
                    await until(pilot, lambda: table.seat == 1 and table.stage == "hand", "Ana's Priority on screen")
                    asked += 1
                    before = len(game.live.log)
                    await pilot.press("x")
                    await until(pilot, lambda before=before: len(game.live.log) > before, "Ana's pass stored")
        assert not frames.problems(), frames.problems()

    asyncio.run(scenario())
