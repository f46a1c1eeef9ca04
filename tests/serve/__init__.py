"""Tests that run ``coven serve`` or talk to it over SSH (tui/server)."""
