"""Wizbits Elemenstor Battle: the Pillar-building card duel.

Importing the package (or any of its data modules) loads no rules or bots:
:mod:`engine.wizbits.game` registers the game, and :func:`engine.get_game`
imports it on first use.
"""
