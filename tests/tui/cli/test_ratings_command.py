"""``coven ratings [GAME]``: players by conservative estimate with their games; hostile and damaged rows."""

from __future__ import annotations

import pytest

from saves import SessionStore
from tui.cli import main

ROWS = [
    # account, game, mu, sigma, games: Cy has the highest mu but the least certain one.
    ("Ana", "witchdraft", 30.0, 2.0, 12),
    ("Bea", "witchdraft", 27.0, 1.0, 30),
    ("Cy", "witchdraft", 34.0, 6.0, 2),
    ("Dee", "wizards-cup", 25.0, 8.0, 1),
]


def write(rows: list[tuple[object, ...]]) -> None:
    with SessionStore() as store, store._write() as conn:
        conn.executemany(
            "INSERT INTO ratings (account, game_id, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, ?)",
            [(*row, "2026-12-07T03:00:00+00:00") for row in rows],
        )


def players(out: str) -> list[tuple[str, str]]:
    """(account, games) of each listed line, top to bottom."""
    rows = [line.split() for line in out.splitlines() if line[:3].strip().isdigit()]
    return [(row[1], row[-1]) for row in rows]


def test_players_are_listed_by_mu_minus_three_sigma_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    write(ROWS)
    assert main(["ratings", "witchdraft"]) == 0
    out = capsys.readouterr().out
    assert "WitchDraft" in out and "Dee" not in out
    assert players(out) == [("Bea", "30"), ("Ana", "12"), ("Cy", "2")]  # 24.0, 24.0 (more games first), 16.0
    assert "24.0" in out and "16.0" in out
    assert main(["ratings"]) == 0
    every = capsys.readouterr().out
    assert players(every) == [("Dee", "1"), ("Bea", "30"), ("Ana", "12"), ("Cy", "2")]  # each game its own list
    assert every.index("Wizards Cup") < every.index("Dee") < every.index("WitchDraft") < every.index("Bea")


def test_no_ratings_yet_and_an_unknown_game_are_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings"]) == 0
    assert "Nobody is rated yet" in capsys.readouterr().out
    assert main(["ratings", "chess"]) == 2
    assert "Unknown game 'chess'" in capsys.readouterr().err


def test_an_account_name_of_64_characters_is_listed_and_a_longer_one_is_damaged(
        capsys: pytest.CaptureFixture[str]) -> None:
    write([("k" * 64, "wizbits", 30.0, 1.0, 5), ("l" * 65, "wizbits", 30.0, 1.0, 5)])
    assert main(["ratings", "wizbits"]) == 0
    out = capsys.readouterr()
    assert players(out.out) == [("k" * 64, "5")] and "1 damaged rating row was skipped" in out.err


def test_account_names_are_plain_text_and_damaged_rows_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    write([
        ("[bold red]Eve[/]", "witchdraft", 30.0, 1.0, 5),  # markup: shown as typed
        ("Mal\x1b[2J", "witchdraft", 40.0, 1.0, 5),  # a terminal control: never shown
        ("Nan", "witchdraft", 30.0, -1.0, 5),  # no uncertainty below zero
        ("Odd", "witchdraft", "thirty", 1.0, 5),
        ("Gone", "chess", 30.0, 1.0, 5),  # a game this Coven does not know
        ("Neg", "witchdraft", 30.0, 1.0, -4),
    ])
    assert main(["ratings", "witchdraft"]) == 0
    out = capsys.readouterr()
    assert "[bold red]Eve[/]" in out.out and "\x1b" not in out.out
    assert [name for name, _ in players(out.out)] == ["[bold"]  # the one readable row
    assert "4 damaged rating rows were skipped" in out.err  # chess's is no WitchDraft row
    assert main(["ratings"]) == 0
    assert "5 damaged rating rows were skipped" in capsys.readouterr().err
