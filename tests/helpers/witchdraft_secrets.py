"""What one WitchDraft seat must never see of another's: names computed from the engine's state and its views."""

from __future__ import annotations

from engine.witchdraft.cards import CARDS, INGREDIENT_CARDS_BY_ID, RECIPES_BY_ID
from engine.witchdraft.game import RULES
from engine.witchdraft.state import WitchDraftState


def card_name(card_id: str) -> str:
    """The display name of any WitchDraft card: a companion, a recipe or an ingredient card."""
    if card_id in CARDS:
        return CARDS[card_id].name
    if card_id in RECIPES_BY_ID:
        return RECIPES_BY_ID[card_id].name
    return INGREDIENT_CARDS_BY_ID[card_id].name


def visible_to(state: WitchDraftState, viewer: int) -> set[str]:
    """The ids of every card ``viewer``'s view shows: its own hand and secrets, the picks, every potion."""
    view = RULES.view(state, viewer)
    shown: set[str] = set()
    for player in view.players:
        shown.update(placed[0] for placed in player.area)
        shown.update(card for card in (*(player.hand or ()), player.pending, player.picked, player.recipe,
                                       player.ingredients) if card is not None)
    return shown


def secret_names(state: WitchDraftState, viewer: int) -> set[str]:
    """Names of the cards the other seats hold that ``viewer``'s view hides: their hands, secret picks, recipes
    and ingredient cards (all shown once the game is over, or played face up)."""
    shown = visible_to(state, viewer)
    hidden: set[str] = set()
    for seat, player in enumerate(state.players):
        if seat == viewer:
            continue
        cards = [*player.hand, player.pending, player.recipe, player.ingredients]
        hidden.update(card_name(card) for card in cards if card is not None and card not in shown)
    return hidden

