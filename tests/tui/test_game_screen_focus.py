"""A game screen never parks the focus in a pane that is out of view.

Textual focuses the first focusable widget when a screen opens or resumes.
A list hidden in a switched-away pane still counts as focusable, and while it
held the focus it took keys meant for the screen: a quick space just after a
Wizards Cup game opened picked a wizard in the hidden team builder instead of
playing the first duel.
"""

from __future__ import annotations

import pytest
from textual.widget import Widget

import saves
import tui.app as app_module
from tests.helpers.kill_and_resume import started_session
from tests.helpers.waiting import until


def out_of_view(widget: Widget) -> bool:
    """True when ``widget`` or one of its ancestors is not displayed."""
    return any(not node.display for node in (widget, *widget.ancestors) if isinstance(node, Widget))


def opening(store: saves.SessionStore, game_id: str) -> saves.LiveSession:
    """A game of ``game_id`` against a bot: the Wizards Cup one at its first duel, the others at their start."""
    if game_id == "wizards-cup":
        return started_session(store)
    return saves.LiveSession.create(store, game_id, None, 7, [saves.SeatInfo("Ana"), saves.SeatInfo("Merlin", "bot", "easy")])


@pytest.mark.parametrize("game_id", ["wizards-cup", "witchdraft", "wizbits"])
async def test_no_hidden_pane_takes_the_focus_as_a_game_opens(store: saves.SessionStore, game_id: str) -> None:
    live = opening(store, game_id)
    app = app_module.CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_session(live.session_id)
        screen = app.screen
        for _ in range(20):
            focused = screen.focused
            assert focused is None or not out_of_view(focused), f"{focused!r} has the focus but is out of view"
            await pilot.pause(0)


async def test_space_at_once_plays_the_first_duel(store: saves.SessionStore) -> None:
    live = started_session(store)
    before = len(live.log)
    app = app_module.CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_session(live.session_id)
        screen = app.screen
        await until(pilot, lambda: screen.focused is not None, "the screen's first focus")  # the moment it went wrong
        await pilot.press("space")
        await until(pilot, lambda: len(saves.LiveSession.load(store, live.session_id).log) > before,
                         "the first duel to be played")
        resumed = saves.LiveSession.load(store, live.session_id)
        assert resumed.state.duel == 1 and resumed.log[-1].seat is None


async def test_a_table_drawn_before_its_parts_exist_draws_once_they_do() -> None:
    """A game screen draws its table from its own on_mount, which under load can come before the table composes."""
    from textual.app import App, ComposeResult

    from tests.helpers.wizards_cup_tui import Game
    from tui.games.wizards_cup.duel_zone import DuelZone
    from tui.games.wizards_cup.table import WizardsCupTable

    game = Game()
    game.teams()
    game.lineups()
    events = game.duels(1)
    table = WizardsCupTable()
    table.present(None, game.view(None), None, [])  # not mounted yet: kept for later, never a crash
    table.show_events(events)

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield table

    async with Holder().run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table.view is not None, "the kept view drawn")
        assert table.view == game.view(None) and table.duel_log and table.query_one(DuelZone) is not None


async def test_a_table_whose_part_is_still_mounting_waits_for_it() -> None:
    """The table itself may be mounted while a part inside it (the duel zone) is still composing."""
    from textual.app import App, ComposeResult

    from tests.helpers.wizards_cup_tui import Game
    from tui.games.wizards_cup.duel_zone import DuelZone
    from tui.games.wizards_cup.table import WizardsCupTable

    game = Game()
    game.teams()
    game.lineups()
    table = WizardsCupTable()

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield table

    async with Holder().run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table.is_mounted, "the table")
        zone = table.query_one(DuelZone)
        zone._is_mounted = False  # as it is while the zone composes on a busy machine
        table.present(None, game.view(None), None, [])
        await until(pilot, lambda: table.view is None, 'table.view is None')
        zone._is_mounted = True
        await until(pilot, lambda: table.view is not None, "the kept view drawn once the zone is there")
