"""WitchDraft's wing: its draft table, potion grid, hand and score panels, narration and result screen."""
