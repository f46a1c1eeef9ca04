"""`coven bench` runs on every registered game and prints its figures."""

from __future__ import annotations

import pytest

from tui.cli import main


@pytest.mark.parametrize("game_id,extra", [("wizards-cup", None), ("witchdraft", "placements + gains")])
def test_bench_prints_figures(game_id: str, extra: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", game_id, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "normal bot decision" in out
    if extra:
        assert extra in out
