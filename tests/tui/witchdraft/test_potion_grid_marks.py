"""A potion partly out of the grid's view says so: "▲ more" on the top row, "▼ more" on the bottom one."""

from __future__ import annotations

from tests.helpers.layout_audit import rows
from tests.helpers.potion_grid import GridApp, drafted
from tests.helpers.waiting import until
from tui.games.witchdraft.potion_grid import PotionGrid


def grid_rows(app: GridApp, grid: PotionGrid) -> list[str]:
    region = grid.region
    return [row[region.x:region.right] for row in rows(app)[region.y:region.bottom]]


async def test_rows_of_the_potion_out_of_view_are_marked() -> None:
    state = drafted(4)
    app = GridApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        await until(pilot, lambda: grid.region.height > 0, "the grid")
        shown = grid_rows(app, grid)
        assert not any("more" in row for row in shown), "the whole potion fits: nothing to mark"
        grid.action_pan(0, 3)  # the view moves down: the potion's top row leaves it
        await until(pilot, lambda: "▲ more" in grid_rows(app, grid)[0], "the mark above")
        grid.action_pan(0, -6)  # and up, past its bottom row
        await until(pilot, lambda: any("▼ more" in row for row in grid_rows(app, grid)[-3:]), "the mark below")
        assert "▲ more" not in grid_rows(app, grid)[0]
