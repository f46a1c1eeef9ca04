"""Tests that read the source: layers, import hygiene, the game seam, start-up imports."""
