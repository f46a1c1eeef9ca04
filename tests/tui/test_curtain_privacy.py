"""Pass-and-play: nothing a seat did privately on screen crosses the curtain to the next person.

Each test plays two people on one keyboard through the real game screen. The
first moves its cursors (and scrolls, zooms or pans where the widget can) to a
distinctive place and hands over; the second must find every list at its
start, the detail panes not showing the first person's card. When the first
seat's turn comes back it finds its own places again. The pillar tree's own
part (foundation, Reverse Pillars) is checked on the widget, where a pillar
with subpillars is easy to build.
"""

from __future__ import annotations

from typing import Any

from engine.witchdraft.actions import Pick
from engine.wizards_cup.actions import ChooseTeam, SetLineup
from engine.wizards_cup.cards import WIZARDS
from engine.wizards_cup.state import Phase
from engine.wizbits.actions import Pass
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.pillar_tree import Host as TreeHost
from tests.helpers.pillar_tree import two_subpillars
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.games.witchdraft.draft_hand import DraftHand
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.games.wizards_cup.swap_picker import SwapPicker
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.games.wizards_cup.wizard_card import WizardCard
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.table import WizbitsTable
from tui.screens.curtain import CurtainScreen

SIZE = (100, 30)
ANA_TEAM = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
BO_TEAM = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]


def two_people(store: SessionStore, game_id: str, options: dict[str, Any] | None = None, seed: int = 7) -> LiveSession:
    return LiveSession.create(store, game_id, options, seed, [SeatInfo("Ana"), SeatInfo("Bo")])


async def lift_curtain_for(pilot: Any, app: CovenApp, name: str) -> None:
    """Wait for ``name``'s curtain and lift it."""
    await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == name,
                f"{name}'s curtain")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CurtainScreen), "the curtain to lift")
    await pilot.pause()


def choose(app: CovenApp, seat: int, action: Any) -> None:
    """Send ``action`` for ``seat`` as the table would (long choices are set up, not typed)."""
    table = game_screen(app).table
    table.post_message(GameTable.ActionChosen(seat, action))


# -- Wizards Cup ----------------------------------------------------------------------------------


async def test_wizards_cup_team_builder_opens_fresh_for_the_next_player() -> None:
    with SessionStore() as store:
        live = two_people(store, "wizards-cup")
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await lift_curtain_for(pilot, app, "Ana")
            builder = game_screen(app).query_one(TeamBuilder)
            await pilot.press(*["down"] * 6)
            await until(pilot, lambda: (builder.highlighted_card == WIZARDS[6].card_id),
                        'builder.highlighted_card == ana_card')
            ana_card = WIZARDS[6].card_id
            assert builder.highlighted_card == ana_card
            assert builder.query_one("#tb-card", WizardCard).card_id == ana_card
            choose(app, 0, ChooseTeam(tuple(ANA_TEAM)))
            await lift_curtain_for(pilot, app, "Bo")
            assert builder.highlighted_card == WIZARDS[0].card_id
            assert builder.query_one("#tb-card", WizardCard).card_id == WIZARDS[0].card_id
            listing = builder.query_one("#tb-list")
            assert listing.has_focus and listing.scroll_y == 0


async def test_wizards_cup_swap_lists_open_fresh_and_come_back_to_their_seat() -> None:
    with SessionStore() as store:
        live = two_people(store, "wizards-cup", {"tokens_to_win": 3})
        live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
        live.apply(1, ChooseTeam(tuple(BO_TEAM)))
        for seat in (0, 1):
            live.apply(seat, SetLineup(tuple(live.state.players[seat].team)[:5]))
        while live.table_action is not None:
            live.play_table()
        assert live.state.phase is Phase.SWAP
        app = CovenApp(store=store, auto_delay=0.01)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await lift_curtain_for(pilot, app, "Ana")
            picker = game_screen(app).query_one(SwapPicker)
            team, pool = picker.query_one("#sp-team"), picker.query_one("#sp-pool")
            await pilot.press("down", "down", "tab", "down", "down", "down")
            await until(pilot, lambda: (team.highlighted == 2 and pool.highlighted == 3 and pool.has_focus),
                        'team.highlighted == 2 and pool.highlighted == 3 and pool....')
            ana_out, ana_in = team.highlighted_option.id, pool.highlighted_option.id
            assert picker.query_one("#sp-card", WizardCard).card_id == ana_in
            await pilot.press("k")  # Ana keeps her team
            await lift_curtain_for(pilot, app, "Bo")
            assert team.highlighted == 0 and pool.highlighted == 0
            assert team.has_focus
            bo_first = live.state.players[1].team[0]
            assert picker.query_one("#sp-card", WizardCard).card_id == bo_first
            await pilot.press("k")
            # Round 2: both lineups as they stand, the duels played, then Ana's swap again.
            for name in ("Ana", "Bo"):
                await lift_curtain_for(pilot, app, name)
                await pilot.press("c")
            await pilot.press("a")
            await until(pilot, lambda: live.state.phase is Phase.SWAP and live.state.round == 2, "round 2's swaps")
            await until(pilot, lambda: app.screen is not game_screen(app), "the round summary")
            if not isinstance(app.screen, CurtainScreen):
                await pilot.press("escape")
            await lift_curtain_for(pilot, app, "Ana")
            assert team.highlighted_option.id == ana_out and pool.highlighted_option.id == ana_in
            assert pool.has_focus


# -- WitchDraft -----------------------------------------------------------------------------------


