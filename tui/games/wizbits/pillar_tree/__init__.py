"""The pillar tree widget: the Pillar drawn as a tree to build on and step through."""
