"""Shared by test_wizbits_lab.py and other test modules, which import them from here.

table_scenario, moved here from tests/engine/wizbits/test_wizbits_lab.py.
"""

from __future__ import annotations

from dataclasses import replace

from engine.wizbits.lab.table import (
    LabCard,
    LabSide,
    Scenario,
)


def table_scenario(**changes: object) -> Scenario:
    """Ana (Archmage, Halo Lantern, a damaged Squire) against Bo (Sage, Scout), no plays yet."""
    scenario = Scenario(
        "Test", "A small table.",
        (LabSide("Ana", LabCard("cinderwing-archmage", damage=2),
                 (LabCard("halo-lantern"), LabCard("emberbeetle-squire", damage=1, seceded=True)),
                 ("flickerwand",), "ember-dawn"),
         LabSide("Bo", LabCard("tidewhisper-sage"), (LabCard("pondskater-scout"),), (), ("dewdrop-orb", "riddle-cube"))),
    )
    return replace(scenario, **changes)  # type: ignore[arg-type]