def witchdraft_two_picks_in(store: SessionStore) -> LiveSession:
    """Ana and Bo, each with a few cards placed: every pick taken from the top of the hand, every card put first-legal."""
    live = two_people(store, "witchdraft", {}, seed=21)
    for _ in range(2):
        for seat in live.to_act:
            live.apply(seat, Pick(live.state.players[seat].hand[0]))
        for seat in live.to_act:
            legal = live.rules.legal_actions(live.state, seat)
            live.apply(seat, legal[0])
    return live


def look(grid: PotionGrid) -> tuple[str, Any]:
    """How the grid is looked at: its zoom and the world corner its pan shows."""
    return grid.zoom, grid._view


async def test_witchdraft_hand_zoom_pan_and_notes_stay_with_their_seat() -> None:
    with SessionStore() as store:
        live = witchdraft_two_picks_in(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await lift_curtain_for(pilot, app, "Ana")
            screen = game_screen(app)
            hand, grid = screen.query_one(DraftHand), screen.query_one(PotionGrid)
            listing, notes = hand.query_one("#dh-hand"), hand.query_one("#dh-info")
            fresh_view = look(grid)
            await pilot.press("down", "down", "z", "shift+right", "shift+down")
            notes.scroll_to(y=3, animate=False, immediate=True)
            await until(pilot, lambda: (
                listing.highlighted == 2 and look(grid)[0] == 'detailed' and (notes.scroll_y > 0)
            ), 'listing.highlighted == 2 and ana_look[0] == "detailed" an...')
            ana_look = look(grid)
            assert listing.highlighted == 2 and ana_look[0] == "detailed" and notes.scroll_y > 0
            await pilot.press("space")  # Ana picks her third card
            await lift_curtain_for(pilot, app, "Bo")
            assert hand.cards == tuple(live.state.players[1].hand)
            assert listing.highlighted == 0 and notes.scroll_y == 0
            assert grid.zoom == "compact" and look(grid) != ana_look
            assert "Bo's potion (you)" in str(screen.query_one("#wd-grid-title").render())
            assert fresh_view[0] == "compact"
            await pilot.press("space")  # Bo picks; both place, Ana first
            await lift_curtain_for(pilot, app, "Ana")
            assert grid.placing and grid.zoom == "detailed"
            await pilot.press("enter")  # Ana places her card where the ghost starts
            await lift_curtain_for(pilot, app, "Bo")
            assert grid.placing and grid.card_id == live.state.players[1].picked and grid.zoom == "compact"


# -- Wizbits --------------------------------------------------------------------------------------


def wizbits_ana_holds_priority(store: SessionStore) -> LiveSession:
    """Ana holds Priority with cards in hand, and so does Bo; everyone passes where they may."""
    live = two_people(store, "wizbits", {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}, seed=3)
    passing = Pass()
    while not (list(live.to_act) == [0] and live.state.players[0].hand and len(live.log) > 20):
        seat = live.to_act[0] if live.to_act else None
        if seat is None:
            live.play_table()
            continue
        legal = live.rules.legal_actions(live.state, seat)
        live.apply(seat, passing if passing in legal else legal[0])
    return live


async def test_wizbits_list_line_card_and_panes_stay_with_their_seat() -> None:
    with SessionStore() as store:
        live = wizbits_ana_holds_priority(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:  # the compact layout: panes open behind keys
            app.start_game(live)
            await lift_curtain_for(pilot, app, "Ana")
            screen = game_screen(app)
            table = screen.query_one(WizbitsTable)
            listing, card = table.query_one("#wb-list"), table.query_one(WizbitsCard)
            assert table.stage == "hand" and table.compact
            await pilot.press("down", "down", "down", "o")
            await until(pilot, lambda: (
                listing.highlighted == 3 and card.card_id is not None and table.has_class('-show-opp')
            ), 'listing.highlighted == 3 and ana_card is not None and tab...')
            ana_card = card.card_id
            assert listing.highlighted == 3 and ana_card is not None and table.has_class("-show-opp")
            ana_entry = table.entries[3]
            await pilot.press("x")  # Ana passes
            await lift_curtain_for(pilot, app, "Bo")
            assert table.seat == 1 and table.stage == "hand"
            assert not table.has_class("-show-opp") and card.card_id != ana_card
            assert listing.highlighted == 0
            await pilot.press("x")
            await lift_curtain_for(pilot, app, "Ana")
            await until(pilot, lambda: table.seat == 0 and table.stage == "hand", "Ana's Priority again")
            assert table.has_class("-show-opp") and card.card_id == ana_card
            assert table.entries[listing.highlighted] == ana_entry


async def test_pillar_tree_foundation_and_reverse_pillars_are_one_seats_own() -> None:
    pillar = two_subpillars()
    app = TreeHost(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one(PillarTree)
        legal = pillar.foundations()
        oracle = next(unit for unit in pillar.units() if unit.name == "Dawnfly Oracle")
        await pilot.press("f", "f")  # Ana's foundation: the second subpillar's tip
        while tree.cursor_uid != oracle.uid:
            await pilot.press("down")
        await pilot.press("e")  # and she opens the Oracle's Reverse Pillar
        assert tree.foundation == legal[2] and tree.is_expanded(oracle.uid)
        ana = tree.remember()
        tree.restore(None)  # Bo looks
        await until(pilot, lambda: (tree.foundation == legal[0] and not tree.is_expanded(oracle.uid)),
                    'tree.foundation == legal[0] and not tree.is_expanded(orac...')
        tree.restore(ana)  # Ana's turn again
        await until(pilot, lambda: (tree.foundation == legal[2] and tree.is_expanded(oracle.uid)),
                    'tree.foundation == legal[2] and tree.is_expanded(oracle.uid)')
