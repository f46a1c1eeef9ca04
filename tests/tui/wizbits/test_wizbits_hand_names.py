"""Every card name in the Wizbits hand list shows whole, down to 100x30 (the category gives way, then it wraps)."""

from __future__ import annotations

import re

import pytest
from textual.widgets import OptionList

from engine.wizbits.cards.card_set import CARDS_BY_ID
from saves import SessionStore
from tests.helpers.layout_audit import rows
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import Host, game_screen, wait_for
from tests.helpers.wizbits_layout_audit import crowded_table, live_at
from tui.games.wizbits.table import WizbitsTable
from tui.screens.game.screen import GameScreen


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
async def test_every_hand_name_shows_whole(size: tuple[int, int]) -> None:
    state = crowded_table()
    hand = [CARDS_BY_ID[state.cards[iid]].name for iid in state.players[0].hand]
    assert any(len(name) >= 18 for name in hand), "the hand holds a long name, or the check checks nothing"
    with SessionStore() as store:
        live = live_at(store, state)
        app = Host(lambda: GameScreen(live, auto_delay=0.01))
        async with app.run_test(size=size) as pilot:
            table = game_screen(app).query_one(WizbitsTable)
            await wait_for(pilot, lambda: table.stage == "hand", "Ana's hand")
            listing = table.query_one("#wb-list", OptionList)
            for index, name in enumerate(hand):
                listing.highlighted = index
                await until(pilot, lambda index=index: listing.highlighted == index  # type: ignore[misc]
                            and listing.region.width > 0, f"{name} highlighted")
                await pilot.pause()
                region = listing.region
                drawn = [row[region.x + 1:region.right - 1].rstrip("▁▂▃▄▅▆▇█ ")
                         for row in rows(app)[region.y + 1:region.bottom - 1]]
                # A name too wide for the list goes on two rows, between words: read the rows as one text.
                words = re.sub(r"\s+", " ", " ".join(drawn))
                assert name in words, (size, name, drawn)
