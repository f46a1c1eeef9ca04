"""Snapshot tests of the Wizbits pillar tree at 80x24: a 40-column pane, or the full width.

Pillars are built with the engine (see ``test_pillar_tree``), so the pictures
only change when the widget does.
"""

from __future__ import annotations

from typing import Any

from engine.wizbits.pillar.tree import Pillar, UnitKind
from tests.helpers.pillar_tree import Host, two_subpillars

SIZE = (80, 24)


def test_building_with_two_subpillars(snap_compare: Any) -> None:
    assert snap_compare(Host(two_subpillars()), terminal_size=SIZE)


def test_step_mode_before_a_simultaneous_step(snap_compare: Any) -> None:
    pillar = two_subpillars()
    pillar.resolve_group()  # three units now share height 2
    assert snap_compare(Host(pillar, mode="step", width=80), terminal_size=SIZE)


def test_reverse_pillar_expanded(snap_compare: Any) -> None:
    async def open_oracle(pilot: Any) -> None:
        for _ in range(6):  # down to Dawnfly Oracle
            await pilot.press("down")
        await pilot.press("e")

    assert snap_compare(Host(two_subpillars(), width=80), terminal_size=SIZE, run_before=open_oracle)


def test_continue_units_under_the_base(snap_compare: Any) -> None:
    pillar = Pillar.open("turn", "constructed", [(0, "Halo Lantern continue", {"iid": 30, "ability": 0}),
                                                 (1, "Grim Music Box continue", {"iid": 31, "ability": 0})])
    pillar.play(UnitKind.CARD, 0, "Dawnfly Oracle", {"iid": 10})
    assert snap_compare(Host(pillar), terminal_size=SIZE)


def test_rtf_two_labels(snap_compare: Any) -> None:
    assert snap_compare(Host(two_subpillars(), rtf=2, mode="step"), terminal_size=SIZE)
