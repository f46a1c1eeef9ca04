"""Wizards Cup: pick a team of six, order five, watch the duels.

Importing the package (or any of its data modules) loads no rules or bots:
:mod:`engine.wizards_cup.game` registers the game, and :func:`engine.get_game`
imports it on first use.
"""
