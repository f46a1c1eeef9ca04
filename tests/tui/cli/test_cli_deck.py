"""``coven deck ...`` driven through ``tui.cli.main`` with files in a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.wizbits.cards.starter_decks import EMBER_DAWN, TIDAL_DUSK
from engine.wizbits.decklist import decklist, parse_decklist
from saves import SessionStore
from saves.decks import MAX_DECK_BYTES, DeckStore
from tui.cli import main

EMBER_TEXT = decklist(EMBER_DAWN.deck, "Ember Dawn")


def write(tmp_path: Path, text: str, name: str = "deck.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


def saved_names() -> list[str]:
    with SessionStore() as store:
        return [deck.name for deck in DeckStore(store).list_decks()]


# -- check ----------------------------------------------------------------------------


def test_check_a_legal_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", write(tmp_path, decklist(TIDAL_DUSK.deck))]) == 0
    assert capsys.readouterr().out == "OK: 60 cards, Main Character Tidewhisper Sage\n"


def test_check_prints_each_problem_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "# draft\n4 Emberbeetle Squire *\n4 Fireball\nfour Flickerwand\n2 Prism Kite\n"
    assert main(["deck", "check", write(tmp_path, text)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "line 3: unknown card 'Fireball'",
        "line 4: expected a count and a card name, like \"4 Card Name\": 'four Flickerwand'",
    ]
    assert captured.err == ""


@pytest.mark.parametrize("refused", ["\x0c", "\u2028", "\x1b[31m"])
def test_a_refused_character_hides_no_other_problem(
    refused: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["# draft", "4 Fireball", f"4 Emberbeetle Squire{refused}", "9 Prism Kite", "four Flickerwand"]
    assert main(["deck", "check", write(tmp_path, "\n".join(lines) + "\n")]) == 1
    out = capsys.readouterr().out.splitlines()
    # Every faulty line is reported, in line order, each once; the deck-wide rules wait for readable lines.
    assert [line.split(":", 1)[0] for line in out] == ["line 2", "line 3", "line 4", "line 5"]
    assert out[0] == "line 2: unknown card 'Fireball'" and out[2] == "line 4: count must be 1-4"
    assert "plain text" in out[1] or "not a line break" in out[1]


def test_check_reports_the_deck_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = EMBER_TEXT.replace(" *", "").replace("4 Prism Kite", "2 Prism Kite")
    assert main(["deck", "check", write(tmp_path, text)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "the deck has 58 cards; it needs at least 60",
        "no Main Character is marked",
    ]


def test_check_refuses_escape_sequences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", write(tmp_path, EMBER_TEXT + "# \x1b[2J\n")]) == 1
    assert capsys.readouterr().out == f"line {EMBER_TEXT.count(chr(10)) + 1}: a control character; a deck list is plain text\n"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "Could not read"),
        (lambda p: p.mkdir(), "is not a regular file"),
        (lambda p: p.write_bytes(bytes(range(256)) * 4), "is not a text file"),
        (lambda p: p.write_text("# big\n" * MAX_DECK_BYTES), "is too large to be a deck list"),
        (lambda p: os.mkfifo(p), "is not a regular file"),
    ],
    ids=["missing", "directory", "binary", "huge", "pipe"],
)
def test_check_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, message: str) -> None:
    path = tmp_path / "deck.txt"
    make(path)  # type: ignore[operator]
    assert main(["deck", "check", str(path)]) == 2
    assert message in one_line_error(capsys)
    assert capsys.readouterr().out == ""


# -- the saved decks --------------------------------------------------------------------


def test_save_list_show_rename_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EMBER_TEXT)
    assert main(["deck", "save", "Fire Rush", path]) == 0
    assert capsys.readouterr().out == "Saved deck 'Fire Rush': 60 cards, Main Character Cinderwing Archmage.\n"
    assert main(["deck", "save", "Dusk", write(tmp_path, decklist(TIDAL_DUSK.deck), "dusk.txt")]) == 0
    capsys.readouterr()

    assert main(["deck", "list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Dusk       60 cards, Main Character Tidewhisper Sage",
        "Fire Rush  60 cards, Main Character Cinderwing Archmage",
    ]
    assert main(["deck", "show", "fire rush"]) == 0
    assert capsys.readouterr().out == EMBER_TEXT

    assert main(["deck", "rename", "Fire Rush", "Ember"]) == 0
    assert main(["deck", "delete", "dusk"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Renamed deck 'Fire Rush' to 'Ember'.", "Deleted deck 'Dusk'."]
    assert saved_names() == ["Ember"]


def test_save_refuses_an_illegal_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, EMBER_TEXT.replace("4 Flickerwand", "4 Fireball"))
    assert main(["deck", "save", "Mine", path]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"line {EMBER_TEXT.splitlines().index('4 Flickerwand') + 1}: unknown card 'Fireball'\n"
    assert "nothing was saved" in captured.err
    assert saved_names() == []


def test_save_keeps_a_taken_name_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "save", "Mine", write(tmp_path, EMBER_TEXT)]) == 0
    other = write(tmp_path, decklist(TIDAL_DUSK.deck), "dusk.txt")
    assert main(["deck", "save", "MINE", other]) == 1
    assert "already saved" in one_line_error(capsys)
    assert main(["deck", "save", "MINE", other, "--force"]) == 0
    with SessionStore() as store:
        assert parse_decklist(DeckStore(store).load_deck("Mine").text) == TIDAL_DUSK.deck


def test_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list"]) == 0
    assert "No saved decks yet" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["deck", "show", "Nope"], ["deck", "delete", "Nope"], ["deck", "rename", "Nope", "Other"]],
    ids=["show", "delete", "rename"],
)
def test_unknown_deck(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 1
    assert one_line_error(capsys) == "coven: There is no saved deck named 'Nope'."


def test_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "save", "   ", write(tmp_path, EMBER_TEXT)]) == 1
    assert "must not be blank" in one_line_error(capsys)


def test_save_from_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "save", "Mine", str(tmp_path / "missing.txt")]) == 2
    assert "Could not read" in one_line_error(capsys)
    assert saved_names() == []


# -- starter templates ------------------------------------------------------------------


def test_export_starter_writes_a_list_that_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "dusk.txt"
    assert main(["deck", "export-starter", "tidal-dusk", str(target)]) == 0
    assert parse_decklist(target.read_text(encoding="utf-8")) == TIDAL_DUSK.deck
    assert target.read_text(encoding="utf-8").startswith("# Tidal Dusk\n")
    capsys.readouterr()
    assert main(["deck", "check", str(target)]) == 0


def test_export_starter_never_replaces_unasked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("mine", encoding="utf-8")
    assert main(["deck", "export-starter", "ember-dawn", str(target)]) == 1
    assert "already exists" in one_line_error(capsys)
    assert target.read_text(encoding="utf-8") == "mine"
    assert main(["deck", "export-starter", "ember-dawn", str(target), "--force"]) == 0
    assert parse_decklist(target.read_text(encoding="utf-8")) == EMBER_DAWN.deck


def test_export_starter_unknown_id_or_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "export-starter", "nope", str(tmp_path / "x.txt")]) == 2
    assert "Starter decks: ember-dawn, tidal-dusk" in one_line_error(capsys)
    assert main(["deck", "export-starter", "ember-dawn", str(tmp_path / "no" / "x.txt")]) == 1
    assert "Could not write" in one_line_error(capsys)


def test_deck_alone_shows_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck"]) == 2
    out = capsys.readouterr().out
    for command in ("check", "list", "save", "show", "rename", "delete", "export-starter"):
        assert command in out


def test_list_flags_a_saved_list_that_no_longer_checks(capsys: pytest.CaptureFixture[str]) -> None:
    """A list saved before a card was renamed is listed as needing a fix, not a crash."""
    with SessionStore() as store:
        DeckStore(store).save_deck("Old", EMBER_TEXT)
        with store._write() as conn:
            conn.execute("UPDATE decks SET text = replace(text, 'Flickerwand', 'Flickerstaff')")
    assert main(["deck", "list"]) == 0
    line = EMBER_TEXT.splitlines().index("4 Flickerwand") + 1
    assert capsys.readouterr().out == f"Old  needs fixing (line {line}: unknown card 'Flickerstaff')\n"


def test_the_help_names_every_starter_deck_and_only_those() -> None:
    from engine.wizbits.cards.starter_decks import STARTER_DECKS
    from tui.cli.decks import STARTER_IDS

    assert STARTER_IDS == tuple(STARTER_DECKS)  # the help lists them without loading Wizbits' cards
