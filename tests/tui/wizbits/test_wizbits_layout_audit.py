"""A card-reachability audit of the Wizbits battlefield at 80x24 and 120x40, for a seat and a spectator.

The table is built through the engine (a full hand of 7, several cards in play
on both sides including a Glowworm Warden, a unit on the pillar with a chosen
target) and opened in the real game screen (the seat) or the replay (the
spectator's view). For every card in hand and in play, the audit reads the
screen as a player sees it: the card's name is on screen, or the pane holding
it shows a "more" marker on its border and scrolling the pane (or the key the
marker names) brings the name into view. A larger terminal must show at least
the names a smaller one shows, and the chosen-target row must show its value.
"""

from __future__ import annotations

import re
from typing import Any

from textual.app import App
from textual.widget import Widget

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.state import WizbitsState
from saves import SessionStore
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import Host, game_screen, wait_for
from tests.helpers.wizbits_layout_audit import crowded_table, live_at
from tui.games.wizbits.inspection import ChoiceList
from tui.games.wizbits.side import SidePanel
from tui.games.wizbits.table import WizbitsTable
from tui.screens.game.screen import GameScreen
from tui.screens.replay import ReplayScreen

SIZES = ((80, 24), (120, 40))
MORE = re.compile(r"▼ \d+ more")


def name_of(state: WizbitsState, iid: int) -> str:
    return CARDS_BY_ID[state.cards[iid]].name


def region_text(app: App[Any], widget: Widget) -> tuple[str, str]:
    """(the text inside ``widget``'s border as one line of words, its bottom border row) as the screen shows them."""
    strips = app.screen._compositor.render_strips()
    region = widget.region
    rows = [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]
    inner = " ".join(row[1:-1].strip() for row in rows[1:-1])
    return re.sub(r"\s+", " ", inner), rows[-1] if rows else ""


async def reachable(pilot: Any, widget: Widget, names: set[str]) -> tuple[set[str], list[str]]:
    """The names on screen in ``widget`` at first, and the problems: names neither shown nor behind a marker."""
    app = pilot.app
    inner, border = region_text(app, widget)
    shown = {name for name in names if name in inner}
    missing = names - shown
    problems = []
    if not missing:
        return shown, problems
    if not MORE.search(border):
        return shown, [f"{sorted(missing)} hidden in #{widget.id} with no 'more' marker (border: {border.strip()!r})"]
    if "(o)" in border:  # the brief opponent side names the key that shows it whole
        await pilot.press("o")
        await pilot.pause()
    found = set(shown)
    assert isinstance(widget, (SidePanel, ChoiceList))
    for y in range(0, int(widget.max_scroll_y) + 1):
        widget.scroll_to(y=y, animate=False, immediate=True)
        await pilot.pause()
        found |= {name for name in names if name in region_text(app, widget)[0]}
    if missing - found:
        problems.append(f"{sorted(missing - found)} in #{widget.id} never came into view by scrolling")
    if "(o)" in border:
        await pilot.press("o")
    widget.scroll_to(y=0, animate=False, immediate=True)
    await pilot.pause()
    return shown, problems


async def audit(pilot: Any, table: WizbitsTable, state: WizbitsState, seat: int | None) -> tuple[set[str], list[str]]:
    """Every card in hand (the seat's) and in play (both sides) is reachable; returns the names shown at first."""
    me = seat if seat is not None else 0
    shown: set[str] = set()
    problems: list[str] = []
    for side, who in (("#wb-opp", 1 - me), ("#wb-you", me)):
        names = {name_of(state, permanent.iid) for permanent in state.players[who].in_play}
        got, found = await reachable(pilot, table.query_one(side, SidePanel), names)
        shown |= {f"{who}:{name}" for name in got}
        problems += found
    if seat is not None:
        names = {name_of(state, iid) for iid in state.players[seat].hand}
        got, found = await reachable(pilot, table.query_one("#wb-list", ChoiceList), names)
        shown |= {f"hand:{name}" for name in got}
        problems += found
    return shown, problems


async def test_every_card_is_reachable_for_the_seat_and_a_larger_terminal_shows_no_less() -> None:
    state = crowded_table()
    seen: dict[tuple[int, int], set[str]] = {}
    for size in SIZES:
        with SessionStore() as store:
            live = live_at(store, state)
            app = Host(lambda live=live: GameScreen(live, auto_delay=0.01))
            async with app.run_test(size=size) as pilot:
                table = game_screen(app).query_one(WizbitsTable)
                await wait_for(pilot, lambda table=table: table.stage == "hand", "Ana's hand")
                await pilot.pause()
                shown, problems = await audit(pilot, table, live.state, 0)
                assert not problems, (size, problems)
                seen[size] = shown
    assert seen[SIZES[0]] <= seen[SIZES[1]], f"120x40 hides {sorted(seen[SIZES[0]] - seen[SIZES[1]])}"


async def test_every_card_in_play_is_reachable_for_a_spectator_and_a_larger_terminal_shows_no_less() -> None:
    state = crowded_table()
    seen: dict[tuple[int, int], set[str]] = {}
    for size in SIZES:
        with SessionStore() as store:
            live = live_at(store, state)
            app = Host(lambda live=live: ReplayScreen(live))
            async with app.run_test(size=size) as pilot:
                await until(pilot, lambda app=app: (app.screen.query_one(WizbitsTable).view is not None),
                            'table.view is not None and table.view.seat is None')
                table = app.screen.query_one(WizbitsTable)
                assert table.view is not None and table.view.seat is None
                shown, problems = await audit(pilot, table, live.state, None)
                assert not problems, (size, problems)
                seen[size] = shown
    assert seen[SIZES[0]] <= seen[SIZES[1]], f"120x40 hides {sorted(seen[SIZES[0]] - seen[SIZES[1]])}"


async def test_the_chosen_target_row_shows_its_value_whole_at_both_sizes() -> None:
    state = crowded_table()
    for size in SIZES:
        with SessionStore() as store:
            live = live_at(store, state)
            app = Host(lambda live=live: GameScreen(live, auto_delay=0.01))
            async with app.run_test(size=size) as pilot:
                table = game_screen(app).query_one(WizbitsTable)
                await wait_for(pilot, lambda table=table: table.stage == "hand", "Ana's hand")
                await pilot.press("enter")  # Radiant Verdict: a chosen opposing character
                await wait_for(pilot, lambda table=table: table.stage == "compose", "the target row")
                await wait_for(pilot, lambda app=app, table=table: table.rows[0].names[table.rows[0].index]
                               in region_text(app, table.query_one("#wb-list", ChoiceList))[0], "the target row drawn")
                row = table.rows[0]
                inner, _ = region_text(app, table.query_one("#wb-list", ChoiceList))
                assert row.names[row.index] in inner and "…" not in inner, (size, inner)
