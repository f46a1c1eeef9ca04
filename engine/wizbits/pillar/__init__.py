"""The Pillar: its units, the tree, its JSON form, its sentences and its restoring from a save."""
