"""Snapshots at 80x24 of key screens in Coven's high-contrast and colour-blind themes and under NO_COLOR.

The menu is Coven's own app with the theme setting; the Wizards Cup duel, the
potion grid (an illegal ghost) and the pillar tree are the test hosts the
other snapshot tests use, dressed as Coven's app dresses itself: its themes
registered, its theme variables defaulted and ``tui/themed.tcss`` laid on top.
NO_COLOR is the environment variable itself, read by Textual when an app starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from textual.app import App

from engine.witchdraft.geometry import Placement
from saves import SessionStore
from tests.helpers.pillar_tree import Host, two_subpillars
from tests.helpers.potion_grid import GridApp, drafted, hand_card
from tests.helpers.wizards_cup_tui import Game, TableApp
from tui.app import CovenApp
from tui.player_settings import write_setting
from tui.themed import ANSI_COLOURS, THEMED_CSS, theme_variable_defaults
from tui.themes import COVEN_THEMES
from tui.widgets.element_look import set_element_look

SIZE = (80, 24)
LOOKS = ["coven-high-contrast", "coven-colour-blind", "no-color"]
"""Each snapshot's look: one of Coven's themes, or NO_COLOR set in the environment (the default theme)."""

AppT = TypeVar("AppT", bound=App[Any])


def dressed(host: type[AppT], look: str) -> type[AppT]:
    """``host`` with Coven's themes, its theme variables, named colours and themed.tcss, in ``look``."""

    class Dressed(host):  # type: ignore[valid-type,misc]  # a subclass of the test's own host class
        CSS_PATH = [THEMED_CSS]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            for theme in COVEN_THEMES:
                self.register_theme(theme)
            if look != "no-color":
                self.theme = look
                self.ansi_theme_dark = ANSI_COLOURS[look]
            set_element_look(False, self.current_theme.variables)

        def get_theme_variable_defaults(self) -> dict[str, str]:
            return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

    Dressed.__name__ = host.__name__
    return Dressed


@pytest.fixture(params=LOOKS)
def look(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The look under test; NO_COLOR is set for "no-color" before the app is made."""
    if request.param == "no-color":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    return str(request.param)


SnapCompare = Callable[..., bool]


def test_menu(snap_compare: SnapCompare, look: str) -> None:
    store = SessionStore()
    if look != "no-color":
        write_setting(store, None, "theme", look)
    assert snap_compare(CovenApp(store=store, auto_delay=60.0), terminal_size=SIZE)


def test_wizards_cup_duel(snap_compare: SnapCompare, look: str) -> None:
    game = Game()
    game.teams()
    game.lineups()
    game.duels(3)
    app = dressed(TableApp, look)(game.view(0), None, (), game.events)
    assert snap_compare(app, terminal_size=SIZE)


def test_potion_grid(snap_compare: SnapCompare, look: str) -> None:
    state = drafted(4)

    async def rotate(pilot: Any) -> None:
        await pilot.press("r")  # onto a card: the illegal ghost

    app = dressed(GridApp, look)(state, card=hand_card(state), start=Placement(1, 0, 0))
    assert snap_compare(app, terminal_size=SIZE, run_before=rotate)


def test_pillar_tree(snap_compare: SnapCompare, look: str) -> None:
    assert snap_compare(dressed(Host, look)(two_subpillars(), width=80), terminal_size=SIZE)
