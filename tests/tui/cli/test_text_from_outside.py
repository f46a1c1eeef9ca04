"""Text from outside is data, never terminal control: the one rule applied where text enters and where it is shown.

Names enter through session files, the engine, the store, deck and table names;
they are shown by `coven import`, `coven sessions` and the screens (see
test_text_on_screen.py for those).
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine import get_game
from engine.core.text import UnsafeTextError, check_seat_names, shown_text, text_block_problem
from engine.wizbits.cards.starter_decks import EMBER_DAWN
from engine.wizbits.decklist import decklist
from saves import LiveSession, SeatInfo, SeatPlan, SessionStore, TableError, db_path, export_session
from saves.decks import DeckError, DeckStore
from saves.errors import SessionFileError
from saves.file_text import check_file_text
from tests.helpers.table_helpers import Opener, host_table
from tui.cli import main
from tui.cli.common import fail

ESC = "\x1b"
# A name that reaches the terminal raw would steer it; each must be refused and named.
HOSTILE = [
    pytest.param("Ana\x1b[2J", "a control character (U+001B)", id="CSI"),
    pytest.param("Ana\x1b]0;pwned\x07", "a control character (U+001B)", id="OSC"),
    pytest.param("Ana\x9b31m", "a control character (U+009B)", id="C1-CSI"),
    pytest.param("\u202eanA", "a bidirectional override (U+202E)", id="bidi"),
    pytest.param("A\u200bna", "a zero-width character (U+200B)", id="zero-width"),
    pytest.param("Ana\ud800", "a lone surrogate (U+D800), which is not valid text", id="lone-surrogate"),
]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def exported_game(tmp_path: Path, game: str = "wizards-cup", options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A real export of a fresh game, as the JSON document."""
    path = tmp_path / "real.json"
    with SessionStore() as store:
        live = LiveSession.create(store, game, options or {}, 5, [SeatInfo("Ana"), SeatInfo("Bea")])
        export_session(store, live.session_id, path)
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def write(tmp_path: Path, document: dict[str, Any]) -> Path:
    path = tmp_path / "hostile.json"
    # ensure_ascii writes "\u001b" and "\ud800" escapes: the file itself is valid UTF-8 JSON.
    path.write_text(json.dumps(document, ensure_ascii=True), encoding="utf-8")
    return path


def session_count() -> int:
    with SessionStore() as store:
        return len(store.list_sessions())


# -- the rule itself ----------------------------------------------------------------


def test_a_text_block_allows_line_feeds_and_tabs_only() -> None:
    assert text_block_problem("4 Ember Imp\r\n\t2 Ash Golem\n") is None
    assert text_block_problem("one\ntwo\x1b[2J") == "a control character (U+001B) on line 2"
    assert text_block_problem("one\rtwo") == "a line break (U+000D) on line 1"
    assert text_block_problem("one\u2028two") == "a line break (U+2028) on line 1"
    assert text_block_problem("a\n\u202eb") == "a bidirectional override (U+202E) on line 2"
    assert text_block_problem(3) == "text was expected, not int"


def test_shown_text_spells_out_what_may_not_reach_a_terminal() -> None:
    assert shown_text("Ana\x1b[2J\u202e\ud800") == "Ana\\x1b[2J\\u202e\\ud800"
    assert shown_text("[bold red]x Zoë 魔女") == "[bold red]x Zoë 魔女"  # markup is the screen's business
    shown_text("\ud800").encode("utf-8")  # always encodable


# -- the engine ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["wizards-cup", "witchdraft", "wizbits"])
@pytest.mark.parametrize("bad, said", HOSTILE)
def test_every_game_refuses_unsafe_names(game: str, bad: str, said: str) -> None:
    rules = get_game(game).rules
    with pytest.raises(UnsafeTextError) as caught:
        rules.new_state({}, 1, 2, ["Bea", bad])
    assert caught.value.reason == f"Seat 2's name must not contain {said}"
    assert rules.new_state({}, 1, 2, [" [bold red]x ", "Bea"]).players[0].name == "[bold red]x"


