"""Snapshot tests of the WitchDraft potion grid at 80x24 (14 rows x 50 columns, with a footer).

Areas come from driving the engine with a fixed seed (see ``test_potion_grid``),
so the pictures only change when the widget does.
"""

from __future__ import annotations

from typing import Any

from engine.witchdraft.geometry import Placement
from tests.helpers.potion_grid import GridApp, drafted, hand_card

SIZE = (80, 24)


def test_legal_ghost(snap_compare: Any) -> None:
    state = drafted(4)
    assert snap_compare(GridApp(state, card=hand_card(state)), terminal_size=SIZE)


def test_illegal_ghost(snap_compare: Any) -> None:
    state = drafted(4)

    async def rotate(pilot: Any) -> None:
        await pilot.press("r")

    app = GridApp(state, card=hand_card(state), start=Placement(1, 0, 0))
    assert snap_compare(app, terminal_size=SIZE, run_before=rotate)


def test_compact_zoom(snap_compare: Any) -> None:
    assert snap_compare(GridApp(drafted(8)), terminal_size=SIZE)


def test_detailed_zoom(snap_compare: Any) -> None:
    state = drafted(4)

    async def zoom(pilot: Any) -> None:
        await pilot.press("z")

    assert snap_compare(GridApp(state, card=hand_card(state)), terminal_size=SIZE, run_before=zoom)
