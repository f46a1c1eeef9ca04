"""The Pillar Lab's one sentence, why the units at one height resolve in their order, shows whole at 80x24."""

from __future__ import annotations

import re

import pytest

from engine.wizbits.lab.json_form import shipped_scenarios
from tests.helpers.layout_audit import rows
from tests.helpers.pillar_lab_tui import LabHost, lab
from tests.helpers.waiting import until
from tui.games.wizbits.pillar_tree.tree import PillarTree


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("index", range(len(shipped_scenarios())))
async def test_the_why_sentence_of_each_first_step_shows_whole(index: int, size: tuple[int, int]) -> None:
    app = LabHost(shipped_scenarios()[index])
    async with app.run_test(size=size) as pilot:
        tree = lab(app).query_one(PillarTree)
        await pilot.press("g")
        await until(pilot, lambda: tree.mode == "step" and bool(tree.explanation), "step mode")
        info = tree.query_one("#pt-info")
        await until(pilot, lambda: info.region.height > 0, "the explanation laid out")
        region = info.region
        drawn = squeezed(" ".join(row[region.x:region.right] for row in rows(app)[region.y:region.bottom]))
        assert squeezed(tree.explanation) in drawn, (tree.explanation, drawn)
