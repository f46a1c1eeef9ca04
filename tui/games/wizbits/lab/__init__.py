"""The Pillar Lab's screens and widgets."""
