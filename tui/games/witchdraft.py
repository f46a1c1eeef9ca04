"""WitchDraft screen parts: the draft table (hand panel + potion grid) and the score screen.

The table never decides legality itself: the potion grid's ghost asks
:meth:`engine.witchdraft.geometry.PlayArea.check` through a callback, and
the chosen pick must be one of the engine's legal actions before it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from engine import Event, Result
from engine.witchdraft.actions import Pick, action_to_json
from engine.witchdraft.cards import INGREDIENT_CARDS_BY_ID, RECIPES_BY_ID
from engine.witchdraft.geometry import IllegalPlacement, Placement, PlacedCard, PlayArea
from engine.witchdraft.scoring import CategoryScore, score, score_gain
from engine.witchdraft.state import WitchDraftView
from tui.games.base import GameTable, GameUI
from tui.screens.witchdraft_results import WitchDraftScoreScreen
from tui.widgets.draft_hand import DraftHand
from tui.widgets.potion_grid import PotionGrid
from tui.widgets.wizard_card import load_css

GAME_ID = "witchdraft"


def area_from_view(cards: Sequence[tuple[str, int, int, int]]) -> PlayArea:
    """A geometry value for an area as a view lists it."""
    return PlayArea(tuple(PlacedCard(card, Placement(x, y, rotation)) for card, x, y, rotation in cards))


class WitchDraftTable(GameTable):
    """Hand and secret cards on the right, the watched potion on the left."""

    DEFAULT_CSS = load_css(__file__)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WitchDraftView | None = None
        self.seat: int | None = None
        self.legal: set[Pick] = set()
        self.watching = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield PotionGrid(id="wd-grid")
            yield DraftHand(id="wd-hand")

    def show(self, view: Any, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view``; let ``deciding_seat`` choose a card and its spot."""
        self.view, self.seat, self.legal = view, deciding_seat, set(legal)
        if view.seat is not None:
            self.watching = view.seat
        grid = self.query_one(PotionGrid)
        grid.stop_placing()
        grid.show_area(view.players[self.watching].area)
        hand = self.query_one(DraftHand)
        hand.show(view, self.watching)
        if deciding_seat is not None and view.me is not None and view.me.hand:
            hand.query_one("#dh-hand").focus()

    def on_draft_hand_card_chosen(self, message: DraftHand.CardChosen) -> None:
        """Pick up the chosen card as a ghost on your own potion."""
        message.stop()
        view, seat = self.view, self.seat
        if view is None or seat is None or view.me is None:
            return
        me = view.me
        if me.recipe is None or me.ingredients is None:
            return
        self.watching = seat
        area = area_from_view(me.area)
        recipe, ingredients = RECIPES_BY_ID[me.recipe], INGREDIENT_CARDS_BY_ID[me.ingredients]
        card = message.card_id

        def check(placement: Placement) -> str | None:
            try:
                area.check(card, placement)
            except IllegalPlacement as error:
                return error.reason
            return None

        grid = self.query_one(PotionGrid)
        grid.show_area(me.area)
        self.query_one(DraftHand).show(view, seat)
        grid.start_placing(card, check, lambda placement: score_gain(area, card, placement, recipe, ingredients))
        grid.focus()

    def on_potion_grid_placed(self, message: PotionGrid.Placed) -> None:
        """Send the pick once the engine lists it as legal."""
        message.stop()
        pick = Pick(message.card_id, message.placement)
        if self.seat is None or pick not in self.legal:
            self.notify("That pick is not allowed now.", severity="error")
            return
        self.query_one(PotionGrid).stop_placing()
        self.post_message(self.ActionChosen(self.seat, action_to_json(pick)))

    def on_draft_hand_watch_seat(self, message: DraftHand.WatchSeat) -> None:
        """Look at another apprentice's potion (placing stops)."""
        message.stop()
        if self.view is None:
            return
        self.watching = message.seat
        grid = self.query_one(PotionGrid)
        grid.stop_placing()
        grid.show_area(self.view.players[message.seat].area)
        self.query_one(DraftHand).show(self.view, message.seat)


def final_scores(view: WitchDraftView) -> list[list[CategoryScore]]:
    """Every seat's eight category scores; recipes are public once the game is over."""
    scores = []
    for player in view.players:
        if player.recipe is None or player.ingredients is None:
            scores.append([])
            continue
        scores.append(score(area_from_view(player.area), RECIPES_BY_ID[player.recipe],
                            INGREDIENT_CARDS_BY_ID[player.ingredients]))
    return scores


class WitchDraftUI(GameUI):
    """WitchDraft's table and score screen."""

    def make_table(self) -> GameTable:
        """A fresh draft table."""
        return WitchDraftTable()

    def game_result(self, view: Any, result: Result, events: Sequence[Event]) -> Screen[None]:
        """The category-by-seat score table with the winner or winners."""
        return WitchDraftScoreScreen(view, final_scores(view), result)


