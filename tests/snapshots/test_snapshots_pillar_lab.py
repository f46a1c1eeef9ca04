"""Snapshot tests of the Pillar Lab: a shipped lesson while building (80x24) and before a simultaneous step (100x30)."""

from __future__ import annotations

from typing import Any

from engine.wizbits.lab.json_form import shipped_scenarios
from tests.helpers.pillar_lab_tui import LabHost


def by_title(words: str) -> Any:
    return next(scenario for scenario in shipped_scenarios() if words in scenario.title.lower())


def test_the_lab_building_the_worked_example(snap_compare: Any) -> None:
    assert snap_compare(LabHost(by_title("worked")), terminal_size=(80, 24))


def test_the_lab_before_a_simultaneous_step(snap_compare: Any) -> None:
    async def resolve(pilot: Any) -> None:
        await pilot.press("g")
        await pilot.pause()

    assert snap_compare(LabHost(by_title("three at one height")), terminal_size=(100, 30), run_before=resolve)