def test_engine_names_count_and_defaults() -> None:
    assert check_seat_names(None, 2, "Player") == ["Player 1", "Player 2"]
    with pytest.raises(UnsafeTextError, match="2 seat names were expected, not 1"):
        get_game("wizards-cup").rules.new_state({}, 1, 2, ["Ana"])
    with pytest.raises(UnsafeTextError, match="Seat 1's name must not be blank"):
        check_seat_names(["  ", "Bea"], 2, "Player")


# -- records, decks, tables -----------------------------------------------------------


@pytest.mark.parametrize("bad, said", HOSTILE)
def test_a_seat_record_refuses_unsafe_names_and_bot_levels(bad: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"a seat's name must not contain {said}")):
        SeatInfo(bad)
    with pytest.raises(ValueError, match="a seat's bot_level must not contain"):
        SeatInfo("Merlin", "bot", bad)


@pytest.mark.parametrize("bad, said", HOSTILE)
def test_deck_names_are_checked_by_the_rule(bad: str, said: str) -> None:
    text = decklist(EMBER_DAWN.deck, "Ember Dawn")
    with SessionStore() as store:
        decks = DeckStore(store)
        with pytest.raises(DeckError) as caught:
            decks.save_deck(bad, text)
        assert str(caught.value) == f"A deck's name must not contain {said}."
        decks.save_deck("[bold]Ember", text)
        with pytest.raises(DeckError, match="must not contain"):
            decks.rename_deck("[bold]Ember", bad)
        assert [deck.name for deck in decks.list_decks()] == ["[bold]Ember"]


@pytest.mark.parametrize("bad, said", HOSTILE)
def test_table_seat_names_are_checked_by_the_rule(open_tables: Opener, bad: str, said: str) -> None:
    tables = open_tables()
    with pytest.raises(TableError) as caught:
        tables.host("count-to-ten", {}, 1, [SeatPlan("local", "Ana"), SeatPlan("local", bad)], host_name="Ana")
    assert str(caught.value) == f"The name of seat 2 must not contain {said}."
    with pytest.raises(TableError, match=re.escape(f"The host's name must not contain {said}.")):
        tables.host("count-to-ten", {}, 1, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")], host_name=bad)
    code, _ = host_table(tables)
    with pytest.raises(TableError, match=re.escape(f"Your name must not contain {said}.")):
        open_tables().take_seat(code, 1, bad)
    assert open_tables().find(code).seats[1].claim is None


# -- coven import -------------------------------------------------------------------


@pytest.mark.parametrize("bad, said", HOSTILE)
def test_import_refuses_a_hostile_seat_name_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, said: str
) -> None:
    document = exported_game(tmp_path)
    document["seats"][1]["name"] = bad
    before = session_count()
    assert main(["import", str(write(tmp_path, document))]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"coven: Seat 2's name must not contain {said}.\n"
    assert ESC not in captured.out + captured.err and "\x9b" not in captured.out + captured.err
    assert session_count() == before


@pytest.mark.parametrize("where, change, message", [
    ("bot level", lambda d: d["seats"][1].update(kind="bot", bot_level="easy\x1b[8m"),
     "Seat 2's bot level must not contain a control character (U+001B)."),
    ("ignored field", lambda d: d.update(title="Cup\u202e"),
     "The file's title must not contain a bidirectional override (U+202E)."),
    ("action field", lambda d: d["log"].append({"seat": 0, "action": {"type": "team\x1b[2J"}}),
     "The file's log[0].action.type must not contain a control character (U+001B)."),
    ("key", lambda d: d.update({"x\u200b": 1}),
     "A key in the file's top level must not contain a zero-width character (U+200B)."),
])
def test_import_checks_every_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, change: Any, message: str
) -> None:
    document = exported_game(tmp_path)
    change(document)
    assert main(["import", str(write(tmp_path, document))]) == 1
    assert capsys.readouterr().err == f"coven: {message}\n"
    assert session_count() == 1


