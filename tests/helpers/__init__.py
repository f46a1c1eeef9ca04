"""Shared test helpers: fakes, harnesses, waiting and SSH/pty clients (imported as ``tests.helpers.<module>``)."""
