"""WitchDraft: draft companion cards and lay them out to brew the best potion."""
