"""Tests of engine/wizards_cup: rules, duels, bots and the coach's numbers."""
