"""`coven simulate --deck-1 NAME|FILE`: starters, saved decks and deck files, which wins, and clear refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist
from saves import SessionStore
from saves.decks import DeckStore
from tui import cli
from tui.cli import main

EMBERS = decklist(STARTER_DECKS["ember-dawn"].deck, "Embers")
TIDES = decklist(STARTER_DECKS["tidal-dusk"].deck, "Tides")


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, object]]:
    """The options each simulation ran with (the games themselves are not played), in a working directory of its own."""
    import tui.cli.simulate

    runs: list[dict[str, object]] = []

    def fake_run(spec: Any, games: int, bots: Any, seed: int, options: dict[str, object] | None = None,
                 shown: Any = None) -> int:
        runs.append(dict(options or {}))
        return 0

    monkeypatch.setattr(tui.cli.simulate, "run", fake_run)
    monkeypatch.chdir(tmp_path)
    return runs


def save_deck(name: str, text: str) -> None:
    with SessionStore() as store:
        DeckStore(store).save_deck(name, text)


def errors(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Unexpected error" not in err
    return err


def test_a_saved_deck_by_name_and_a_starter_by_id(played: list[dict[str, object]]) -> None:
    save_deck("Bright Embers", EMBERS)
    assert main(["simulate", "wizbits", "--games", "1", "--deck-1", "Bright Embers", "--deck-2", "tidal-dusk"]) == 0
    assert played == [{"deck_1": EMBERS, "deck_2": "tidal-dusk"}]


def test_a_deck_file_relative_to_the_working_directory(played: list[dict[str, object]], tmp_path: Path) -> None:
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "tides.txt").write_text(TIDES, encoding="utf-8")
    (tmp_path / "embers.txt").write_text(EMBERS, encoding="utf-8")
    assert main(["simulate", "wizbits", "--games", "1", "--deck-1", "decks/tides.txt",
                 "--deck-2", "embers.txt"]) == 0
    assert played == [{"deck_1": TIDES, "deck_2": EMBERS}]


def test_a_saved_name_wins_over_a_file_of_the_same_spelling(played: list[dict[str, object]], tmp_path: Path) -> None:
    save_deck("mine", EMBERS)
    (tmp_path / "mine").write_text(TIDES, encoding="utf-8")
    assert main(["simulate", "wizbits", "--games", "1", "--deck-1", "mine"]) == 0
    assert main(["simulate", "wizbits", "--games", "1", "--deck-1", "./mine"]) == 0
    assert [run["deck_1"] for run in played] == [EMBERS, TIDES]


def test_the_rule_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--deck-1 NAME|FILE" in text and "--deck-2 NAME|FILE" in text
    assert "A saved deck wins over a file of the same spelling" in text and "(./NAME)" in text


def test_an_unknown_name_says_what_it_looked_for(played: list[dict[str, object]], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    save_deck("Bright Embers", EMBERS)
    assert main(["simulate", "wizbits", "--deck-2", "nope"]) == 2
    err = errors(capsys)
    assert "--deck-2: no deck is called 'nope'" in err and f"no file {tmp_path / 'nope'}" in err
    assert "ember-dawn, tidal-dusk" in err and "Bright Embers" in err
    assert played == []


def test_an_unreadable_file_is_named_whole(played: list[dict[str, object]], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "folder").mkdir()
    assert main(["simulate", "wizbits", "--deck-1", "./folder"]) == 2
    assert f"--deck-1: {tmp_path / 'folder'}" in errors(capsys)
    assert main(["simulate", "wizbits", "--deck-1", "./missing.txt"]) == 2
    assert str(tmp_path / "missing.txt") in errors(capsys)
    (tmp_path / "binary.txt").write_bytes(b"\xff\xfe\x00")
    assert main(["simulate", "wizbits", "--deck-1", "binary.txt"]) == 2
    assert str(tmp_path / "binary.txt") in errors(capsys)
    assert played == []


def test_a_bad_list_lists_every_problem(played: list[dict[str, object]], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.txt").write_text("4 Not A Card\n3 Nor This\n", encoding="utf-8")
    assert main(["simulate", "wizbits", "--deck-1", "bad.txt"]) == 2
    err = errors(capsys)
    assert f"--deck-1: {tmp_path / 'bad.txt'} is not a legal deck list:" in err
    assert "line 1: unknown card 'Not A Card'" in err and "line 2: unknown card 'Nor This'" in err
    assert played == []


def test_decks_only_where_the_game_has_them_and_only_once(played: list[dict[str, object]],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "witchdraft", "--games", "1", "--deck-1", "ember-dawn"]) == 2
    assert "--deck-1: WitchDraft has no seat 1 deck" in errors(capsys)
    assert main(["simulate", "wizbits", "--deck-1", "ember-dawn", "--option", "deck_1=tidal-dusk"]) == 2
    assert "given twice" in errors(capsys)
    assert main(["simulate", "wizbits", "--deck-1", "  "]) == 2
    assert "--deck-1 needs a deck" in errors(capsys)
    assert played == []


def test_a_real_game_with_a_saved_deck(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    save_deck("Bright Embers", EMBERS)
    assert main(["simulate", "wizbits", "--games", "1", "--deck-1", "bright embers"]) == 0
    out = capsys.readouterr().out
    assert ": 1 game, seed 0" in out
    assert "options: deck_1=saved deck 'Bright Embers'" in out and "# Embers" not in out  # named, not printed
