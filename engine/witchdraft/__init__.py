"""WitchDraft: draft companion cards into a potion grid and score 8 categories.

Importing the package (or any of its data modules) loads no rules or bots:
:mod:`engine.witchdraft.game` registers the game, and :func:`engine.get_game`
imports it on first use.
"""
