"""The Wizbits deck tools: the deck editor, its card pool and deck list, and the deck picker."""
