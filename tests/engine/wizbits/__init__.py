"""Tests of engine/wizbits: cards, the Pillar, effects, rules, bots and the Lab engine."""
