"""coven ladder: seat-mirrored pairings, Wilson intervals and an Elo fit, with few games."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tui.cli.ladder as ladder_module
from engine import GameSpec, Result
from tui.cli import main
from tui.cli.ladder import Pairing, elo_ratings, play_pairing, wilson_interval
from tui.cli.ladder_command import README_END, README_START, game_markers


def test_wilson_intervals_match_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    assert wilson_interval(0, 10)[0] == 0.0 and round(wilson_interval(0, 10)[1], 3) == 0.278
    assert round(wilson_interval(10, 10)[0], 3) == 0.722 and round(wilson_interval(10, 10)[1], 9) == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_follows_the_scores_and_anchors_the_first_level() -> None:
    ratings = elo_ratings(["easy", "normal", "hard"], [
        Pairing("easy", "normal", 100, 30), Pairing("easy", "hard", 100, 5), Pairing("normal", "hard", 100, 20)])
    assert ratings["easy"] == 1000.0
    assert ratings["easy"] < ratings["normal"] < ratings["hard"]
    even = elo_ratings(["a", "b"], [Pairing("a", "b", 50, 25)])
    assert abs(even["b"] - even["a"]) < 1e-6
    never = elo_ratings(["a", "b"], [Pairing("a", "b", 20, 0)])  # a never scores: still a finite rating
    assert 1000 < never["b"] < 2000


def test_each_seed_is_played_with_both_seatings(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[tuple[int, list[str]]] = []

    def seat_one_always_wins(spec: Any, seed: int, levels: list[str]) -> tuple[Any, int]:
        played.append((seed, list(levels)))
        return "final", 10

    monkeypatch.setattr(ladder_module, "play_game", seat_one_always_wins)
    spec = SimpleNamespace(rules=SimpleNamespace(result=lambda state: Result((0,), "seat 1 wins")))
    pairing = play_pairing(spec, "easy", "hard", 6, seed=40)  # type: ignore[arg-type]
    assert played == [(40, ["easy", "hard"]), (40, ["hard", "easy"]), (41, ["easy", "hard"]),
                      (41, ["hard", "easy"]), (42, ["easy", "hard"]), (42, ["hard", "easy"])]
    assert pairing.points == 3 and pairing.rate == 0.5  # the seat's edge cancels out


def test_the_command_prints_pairings_and_elo(fake_spec: GameSpec, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", fake_spec.game_id, "--games", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "easy vs hard" in out and "of 4 games (95% interval" in out and "Elo: " in out
    assert main(["ladder", fake_spec.game_id, "--games", "3"]) == 2
    assert main(["ladder", "no-such-game"]) == 2
    assert "even number" in capsys.readouterr().err


def test_the_readme_block_is_rewritten_one_game_at_a_time(fake_spec: GameSpec, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    other_start, other_end = game_markers("some-other-game")
    readme.write_text(f"# Title\n\n{README_START}\nold\n{other_start}\nkept 7%\n{other_end}\n{README_END}\n\nmore\n")
    assert main(["ladder", fake_spec.game_id, "--games", "2", "--readme", str(readme)]) == 0
    first = readme.read_text()
    assert "| easy vs hard | 2 |" in first and f"`coven ladder {fake_spec.game_id} --games 2 --seed 1`" in first
    assert f"{other_start}\nkept 7%\n{other_end}" in first  # a game not played keeps its tables
    assert first.startswith(f"# Title\n\n{README_START}") and first.endswith(f"{README_END}\n\nmore\n")

    assert main(["ladder", fake_spec.game_id, "--games", "4", "--seed", "3", "--readme", str(readme)]) == 0
    second = readme.read_text()
    start, end = game_markers(fake_spec.game_id)
    assert second.count(start) == 1 and second.count(end) == 1  # rewritten in place, not added again
    assert "| easy vs hard | 4 |" in second and "| easy vs hard | 2 |" not in second
    assert f"{other_start}\nkept 7%\n{other_end}" in second

    plain = tmp_path / "plain.md"
    plain.write_text("no markers\n")
    assert main(["ladder", fake_spec.game_id, "--games", "2", "--readme", str(plain)]) == 1
    assert plain.read_text() == "no markers\n"


@pytest.mark.parametrize("kind", ["missing", "folder", "no markers", "not text"])
def test_a_bad_readme_is_refused_before_any_game_is_played(
    kind: str, fake_spec: GameSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    played: list[int] = []

    def counted(spec: Any, seed: int, levels: list[str]) -> tuple[Any, int]:
        played.append(seed)
        return "final", 10

    monkeypatch.setattr(ladder_module, "play_game", counted)
    readme = tmp_path / "README.md"
    if kind == "folder":
        readme.mkdir()
    elif kind == "no markers":
        readme.write_text("no markers\n")
    elif kind == "not text":
        readme.write_bytes(b"\x00\xff" + README_START.encode() + README_END.encode())
    assert main(["ladder", fake_spec.game_id, "--games", "2", "--readme", str(readme)]) == 1
    err = capsys.readouterr().err
    assert played == []
    assert err.startswith("coven ladder: ") and str(readme) in err and len(err.splitlines()) == 1
    assert "Errno" not in err and "Traceback" not in err


def test_every_help_text_shows_a_percent_sign_once(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import build_parser

    commands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    for name in commands.choices:
        assert main([name, "--help"]) == 0
        out = capsys.readouterr().out
        assert "%%" not in out, (name, out)
    assert main(["ladder", "--help"]) == 0
    assert "95% interval" in " ".join(capsys.readouterr().out.split())
