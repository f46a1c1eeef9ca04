"""Inspect says all it has to about the line looked at: a unit's targets whole, a character's points now."""

from __future__ import annotations

import re

import pytest
from textual.widgets import OptionList

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.game import RULES
from saves import SessionStore
from tests.helpers.layout_audit import rows
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import Host, game_screen, wait_for
from tests.helpers.wizbits_layout_audit import crowded_table, live_at
from tui.games.wizbits.side import points_text
from tui.games.wizbits.table import WizbitsTable
from tui.screens.game.screen import GameScreen


def squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


async def inspect_line(size: tuple[int, int], wanted: str) -> tuple[str, str]:
    """Open Inspect on the crowded table at ``size``, highlight the look whose label holds ``wanted``:
    (its note, the words the card box shows from its top)."""
    state = crowded_table()
    with SessionStore() as store:
        live = live_at(store, state)
        app = Host(lambda: GameScreen(live, auto_delay=0.01))
        async with app.run_test(size=size) as pilot:
            table = game_screen(app).query_one(WizbitsTable)
            await wait_for(pilot, lambda: table.stage == "hand", "Ana's hand")
            await pilot.press("i")
            await until(pilot, lambda: table.inspecting, "Inspect")
            index = next(i for i, look in enumerate(table.looks) if wanted in look.label.plain)
            table.query_one("#wb-list", OptionList).highlighted = index
            box = table.query_one("#wb-card-box")
            note = table.looks[index].note
            await until(pilot, lambda: box.region.height > 0 and box.scroll_y == 0 and note.split()[0]
                        in " ".join(rows(app)[box.region.y:box.region.bottom]), "the note in the card box")
            region = box.region
            drawn = squeezed(" ".join(row[region.x:region.right].strip("▁▂▃▄▅▆▇█ ")
                                      for row in rows(app)[region.y:region.bottom]))
            return note, drawn


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_pillar_units_targets_show_whole(size: tuple[int, int]) -> None:
    note, drawn = await inspect_line(size, "Pillar Sparkswarm Volley")
    assert "Targets:" in note
    targets = squeezed(note[note.index("Targets:"):])
    assert targets in drawn, (targets, drawn)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_character_shows_its_points_now_beside_the_printed_ones(size: tuple[int, int]) -> None:
    state = crowded_table()
    main = next(p for p in RULES.view(state, 0).players[1].in_play if p.is_main)
    card = CARDS_BY_ID[main.card_id]
    _, drawn = await inspect_line(size, card.name)
    printed = card.main_points
    assert printed is not None
    assert f"Now: {points_text(main)}" in drawn, drawn  # what the side shows
    assert f"printed S d{printed.strength} W d{printed.will} M d{printed.magic} SCN {printed.scn}" in drawn, drawn
