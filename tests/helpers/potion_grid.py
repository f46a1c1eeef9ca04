"""Shared by test_potion_grid.py and other test modules, which import them from here.

GridApp, drafted, hand_card, moved here from tests/tui/witchdraft/test_potion_grid.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from engine.witchdraft.bots import normal_bot
from engine.witchdraft.geometry import IllegalPlacement, Placement, PlayArea
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS, WitchDraftRules, area_of
from engine.witchdraft.scoring import score_gain
from engine.witchdraft.state import WitchDraftState
from tui.games.witchdraft.potion_grid import PotionGrid

RULES = WitchDraftRules()
SEED = 11


def drafted(picks: int, seed: int = SEED) -> WitchDraftState:
    """A 2-player game after ``picks`` rounds of normal-bot picks."""
    state = RULES.new_state({}, seed, 2, ["Ana", "Bo"])
    rng = random.Random(seed)
    for _ in range(picks):
        for _stage in ("pick", "place"):
            for seat in (0, 1):
                action = normal_bot(RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
                state, _ = RULES.apply(state, seat, action)
    return state


def callbacks(state: WitchDraftState, seat: int, card_id: str) -> tuple[
        Callable[[Placement], str | None], Callable[[Placement], int]]:
    """``check`` and ``gain`` for placing ``card_id`` in ``seat``'s area, calling the engine."""
    player = state.players[seat]
    area: PlayArea = area_of(player)
    recipe, ingredients = RECIPE_CARDS[player.recipe], INGREDIENT_BY_ID[player.ingredients]

    def check(placement: Placement) -> str | None:
        try:
            area.check(card_id, placement)
        except IllegalPlacement as error:
            return error.reason
        return None

    def gain(placement: Placement) -> int:
        return score_gain(area, card_id, placement, recipe, ingredients)

    return check, gain


def area_rows(state: WitchDraftState, seat: int = 0) -> list[tuple[str, int, int, int]]:
    return [(str(c), int(x), int(y), int(r)) for c, x, y, r in state.players[seat].area]  # type: ignore[call-overload]


class GridApp(App[None]):
    """A 80x24-sized host: the grid (14 rows x 50 columns), a side note and a footer."""

    CSS = """
    #row { height: 14; }
    #grid { width: 50; height: 14; }
    #side { width: 1fr; padding: 0 1; }
    #top { height: 1; padding: 0 1; text-style: bold; }
    """

    def __init__(self, state: WitchDraftState, *, card: str | None = None, start: Placement | None = None,
                 zoom: str = "compact") -> None:
        super().__init__()
        self.state = state
        self.card = card
        self.start = start
        self.zoom = zoom
        self.placed: list[PotionGrid.Placed] = []
        self.statuses: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("Ana's potion", id="top")
        with Horizontal(id="row"):
            yield PotionGrid(area_rows(self.state), zoom=self.zoom, id="grid")
            yield Static("Hand: pick a card, then choose its spot.", id="side")
        yield Footer()

    def on_mount(self) -> None:
        grid = self.query_one(PotionGrid)
        if self.card is not None:
            check, gain = callbacks(self.state, 0, self.card)
            grid.start_placing(self.card, check, gain, self.start)
        grid.focus()

    def on_potion_grid_placed(self, message: PotionGrid.Placed) -> None:
        self.placed.append(message)

    def on_potion_grid_status_changed(self, message: PotionGrid.StatusChanged) -> None:
        self.statuses.append(message.text)


def hand_card(state: WitchDraftState) -> str:
    return state.players[0].hand[0]
