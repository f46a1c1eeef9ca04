"""Wizbits Elemenstor Battle: the Pillar-building card duel."""
