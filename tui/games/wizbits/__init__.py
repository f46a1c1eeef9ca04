"""Wizbits' wing: the battlefield table, its panels and dialogs, with the pillar tree, the deck tools and the Pillar Lab."""
