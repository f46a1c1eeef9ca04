"""WitchDraft screen parts: the draft table (hand panel + potion grid) and the score screen.

The table never decides legality itself: the potion grid's ghost asks
:meth:`engine.witchdraft.geometry.PlayArea.check` through a callback, and
a pick or a placement must be one of the engine's legal actions before it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from engine import Event, Result
from engine.witchdraft.actions import Pick, Place, WitchDraftAction
from engine.witchdraft.cards import INGREDIENT_CARDS_BY_ID, RECIPES_BY_ID
from engine.witchdraft.geometry import IllegalPlacement, PlacedCard, Placement, PlayArea
from engine.witchdraft.scoring import CategoryScore, score, score_gain
from engine.witchdraft.state import WitchDraftView
from tui.games.base import GameTable, GameUI
from tui.games.lookup import CardEntry
from tui.games.witchdraft import lookup
from tui.games.witchdraft.draft_hand import DraftHand
from tui.games.witchdraft.draft_score import SeatsTable
from tui.games.witchdraft.narration import NARRATION
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.games.witchdraft.results import WitchDraftScoreScreen
from tui.widgets.styles import load_css

GAME_ID = "witchdraft"


def area_from_view(cards: Sequence[tuple[str, int, int, int]]) -> PlayArea:
    """A geometry value for an area as a view lists it."""
    return PlayArea(tuple(PlacedCard(card, Placement(x, y, rotation)) for card, x, y, rotation in cards))


class WitchDraftTable(GameTable[WitchDraftView, WitchDraftAction]):
    """Hand and running score on the right; the watched potion over the table of seats on the left.

    A round takes two choices, as the engine asks for them: first a card from
    the hand (sent at once as a secret pick), then, after the reveal, a spot
    for that card on your own potion.
    """

    DEFAULT_CSS = load_css(__file__)

    # On the table rather than only on the grid or the hand, so they work whatever has focus.
    BINDINGS = [
        Binding("z", "zoom", "Zoom"),
        Binding("shift+left", "pan(-1, 0)", "Pan", key_display="⇧←→",
                tooltip="Pan: move the potion grid's view (shift and an arrow)"),
        Binding("shift+right", "pan(1, 0)", "Pan", show=False),
        Binding("shift+up", "pan(0, -1)", "Pan", show=False),
        Binding("shift+down", "pan(0, 1)", "Pan", show=False),
        Binding("left_square_bracket", "watch(-1)", "Prev area", show=False),
        Binding("right_square_bracket", "watch(1)", "Areas", key_display="[ ]",
                tooltip="Areas: look at another seat's play area, the potion it brews ([ the one before, ] the next)"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WitchDraftView | None = None
        self.seat: int | None = None
        self.legal: set[WitchDraftAction] = set()
        self.watching = 0
        self._ghost: tuple[str, Placement] | None = None
        """Where the seat now looking left its ghost card, if it was placing when the keyboard changed hands."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="wd-left"):
                yield Static(id="wd-grid-title")
                yield PotionGrid(id="wd-grid")
                yield SeatsTable(id="dh-table")
            yield DraftHand(id="wd-hand")

    def show(self, view: WitchDraftView, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view``; let ``deciding_seat`` pick a card, or place the revealed pick."""
        self.view, self.seat, self.legal = view, deciding_seat, set(legal)
        if view.seat is not None:
            self.watching = view.seat
        grid = self.query_one(PotionGrid)
        grid.stop_placing()
        hand = self.query_one(DraftHand)
        me = view.me
        placing = deciding_seat is not None and me is not None and view.stage == "place" and me.picked is not None
        if placing and deciding_seat is not None:  # placing implies a deciding seat; said again for the type checker
            self.watching = deciding_seat
        self._show_area()
        hand.show(view, self.watching)
        if placing:
            self._start_placing()
        elif deciding_seat is not None and me is not None and me.hand and view.stage == "pick":
            hand.focus_hand()
        elif not self._has_focus_inside():
            # Nobody here decides (a bot thinks, or a replay): the grid takes the keys for zoom and pan.
            grid.focus()

    def remember(self) -> tuple[Any, ...]:
        """What this seat did on screen: the grid's zoom and pan, its ghost, its cursor in the hand."""
        grid = self.query_one(PotionGrid)
        ghost = (grid.card_id, grid.cursor) if grid.card_id is not None and grid.cursor is not None else self._ghost
        return grid.remember(), ghost, self.query_one(DraftHand).remember()

    def restore(self, memo: object | None) -> None:
        """The seat now looking finds the grid and the hand as it left them (None: fresh), its own potion watched."""
        look, ghost, card = memo if isinstance(memo, tuple) else (None, None, None)
        grid = self.query_one(PotionGrid)
        grid.stop_placing()
        grid.restore(look)
        self._ghost = ghost
        self.watching = 0
        self.query_one(DraftHand).restore(card)

    def _has_focus_inside(self) -> bool:
        focused = self.screen.focused if self.is_attached else None
        return focused is not None and (focused is self or self in focused.ancestors)

    def _show_area(self) -> None:
        """Draw the watched seat's potion and say whose it is."""
        view = self.view
        assert view is not None
        player = view.players[self.watching]
        title = Text.assemble((f"{player.name}'s potion", "bold"),
                              (" (you)" if self.watching == view.seat else "", "dim"),
                              (f" · draw pile {view.draw_pile_count}", "dim"), no_wrap=True, overflow="ellipsis")
        self.query_one("#wd-grid-title", Static).update(title)
        self.query_one(PotionGrid).show_area(player.area)
        self.query_one(SeatsTable).show(view, self.watching)

    def _start_placing(self) -> None:
        """Put your revealed pick on your own potion as a ghost, judged by the engine's geometry and scoring."""
        view, seat = self.view, self.seat
        if view is None or seat is None or view.me is None:
            return
        me = view.me
        card = me.picked
        if card is None or me.recipe is None or me.ingredients is None:
            return
        area = area_from_view(me.area)
        recipe, ingredients = RECIPES_BY_ID[me.recipe], INGREDIENT_CARDS_BY_ID[me.ingredients]

        def check(placement: Placement) -> str | None:
            try:
                area.check(card, placement)
            except IllegalPlacement as error:
                return error.reason
            return None

        grid = self.query_one(PotionGrid)
        start = self._ghost[1] if self._ghost is not None and self._ghost[0] == card else None
        grid.start_placing(card, check, lambda placement: score_gain(area, card, placement, recipe, ingredients),
                           start)
        grid.focus()

    @on(DraftHand.CardChosen)
    def _card_chosen(self, message: DraftHand.CardChosen) -> None:
        """Send the chosen card as your secret pick."""
        message.stop()
        pick = Pick(message.card_id)
        if self.seat is None or pick not in self.legal:
            self.notify("You cannot pick a card now.", severity="error")
            return
        self.post_message(self.ActionChosen(self.seat, pick))

    @on(PotionGrid.Placed)
    def _placed(self, message: PotionGrid.Placed) -> None:
        """Send the placement once the engine lists it as legal."""
        message.stop()
        place = Place(message.placement)
        if self.seat is None or place not in self.legal:
            self.notify("That spot is not allowed now.", severity="error")
            return
        self.query_one(PotionGrid).stop_placing()
        self.post_message(self.ActionChosen(self.seat, place))

    @on(DraftHand.WatchSeat)
    def _watch_seat_asked(self, message: DraftHand.WatchSeat) -> None:
        """Look at another apprentice's potion; back on your own, the ghost comes back."""
        message.stop()
        if self.view is None:
            return
        self.watching = message.seat
        grid = self.query_one(PotionGrid)
        grid.stop_placing()
        self._show_area()
        self.query_one(DraftHand).show(self.view, message.seat)
        me = self.view.me
        if self.seat is not None and message.seat == self.seat and me is not None and me.picked is not None \
                and self.view.stage == "place":
            self._start_placing()

    def action_zoom(self) -> None:
        """Switch the potion between compact and detailed."""
        self.query_one(PotionGrid).action_toggle_zoom()

    def action_pan(self, dx: int, dy: int) -> None:
        """Move the potion's view by one square."""
        self.query_one(PotionGrid).action_pan(dx, dy)

    def action_watch(self, step: int) -> None:
        """Look at the next (``1``) or previous (``-1``) seat's potion."""
        self.query_one(DraftHand).action_watch(step)


def final_scores(view: WitchDraftView) -> list[list[CategoryScore]]:
    """Every seat's eight category scores; recipes are public once the game is over."""
    scores: list[list[CategoryScore]] = []
    for player in view.players:
        if player.recipe is None or player.ingredients is None:
            scores.append([])
            continue
        scores.append(score(area_from_view(player.area), RECIPES_BY_ID[player.recipe],
                            INGREDIENT_CARDS_BY_ID[player.ingredients]))
    return scores


class WitchDraftUI(GameUI[WitchDraftView]):
    """WitchDraft's table and score screen."""

    narration = NARRATION

    def card_index(self) -> Sequence[CardEntry]:
        """Every card of the game, for the card lookup."""
        return lookup.card_index()

    def card_now(self, view: WitchDraftView, seat: int | None, key: str) -> str | None:
        """Where card ``key`` stands in ``seat``'s view, with its current values."""
        return lookup.card_now(view, seat, key)

    def make_table(self) -> WitchDraftTable:
        """A fresh draft table."""
        return WitchDraftTable()

    def game_result(self, view: WitchDraftView, result: Result, events: Sequence[Event]) -> Screen[None]:
        """The category-by-seat score table with the winner or winners."""
        return WitchDraftScoreScreen(view, final_scores(view), result)


