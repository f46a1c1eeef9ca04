"""Behaviour tests for the WitchDraft potion grid: ghost, legality, placing, zoom, panning.

Areas come from driving the engine with a fixed seed and the normal bot, and
the grid's callbacks call ``PlayArea.check`` and ``scoring.score_gain``, as
the draft view will.
"""

from __future__ import annotations

from typing import Any

from engine.witchdraft.geometry import Placement, cells
from engine.witchdraft.rules import area_of
from tests.helpers.potion_grid import RULES, SEED, GridApp, callbacks, drafted, hand_card
from tests.helpers.waiting import until
from tui.games.witchdraft.potion_grid import PotionGrid


def cursor(grid: PotionGrid) -> Placement:
    assert grid.cursor is not None
    return grid.cursor


async def test_ghost_starts_on_a_legal_spot_and_moves_and_rotates() -> None:
    state = drafted(3)
    app = GridApp(state, card=hand_card(state))
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        assert grid.placing and grid.cursor is not None
        assert grid.reason is None and grid.status.startswith("Legal · +")
        start = grid.cursor
        await pilot.press("right", "down")
        assert (grid.cursor.x, grid.cursor.y) == (start.x + 1, start.y + 1)
        rotations = []
        for _ in range(4):
            await pilot.press("r")
            rotations.append(grid.cursor.rotation)
        assert rotations == [(start.rotation + 90 * n) % 360 for n in (1, 2, 3, 4)]


async def test_illegal_reason_is_shown_and_enter_refuses() -> None:
    state = drafted(2)
    app = GridApp(state, card=hand_card(state), start=Placement(0, 0, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        assert grid.reason == "overlaps a card"
        assert grid.status == "Illegal: overlaps a card"
        assert "Illegal: overlaps a card" in app.statuses
        await pilot.press("enter")
        await until(pilot, lambda: app.placed == [] and grid.status == "Illegal: overlaps a card", 'app.placed == []')
        assert app.placed == []
        assert grid.status == "Illegal: overlaps a card"
        # Far away from every card.
        grid.start_placing(hand_card(state), *callbacks(state, 0, hand_card(state)), start=Placement(9, 9, 0))
        assert grid.status == "Illegal: touches no card"


async def test_perpendicular_reason() -> None:
    state = RULES.new_state({}, SEED, 2, ["Ana", "Bo"])
    # Lying flat right of the flat apprentice card breaks the right-angle rule.
    app = GridApp(state, card=hand_card(state), start=Placement(2, 0, 0))
    async with app.run_test(size=(80, 24)):
        grid = app.query_one(PotionGrid)
        assert grid.reason == "must be perpendicular to a card it touches"
        # Too long for one 50-column line: the status takes two rows, and none of it is cut.
        status_rows = grid.render_lines(grid.region.reset_offset)[-2:]
        shown = " ".join("".join(segment.text for segment in row).strip() for row in status_rows)
        assert "✗ Illegal: must be perpendicular to a card it touches" in " ".join(shown.split())


async def test_enter_posts_placed_only_when_legal() -> None:
    state = drafted(2)
    card = hand_card(state)
    app = GridApp(state, card=card)
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        spot = grid.cursor
        await pilot.press("enter")
        await until(pilot, lambda: ([(m.card_id, m.placement) for m in app.placed] == [(card, spot)]
                                    and m_control_is(grid, app.placed[0])),
                    '[(m.card_id, m.placement) for m in app.placed] == [(card,...')
        assert [(m.card_id, m.placement) for m in app.placed] == [(card, spot)]
        assert m_control_is(grid, app.placed[0])
        area_of(state.players[0]).check(card, cursor(grid))  # the engine agrees it is legal
        grid.stop_placing()
        await pilot.press("enter")
        await until(pilot, lambda: (len(app.placed) == 1 and not grid.placing),
                    'len(app.placed) == 1 and not grid.placing')


def m_control_is(grid: PotionGrid, message: Any) -> bool:
    return message.control is grid


async def test_legal_status_reports_the_engine_gain() -> None:
    state = drafted(4)
    card = hand_card(state)
    app = GridApp(state, card=card)
    async with app.run_test(size=(80, 24)):
        grid = app.query_one(PotionGrid)
        _, gain = callbacks(state, 0, card)
        points = gain(cursor(grid))
        assert grid.status.startswith(f"Legal · +{points} brew point")


async def test_zoom_toggles_with_z() -> None:
    state = drafted(3)
    app = GridApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        assert grid.zoom == "compact"
        await pilot.press("z")
        assert grid.zoom == "detailed"
        await pilot.press("z")
        assert grid.zoom == "compact"


async def test_view_follows_the_cursor_far_from_the_area() -> None:
    state = drafted(5)
    app = GridApp(state, card=hand_card(state), zoom="detailed")
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        for key in ("right", "down", "left", "up"):
            for _ in range(8):
                await pilot.press(key)
                for cell in cells(cursor(grid)):
                    assert grid.is_cell_visible(cell), (key, grid.cursor)


async def test_shift_arrows_pan_and_moving_brings_the_ghost_back() -> None:
    state = drafted(5)
    app = GridApp(state, card=hand_card(state), zoom="detailed")
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        for _ in range(10):
            await pilot.press("shift+right")
        assert not all(grid.is_cell_visible(cell) for cell in cells(cursor(grid)))
        await pilot.press("r")
        assert all(grid.is_cell_visible(cell) for cell in cells(cursor(grid)))


async def test_arrows_pan_when_not_placing_and_keys_hidden() -> None:
    state = drafted(5)
    app = GridApp(state, zoom="detailed")
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        shown = [cell for _, x, y, r in grid.area for cell in cells(Placement(x, y, r)) if grid.is_cell_visible(cell)]
        assert shown
        for _ in range(10):
            await pilot.press("right")
        assert not any(grid.is_cell_visible(cell) for cell in shown)
        assert grid.check_action("place", ()) is False
        assert grid.status.startswith("5 companions · z zoom")


async def test_click_moves_the_ghost_to_that_square() -> None:
    state = drafted(3)
    app = GridApp(state, card=hand_card(state))
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.query_one(PotionGrid)
        left, top, _, _ = grid._viewport()
        await pilot.click(PotionGrid, offset=(4 * 2 - left % 4 + 1, 0))
        assert cursor(grid).x == (left + 4 * 2 - left % 4 + 1) // 4
        assert cursor(grid).y == top // 2
