"""Tests of the Wizards Cup wing (tui/games/wizards_cup)."""
