"""The Wizbits piles dialog (g): both seats' discard piles and seceded cards, public information only."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList

from engine.wizbits.cards.card_set import CARDS_BY_ID
from saves import SessionStore
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import SMALL, BattleApp, opening, run
from tests.helpers.wizbits_e2e import Host
from tests.helpers.wizbits_game import Game
from tests.helpers.wizbits_layout_audit import crowded_table, live_at
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.piles import PilesDialog
from tui.games.wizbits.table import WizbitsTable
from tui.screens.replay import ReplayScreen


def with_piles() -> Game:
    """The opening table (Bo has a seceded Flickerwand) with two cards in Bo's discard pile and one in Ana's."""
    game = opening()
    game.give(1, "sparkswarm-volley", "discard")
    game.give(1, "ripple-of-doubt", "discard")  # Bo's top card
    game.give(0, "radiant-verdict", "discard")
    return game


def listed(dialog: PilesDialog) -> list[str]:
    listing = dialog.query_one("#piles-list", OptionList)
    return [str(listing.get_option_at_index(index).prompt) for index in range(listing.option_count)]


def public_cards(game: Game) -> set[str]:
    """The card ids the piles may show: discard piles and seceded cards in play, both seats."""
    state = game.state
    found = {state.cards[iid] for player in state.players for iid in player.discard}
    return found | {state.cards[p.iid] for player in state.players for p in player.in_play if p.seceded}


def test_g_lists_both_discard_piles_top_first_and_the_seceded_cards_with_the_card_in_full() -> None:
    game = with_piles()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("g")
        dialog = app.screen
        assert isinstance(dialog, PilesDialog)
        lines = listed(dialog)
        bo_discard = [CARDS_BY_ID[game.state.cards[iid]].name for iid in reversed(game.state.players[1].discard)]
        start = lines.index(f"Bo's discard pile · {len(bo_discard)} (top first)")
        assert [line.strip()[2:] for line in lines[start + 1:start + 1 + len(bo_discard)]] == bo_discard
        assert bo_discard[0] == "Ripple of Doubt"
        assert "Bo's seceded cards · 1" in lines and any("Flickerwand ⟲ flipped" in line for line in lines)
        assert any(line.startswith("Your discard pile") for line in lines)
        assert "Your seceded cards · 0" in lines
        card = dialog.query_one("#piles-card", WizbitsCard)
        assert card.card_id == "ripple-of-doubt"  # the first card is highlighted and drawn in full
        await pilot.press("tab")
        assert card.card_id == "flickerwand" and "FLIP" in card.render().plain  # type: ignore[union-attr]
        await pilot.press("tab")
        assert card.card_id == game.state.cards[game.state.players[0].discard[-1]]
        assert {line.card_id for line in dialog.lines if line.card_id} <= public_cards(game)
        await pilot.press("escape")
        assert not isinstance(app.screen, PilesDialog)

    run(app, scenario, SMALL)


def test_a_spectator_sees_the_same_public_piles_and_never_a_hand() -> None:
    game = with_piles()
    hand_only = {game.state.cards[iid] for iid in game.state.players[0].hand} - public_cards(game)
    assert hand_only

    async def scenario(pilot: Any) -> None:
        await pilot.press("g")
        dialog = app.screen
        assert isinstance(dialog, PilesDialog)
        shown = {line.card_id for line in dialog.lines if line.card_id}
        assert shown == public_cards(game) and not shown & hand_only
        lines = listed(dialog)
        assert any(line.startswith("Bo's discard pile") for line in lines)
        assert any(line.startswith("Ana's discard pile") for line in lines)

    app = BattleApp(game, viewer=None)  # type: ignore[arg-type]
    run(app, scenario, SMALL)


async def test_g_opens_the_piles_in_the_replay_too() -> None:
    state = crowded_table()
    with SessionStore() as store:
        live = live_at(store, state)
        app = Host(lambda: ReplayScreen(live))
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: (app.screen.query_one(WizbitsTable).view is not None),
                        'app.screen.query_one(WizbitsTable).view is not None')
            await pilot.press("g")
            assert isinstance(app.screen, PilesDialog)
            await pilot.press("g")
            assert isinstance(app.screen, ReplayScreen)
