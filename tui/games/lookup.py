"""What a game tells the card lookup: every card a player can meet, and where one stands in play.

A game's :class:`~tui.games.base.GameUI` answers :meth:`~tui.games.base.GameUI.card_index`
with :class:`CardEntry` values and :meth:`~tui.games.base.GameUI.card_now` with a card's
current values, read from one seat's view; the lookup dialog (:mod:`tui.screens.find_card`)
never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardEntry:
    """One card as the lookup lists and shows it.

    Attributes:
        key: The card's id, unique within its game (what :meth:`GameUI.card_now` is asked about).
        name: The printed name, searched and listed.
        kind: What sort of card it is ("wizard", "companion", "Character"...).
        text: The whole card as plain text: every printed value and ability, one idea a line.
    """

    key: str
    name: str
    kind: str
    text: str
