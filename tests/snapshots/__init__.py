"""Snapshot tests: each module's SVGs live in __snapshots__/<module name>/ beside it."""
