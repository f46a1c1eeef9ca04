"""Shared by test_decks_store.py and other test modules, which import them from here.

EMBER_TEXT, moved here from tests/saves/test_decks_store.py.
"""

from __future__ import annotations

from engine.wizbits.cards.starter_decks import EMBER_DAWN
from engine.wizbits.decklist import decklist

EMBER_TEXT = decklist(EMBER_DAWN.deck, "Ember Dawn")