def test_a_deck_list_option_may_have_lines_but_no_controls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = decklist(EMBER_DAWN.deck, "Ember Dawn")
    document = exported_game(tmp_path, "wizbits", {"deck_1": text})
    check_file_text(document)  # line feeds are fine in a deck list
    lines = text.split("\n")
    lines[2] += "\x1b[2J"
    document["options"]["deck_1"] = "\n".join(lines)
    assert main(["import", str(write(tmp_path, document))]) == 1
    assert capsys.readouterr().err == (
        "coven: The option 'deck_1' must not contain a control character (U+001B) on line 3.\n")
    with pytest.raises(SessionFileError, match="Seat 1's name must not contain a line break"):
        check_file_text({"seats": [{"name": "two\nlines"}]})


# -- coven sessions and messages ------------------------------------------------------


def inject_name(session_id: int, seat: int, name: str) -> None:
    """Write ``name`` straight into the database, as damage or another program might."""
    conn = sqlite3.connect(db_path())
    try:
        conn.execute("UPDATE seats SET name = ? WHERE session_id = ? AND seat = ?", (name, session_id, seat))
        conn.commit()
    finally:
        conn.close()


def test_sessions_never_prints_a_raw_escape_from_the_database(capsys: pytest.CaptureFixture[str]) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Ana"), SeatInfo("Bea")])
        LiveSession.create(store, "wizards-cup", {}, 6, [SeatInfo("Cy"), SeatInfo("Di")])
    inject_name(live.session_id, 0, "Ana\x1b]0;pwned\x07\x1b[2J")
    main(["sessions"])
    captured = capsys.readouterr()
    assert ESC not in captured.out + captured.err and "\x07" not in captured.out + captured.err
    assert "Traceback" not in captured.err


def unchecked_seat(name: str) -> SeatInfo:
    """A seat as a damaged row could hold it, past every check (to prove the display guards by itself)."""
    seat = SeatInfo("placeholder")
    object.__setattr__(seat, "name", name)
    return seat


def test_sessions_shows_names_safely_whatever_the_store_returns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with SessionStore() as store:
        LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("[bold red]x"), SeatInfo("Bea")])
        summary = store.list_sessions()[0]
    hostile = type(summary)(**{**summary.__dict__, "seats": (unchecked_seat("Ana\x1b[2J\ud800"), summary.seats[1])})
    monkeypatch.setattr(SessionStore, "list_sessions", lambda self, owner=None: [summary, hostile])
    assert main(["sessions"]) == 0
    out = capsys.readouterr().out
    assert "[bold red]x, Bea" in out  # markup shown as typed
    assert "Ana\\x1b[2J\\ud800, Bea" in out and ESC not in out


def test_an_error_message_with_a_lone_surrogate_is_printed_not_raised(capsys: pytest.CaptureFixture[str]) -> None:
    fail("bad \ud800 and \x1b[2J")
    assert capsys.readouterr().err == "coven: bad \\ud800 and \\x1b[2J\n"


# -- Lab scenario files -----------------------------------------------------------------


def test_a_lab_scenario_file_is_held_to_the_rule() -> None:
    from engine.wizbits.lab.json_form import LabFileError, scenario_from_json, scenario_to_json, shipped_scenarios

    data = scenario_to_json(shipped_scenarios()[0])
    data["about"] = "Two lines\n\tof notes."
    scenario_from_json(data)  # an about text may have lines
    data["sides"][1]["name"] = "Bo\x1b[2J"
    with pytest.raises(LabFileError, match=re.escape("sides[1].name must not contain a control character (U+001B)")):
        scenario_from_json(data)
    data["sides"][1]["name"], data["title"] = "Bo", "Lesson\u202e"
    with pytest.raises(LabFileError, match=re.escape("title must not contain a bidirectional override (U+202E)")):
        scenario_from_json(data)


def test_a_terminal_that_cannot_show_a_name_gets_it_spelled_out_not_a_crash() -> None:
    import os
    import subprocess
    import sys

    with SessionStore() as store:
        LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Zoë"), SeatInfo("Bea")])
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "tui.cli", "sessions"], capture_output=True, env=env,
                          cwd=Path(__file__).resolve().parents[3], timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"Zo\\xeb" in done.stdout and b"Unexpected error" not in done.stderr
