"""Tests of the ``coven`` command line (tui/cli)."""
