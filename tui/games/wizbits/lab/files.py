"""The Pillar Lab's scenario files: load one, or save the table to share it (by default in the exports folder).

:class:`LabFileActions` is a base of :class:`~tui.games.wizbits.lab.screen.PillarLabScreen`, under its
plays (:mod:`tui.games.wizbits.lab.plays`); it leaves building the table to the screen (:meth:`LabFileActions._load`).
"""

from __future__ import annotations

from textual import work
from textual.screen import Screen

from engine.wizbits.lab.json_form import read_scenario, write_scenario
from engine.wizbits.lab.table import LabError, LabTable, Scenario
from tui.games.wizbits.lab.dialogs import exports_dir
from tui.served import refuses_files
from tui.user_paths import NoPathError, user_path
from tui.widgets.confirm import ConfirmScreen, PromptScreen

DEFAULT_NAME = "pillar-lab.json"
"""The file name offered for saving a scenario, in the exports folder of Coven's data directory."""


class LabFileActions(Screen[None]):
    """Load and save Lab scenarios as JSON files."""

    table: LabTable
    seat: int

    def __init__(self) -> None:
        super().__init__()
        self.path = str(exports_dir() / DEFAULT_NAME)
        """The scenario file offered for loading and saving (the last one used)."""

    def _load(self, scenario: Scenario, *, lenient: bool = False) -> bool:
        """Rebuild the table from ``scenario`` (the screen does it)."""
        raise NotImplementedError

    @work(exclusive=True)
    async def action_load(self, _shown: bool = True) -> None:
        """Load a scenario file (JSON); a relative path is relative to the working directory (:mod:`tui.user_paths`)."""
        if refuses_files(self.app):
            return
        path = await self.app.push_screen_wait(PromptScreen("Load a Lab scenario from", self.path, "scenario.json",
                                                            "Load"))
        if not path:
            return
        try:
            target = user_path(path)
            scenario = read_scenario(target)
        except (LabError, NoPathError) as error:
            self.notify(str(error), title="Can't load", severity="error", timeout=10)
            return
        self.path = str(target)
        self.seat = scenario.active
        if self._load(scenario):
            self.notify(f"Loaded {target}", timeout=10)

    @work(exclusive=True)
    async def action_save(self) -> None:
        """Save the scenario, plays included, as JSON to share (asking before replacing a file)."""
        if refuses_files(self.app):
            return
        path = await self.app.push_screen_wait(PromptScreen("Save this scenario to", self.path, "scenario.json",
                                                            "Save"))
        if not path:
            return
        try:
            target = user_path(path)
        except NoPathError as error:
            self.notify(str(error), title="Can't save", severity="error", timeout=10)
            return
        # Only a regular file is offered for replacing; a pipe or device is refused by write_scenario.
        if target.is_file() and not await self.app.push_screen_wait(
                ConfirmScreen(f"{target} already exists. Replace it?", "Replace", "Cancel")):
            return
        try:
            if target.parent == exports_dir():
                target.parent.mkdir(parents=True, exist_ok=True)  # the default folder; others must exist
            write_scenario(target, self.table.scenario)
        except (LabError, OSError) as error:
            self.notify(str(error), title="Can't save", severity="error", timeout=10)
            return
        self.path = str(target)
        self.notify(f"Saved to {target}", timeout=10)
