"""Shared fixtures. Every test gets its own data directory, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import GameSpec, register
from engine.core import registry


@pytest.fixture(autouse=True)
def coven_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point COVEN_DATA_DIR at a fresh temporary folder for every test."""
    path = tmp_path / "coven-data"
    monkeypatch.setenv("COVEN_DATA_DIR", str(path))
    # The new-game form suggests the login name; make it the same on every machine.
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(variable, "ana")
    return path


@pytest.fixture
def fake_spec() -> Iterator[GameSpec]:
    """Register the test-only "count-to-ten" game for one test."""
    from fake_game import SPEC

    register(SPEC)
    yield SPEC
    # The registry has no public unregister; drop it so other tests' game lists stay real.
    registry._REGISTRY.pop(SPEC.game_id, None)
