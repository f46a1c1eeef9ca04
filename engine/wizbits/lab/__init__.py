"""The Pillar Lab's engine side: scenarios as values and JSON, set-ups, and resolution through the game's rules."""
