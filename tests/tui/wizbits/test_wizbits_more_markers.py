"""The Wizbits panes say how much waits out of view: '▼ n more' on the hand list's and each side's border."""

from __future__ import annotations

from typing import Any

from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import BIG, SMALL, BattleApp, run
from tests.helpers.wizbits_game import Game
from tests.helpers.wizbits_layout_audit import crowded_table
from tui.games.wizbits.inspection import ChoiceList
from tui.games.wizbits.side import SidePanel


def crowded() -> Game:
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.state = crowded_table()
    return game


def test_the_hand_list_counts_the_lines_below_and_above_as_the_cursor_moves() -> None:
    app = BattleApp(crowded())

    async def scenario(pilot: Any) -> None:
        listing = app.table.query_one("#wb-list", ChoiceList)
        rows = listing.scrollable_content_region.height
        assert listing.option_count > rows  # 7 cards and the Archmage's abilities in a few rows
        assert listing.border_subtitle == f"▼ {listing.option_count - rows} more"
        await pilot.press("end")
        await until(pilot, lambda: (listing.border_subtitle == f"▲ {listing.option_count - rows} more"),
                    'listing.border_subtitle == f"▲ {listing.option_count - ro...')
        await pilot.press("home")
        await until(pilot, lambda: listing.border_subtitle.startswith("▼"), 'listing.border_subtitle.startswith("▼")')

    run(app, scenario, SMALL)


def test_your_side_says_how_many_cards_wait_below_and_tab_then_arrows_reach_them() -> None:
    game = crowded()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        side = app.table.query_one("#wb-you", SidePanel)
        above, below = side.more
        assert above == 0 and below > 0 and side.border_subtitle.startswith(f"▼ {below} more")
        while app.focused is not side:
            await pilot.press("tab")
        await pilot.press("end")
        await until(pilot, lambda: (
            side.more[1] == 0 and side.more[0] > 0 and side.border_subtitle.startswith(f"▲ {side.more[0]}")
            and "Mossback Stagbeetle" in side.text.plain
        ), 'side.more[1] == 0 and side.more[0] > 0 and side.border_su...')
        assert side.more[1] == 0 and side.more[0] > 0 and side.border_subtitle.startswith(f"▲ {side.more[0]}")
        assert "Mossback Stagbeetle" in side.text.plain

    run(app, scenario, SMALL)


def test_the_brief_opponent_names_the_key_that_shows_the_rest() -> None:
    game = crowded()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        opponent = app.table.query_one("#wb-opp", SidePanel)
        # Every Character shows in the brief side; the Non-Elements and seceded cards wait behind o.
        others = sum(1 for p in game.state.players[1].in_play if p.seceded or not game.state.card(p.iid).is_character)
        assert opponent.brief and opponent.border_subtitle == f"▼ {others} more (o)"
        await pilot.press("o")
        await until(pilot, lambda: (not opponent.brief and "(o)" not in str(opponent.border_subtitle)),
                    'not opponent.brief and "(o)" not in str(opponent.border_s...')

    run(app, scenario, SMALL)


def test_a_side_that_fits_keeps_its_deck_name_and_no_marker() -> None:
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.settle()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        for side, subtitle in (("#wb-opp", "Tidal Dusk"), ("#wb-you", "you · Ember Dawn")):
            panel = app.table.query_one(side, SidePanel)
            assert panel.more == (0, 0) and panel.border_subtitle == subtitle

    run(app, scenario, BIG)
