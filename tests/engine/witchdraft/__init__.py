"""Tests of engine/witchdraft: cards, geometry, the draft, scoring and bots."""
