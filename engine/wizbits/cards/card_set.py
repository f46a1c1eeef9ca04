"""The Fly: Step Forward set: every card, and look-ups by id and by name.

The cards themselves are data in :mod:`engine.wizbits.cards.characters`,
:mod:`engine.wizbits.cards.elements` and :mod:`engine.wizbits.cards.non_elements`.
"""

from __future__ import annotations

from engine.wizbits.cards.characters import CHARACTERS
from engine.wizbits.cards.elements import ELEMENTS
from engine.wizbits.cards.non_elements import NON_ELEMENTS
from engine.wizbits.model import Card

SET_NAME = "Fly: Step Forward"

CARDS: tuple[Card, ...] = CHARACTERS + ELEMENTS + NON_ELEMENTS
"""Every card of the set: Characters, then Elements, then Non-Elements."""

CARDS_BY_ID: dict[str, Card] = {card.card_id: card for card in CARDS}
"""Every card by its id."""

_BY_NAME: dict[str, Card] = {" ".join(card.name.lower().split()): card for card in CARDS}

# A repeated id or name would make saves or deck lists ambiguous; fail at import, not in play.
if len(CARDS_BY_ID) != len(CARDS) or len(_BY_NAME) != len(CARDS):
    raise ValueError("card ids and names must be unique in the set")


def card_by_name(name: str) -> Card | None:
    """Return the card with this name, ignoring letter case and extra spaces, or None."""
    return _BY_NAME.get(" ".join(name.lower().split()))


__all__ = ["CARDS", "CARDS_BY_ID", "CHARACTERS", "ELEMENTS", "NON_ELEMENTS", "SET_NAME", "card_by_name"]
