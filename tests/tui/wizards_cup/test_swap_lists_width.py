"""The swap lists use a wide terminal's room: wider lists, each row with its power's timing."""

from __future__ import annotations

from engine.wizards_cup.cards import CARDS
from tests.helpers.layout_audit import rows
from tests.helpers.waiting import until
from tests.helpers.wizards_cup_tui import TableApp, swap_game
from tui.games.wizards_cup.wizard_card import timing_label


async def lists_at(size: tuple[int, int]) -> tuple[int, list[str]]:
    """The width of the Swap out list at ``size``, and its rows as drawn."""
    game = swap_game()
    app = TableApp(game.view(0), 0, game.legal(0), game.events)
    async with app.run_test(size=size) as pilot:
        team = app.query_one("#sp-team")
        await until(pilot, lambda: team.region.width > 0 and team.option_count > 0, "the swap lists")  # type: ignore[attr-defined]
        region = team.region
        return region.width, [row[region.x:region.right] for row in rows(app)[region.y:region.bottom]]


async def test_at_120x40_the_swap_lists_widen_and_show_the_timings() -> None:
    narrow, _ = await lists_at((80, 24))
    wide, drawn = await lists_at((120, 40))
    assert wide > narrow, "the lists keep their 80-column width"
    game = swap_game()
    team = list(game.view(0).players[0].team or ())
    timed = [card for card in team if CARDS[card].power is not None]
    assert timed, "the team has a wizard with a power, or the check checks nothing"
    inside = [line[1:-1].strip() for line in drawn[1:-1]]
    assert all(line[:1] in "◆✓·" for line in inside), f"a row wraps in the wider list: {inside}"
    for card in timed:
        line = next(line for line in drawn if CARDS[card].name in line)
        assert timing_label(CARDS[card]) in line, line
