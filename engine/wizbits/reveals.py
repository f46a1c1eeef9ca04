"""What a Wizbits action made known, for the undo rule: a move that showed a hidden card stays.

Knowledge is read from the views (:func:`engine.wizbits.views.make_view`):
the cards a seat, or a spectator, can identify. Any card someone identifies
after an action but not before it was revealed by that action, unless the
mover already knew it (their own hand: playing a card from it, and taking
that back, shows nothing the mover did not choose to show). So a draw is
seen however the hand's size moves (Prism Kite seceded to pay draws one
card as another leaves the hand), and so is a payment from the deck, a mill,
a search or a card taken from the other player's hand. Anything left to
chance (a roll, a shuffle, a random discard) and any reordering of a deck,
whose order nobody sees, stays as well.

Sessions begun under rules versions 1 and 2 replay under the rule they were
played with (:func:`hand_growth_barrier`), so their undos stay valid.
"""

from __future__ import annotations

from engine.wizbits.state import REVEALS_END_UNDO, WizbitsState
from engine.wizbits.views import make_view

OBSERVERS: tuple[int | None, ...] = (0, 1, None)
"""Everyone whose knowledge counts: both seats and a spectator."""

# The reasons are shown after "Undo: " in the Footer, so each stays as short as the core rule's own.
DRAWN = "a card was drawn"
SHOWN_FROM_DECK = "deck cards were shown"
SHOWN_FROM_HAND = "a hand card was shown"
SHOWN = "a hidden card was shown"
CHANCE = "chance has played a part"
REORDERED = "a deck was reordered"
REASONS = (DRAWN, SHOWN_FROM_DECK, SHOWN_FROM_HAND, SHOWN, CHANCE, REORDERED)
"""Every reason this barrier gives."""


def known_cards(state: WizbitsState, observer: int | None) -> frozenset[int]:
    """The card instances ``observer`` (a seat, or None for a spectator) can identify in ``state``."""
    return frozenset(make_view(state, observer).cards)


def revealed_cards(before: WizbitsState, after: WizbitsState, mover: int) -> frozenset[int]:
    """The cards someone identifies after the mover's action and not before, the mover's own knowledge aside."""
    newly_known: set[int] = set()
    for observer in OBSERVERS:
        newly_known |= known_cards(after, observer) - known_cards(before, observer)
    return frozenset(newly_known - known_cards(before, mover))


def _zone(state: WizbitsState, iid: int) -> str:
    for player in state.players:
        if iid in player.deck:
            return "deck"
        if iid in player.hand:
            return "hand"
    return "open"


def _why_shown(before: WizbitsState, after: WizbitsState, revealed: frozenset[int]) -> str:
    came_from = {iid: _zone(before, iid) for iid in revealed}
    if any(came_from[iid] == "deck" and _zone(after, iid) == "hand" for iid in revealed):
        return DRAWN
    if "deck" in came_from.values():
        return SHOWN_FROM_DECK
    if "hand" in came_from.values():
        return SHOWN_FROM_HAND
    return SHOWN


def _deck_reordered(before: WizbitsState, after: WizbitsState) -> bool:
    for now, then in zip(after.players, before.players, strict=True):
        remaining = set(now.deck)
        if [iid for iid in then.deck if iid in remaining] != now.deck:
            return True
    return False


def reveal_barrier(before: WizbitsState, after: WizbitsState, mover: int) -> str | None:
    """Why the mover's action from ``before`` to ``after`` may not be taken back, in a few words, or None.

    A revealed card comes first (what was shown, and from where), then chance,
    then a deck in a new order.
    """
    revealed = revealed_cards(before, after, mover)
    if revealed:
        return _why_shown(before, after, revealed)
    if after.rolls != before.rolls:
        return CHANCE
    if _deck_reordered(before, after):
        return REORDERED
    return None


def hand_growth_barrier(before: WizbitsState, after: WizbitsState) -> str | None:
    """The undo barrier of rules versions 1 and 2: chance, or a hand that grew (it missed draws that kept a hand's size)."""
    if after.rolls != before.rolls:
        return CHANCE
    if any(len(now.hand) > len(then.hand) for now, then in zip(after.players, before.players, strict=True)):
        return DRAWN
    return None


def undo_barrier(before: WizbitsState, after: WizbitsState, mover: int) -> str | None:
    """The barrier of the rules version ``before`` is played under (see :data:`REVEALS_END_UNDO`)."""
    if before.rules_version < REVEALS_END_UNDO:
        return hand_growth_barrier(before, after)
    return reveal_barrier(before, after, mover)
