"""Finding cards by name: folding accents and case, and matching what a player typed.

The card lookup (:mod:`tui.screens.find_card`) lists every game's cards
(:meth:`~tui.games.base.GameUI.card_index`) and keeps those whose name holds
the typed text, or whose words start with each typed word ("lan ow" finds
"Lantern Owl"). "Cindérwing" finds "Cinderwing": accents fold away on both sides.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tui.games.lookup import CardEntry

QUERY_LIMIT = 60
"""The most characters of a query the lookup reads (an Input's own limit; a name is far shorter)."""


@dataclass(frozen=True)
class FoundCard:
    """One card of the lookup's list: its game and its entry."""

    game_id: str
    game_title: str
    entry: CardEntry


def fold(text: str) -> str:
    """``text`` without case, accents or anything but letters, digits and single spaces, for matching."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(char if char.isalnum() else " " for char in decomposed if not unicodedata.combining(char))
    return " ".join(kept.casefold().split())


def rank(query: str, name: str) -> int | None:
    """How well folded ``query`` matches folded ``name``: 0 a start, 1 each word a word's start, 2 inside; None: no match."""
    if not query:
        return 2
    if name.startswith(query):
        return 0
    words = name.split()
    if all(any(word.startswith(part) for word in words) for part in query.split()):
        return 1
    if query in name:
        return 2
    return None


def search(cards: Iterable[FoundCard], typed: str) -> list[FoundCard]:
    """The cards matching ``typed`` (at most :data:`QUERY_LIMIT` characters read), best matches first, then by name."""
    query = fold(typed[:QUERY_LIMIT])
    ranked: list[tuple[int, str, FoundCard]] = []
    for card in cards:
        name = fold(card.entry.name)
        found = rank(query, name)
        if found is not None:
            ranked.append((found, name, card))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [card for _, _, card in ranked]


def every_card(games: Sequence[tuple[str, str, Sequence[CardEntry]]]) -> list[FoundCard]:
    """Each game's entries as :class:`FoundCard` values, from ``(game id, title, entries)``."""
    return [FoundCard(game_id, title, entry) for game_id, title, entries in games for entry in entries]
