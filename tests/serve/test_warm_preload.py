"""What the warm parent builds before it forks, so that every seat shares it."""

from __future__ import annotations

import pytest

import engine.wizards_cup.round_matrix
from tui.server import warm


def test_the_warm_parent_builds_the_wizards_cup_duel_tables_before_any_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    prepared: list[bool] = []
    monkeypatch.setattr(engine.wizards_cup.round_matrix, "prepare", lambda: prepared.append(True))
    assert "numpy" in warm.preload()
    assert prepared == [True]
