"""Tests of saves/: the session store, tables, decks, preferences, files and damage."""
