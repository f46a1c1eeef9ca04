"""The Fly: Step Forward card set as data: every card by family, look-ups, and the two starter decks."""
