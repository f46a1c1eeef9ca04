"""Tests of the WitchDraft wing (tui/games/witchdraft)."""
