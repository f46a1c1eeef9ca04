"""Tests of the Wizbits wing (tui/games/wizbits): battlefield, pillar tree, Lab and deck editor."""
