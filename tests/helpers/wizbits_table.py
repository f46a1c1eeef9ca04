"""A hand-built Wizbits table for effect tests: put cards where a test needs them, then take the state."""

from __future__ import annotations

from typing import Any

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.model import Card
from engine.wizbits.pillar.tree import Pillar
from engine.wizbits.state import Permanent, PlayerState, WizbitsState

# Plain Main Characters: no Continue, Trigger-Continue or flip abilities of their own.
MAIN_0 = "dawnfly-oracle"  # S d6, W d8, M d8, SCN 7
MAIN_1 = "tidewhisper-sage"  # S d6, W d8, M d10, SCN 9


class Table:
    """Builds a :class:`WizbitsState` card by card; both Main Characters start in play."""

    def __init__(self, seed: int = 7, main_0: str = MAIN_0, main_1: str = MAIN_1) -> None:
        self.cards: list[str] = []
        self.owners: list[int] = []
        self.players = [PlayerState("Ana", "test", -1), PlayerState("Bo", "test", -1)]
        self.seed = seed
        self.players[0].main = self.put(main_0, 0)
        self.players[1].main = self.put(main_1, 1)
        self.state = WizbitsState(seed, "limited", 1, self.cards, self.owners, self.players, 0, 0)
        self.state.pillar = Pillar.open()

    def put(self, card_id: str, seat: int, zone: str = "play", **perm: Any) -> int:
        """Add a card instance to ``zone`` (play, hand, deck top, discard or none for the Pillar); return its iid."""
        assert card_id in CARDS_BY_ID, card_id
        iid = len(self.cards)
        self.cards.append(card_id)
        self.owners.append(seat)
        player = self.players[seat]
        if zone == "play":
            player.in_play.append(Permanent(iid, seat, **perm))
        elif zone == "hand":
            player.hand.append(iid)
        elif zone == "deck":
            player.deck.append(iid)
        elif zone == "discard":
            player.discard.append(iid)
        else:
            assert zone == "none"
        return iid

    def perm(self, iid: int) -> Permanent:
        """The card ``iid`` in play (fails the test if it is not)."""
        found = self.state.permanent(iid)
        assert found is not None, f"{iid} is not in play"
        return found

    @property
    def main_0(self) -> int:
        return self.players[0].main

    @property
    def main_1(self) -> int:
        return self.players[1].main


def zone_of(state: WizbitsState, iid: int) -> str:
    """Where a card is: play, hand, deck, discard, or none (on the Pillar). Fails if it is in two places."""
    player = state.players[state.owner(iid)]
    places = [name for name, cards in (("hand", player.hand), ("deck", player.deck), ("discard", player.discard))
              if iid in cards]
    if player.permanent(iid) is not None:
        places.append("play")
    assert len(places) <= 1, f"{iid} is in {places}"
    return places[0] if places else "none"


def register(monkeypatch: Any, card: Card) -> str:
    """Make a test-only card known to the state for one test; return its id."""
    monkeypatch.setitem(CARDS_BY_ID, card.card_id, card)
    return card.card_id
