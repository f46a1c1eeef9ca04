"""Shared by test_pillar_lab_tui.py and other test modules, which import them from here.

LabHost, lab, moved here from tests/tui/wizbits/test_pillar_lab_tui.py.
"""

from __future__ import annotations

from textual import on
from textual.app import App

from engine.wizbits.lab.table import Scenario
from saves import SessionStore
from tui.games.wizbits.lab.screen import PillarLabScreen
from tui.navigation import OpenHelp
from tui.screens.help import open_help


class LabHost(App[None]):
    """Just the Lab, on the given scenario."""

    def __init__(self, scenario: Scenario | None = None, store: SessionStore | None = None) -> None:
        super().__init__()
        self.scenario = scenario
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(PillarLabScreen(self.scenario, auto_pause=0.05, store=self.store))

    @on(OpenHelp)
    def _help_asked(self) -> None:
        open_help(self.screen)  # what CovenApp does with the message


def lab(app: App[None]) -> PillarLabScreen:
    screen = app.screen
    assert isinstance(screen, PillarLabScreen)
    return screen
