"""Files and arguments from outside: deck-list lines, option bounds, session ids, import messages and digests."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine.wizards_cup
import engine.wizbits  # noqa: F401  (registers the game)
from engine import get_game
from engine.core import InvalidOptionsError
from engine.core.registry import MAX_OPTION_BYTES
from engine.wizbits.cards.starter_decks import EMBER_DAWN
from engine.wizbits.decklist import MAX_DECKLIST_BYTES, check_decklist, decklist
from engine.wizbits.state import RULES_VERSION as WIZBITS_RULES_VERSION
from saves import (
    LiveSession,
    SeatInfo,
    SeatPlan,
    SessionFileError,
    SessionStore,
    export_session,
    transfer,
)
from saves.decks import deck_problems
from saves.transfer import (
    CHANGED_WARNING,
    FORMAT_VERSION,
    content_digest,
    import_session_file,
)
from tests.helpers.table_helpers import Opener
from tests.helpers.waiting import until
from tui.cli import main

EMBER_TEXT = decklist(EMBER_DAWN.deck, "Ember Dawn")
SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def clean_output(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    captured = capsys.readouterr()
    for text in (captured.out, captured.err):
        assert "Traceback" not in text and "Unexpected error" not in text, text
    return captured.out, captured.err


def padded(text: str, size: int) -> str:
    """``text`` with a comment line added so that it is exactly ``size`` UTF-8 bytes long."""
    filler = size - len(text.encode("utf-8")) - 3
    return f"{text}# {'x' * filler}\n"


# -- deck lists: counts and line breaks ------------------------------------------------


def test_a_count_of_thousands_of_digits_is_a_line_numbered_error() -> None:
    text = f"# mine\n{'9' * 5000} Sparkswarm Volley\n{EMBER_TEXT}"
    assert [str(problem) for problem in check_decklist(text)] == ["line 2: count must be 1-4"]


@pytest.mark.parametrize("command", ["check", "save"])
def test_the_deck_commands_report_a_huge_count_by_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(f"{'4' * 5000} Sparkswarm Volley\n{EMBER_TEXT}", encoding="utf-8")
    argv = ["deck", "check", str(path)] if command == "check" else ["deck", "save", "Mine", str(path)]
    assert main(argv) == 1
    out, _ = clean_output(capsys)
    assert out.splitlines()[0] == "line 1: count must be 1-4"


@pytest.mark.parametrize("separator", SEPARATORS)
def test_other_separators_are_refused_on_their_line_and_shift_nothing(separator: str) -> None:
    lines = EMBER_TEXT.splitlines()
    lines[2] = f"{lines[2]}{separator}"
    lines.append("1 Fireball")  # an error on the last line, numbered as an editor shows it
    problems = [str(problem) for problem in check_decklist("\n".join(lines) + "\n")]
    assert len(problems) == 2
    assert problems[0].startswith("line 3: ") and "a line feed, a carriage return or both" in problems[0]
    assert problems[1] == f"line {len(lines)}: unknown card 'Fireball'"


@pytest.mark.parametrize("separator", SEPARATORS)
def test_the_stored_deck_check_numbers_lines_the_same_way(separator: str) -> None:
    lines = EMBER_TEXT.splitlines()
    lines[4] = f"{separator}{lines[4]}"
    problems = deck_problems("\n".join(lines))
    assert len(problems) == 1 and problems[0].line == 5


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_every_editor_line_ending_is_accepted(ending: str) -> None:
    text = ending.join(EMBER_TEXT.splitlines()) + ending + "1 Fireball" + ending
    assert [str(problem) for problem in check_decklist(text)] == \
        [f"line {len(EMBER_TEXT.splitlines()) + 1}: unknown card 'Fireball'"]


def test_the_deck_help_names_the_accepted_line_endings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Lines end with a line feed, a carriage return or both" in out and "U+2028" in out


# -- option bounds: new game, table, import -------------------------------------------


def test_a_deck_option_at_the_bound_is_accepted_and_one_byte_more_refused() -> None:
    spec = get_game("wizbits")
    assert MAX_OPTION_BYTES == MAX_DECKLIST_BYTES
    at_limit = padded(EMBER_TEXT, MAX_OPTION_BYTES)
    assert spec.resolve_options({"deck_1": at_limit})["deck_1"] == at_limit
    with pytest.raises(InvalidOptionsError, match="longer than 64 KiB"):
        spec.resolve_options({"deck_1": padded(EMBER_TEXT, MAX_OPTION_BYTES + 1)})


@pytest.mark.parametrize("value", ["# \x1b]0;owned\x07\n", "# \ud800\n"])
def test_a_deck_option_must_be_safe_text(value: str) -> None:
    with pytest.raises(InvalidOptionsError, match="deck_1"):
        get_game("wizbits").resolve_options({"deck_1": EMBER_TEXT + value})


def test_a_refused_option_value_is_not_echoed_in_full() -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        get_game("wizards-cup").resolve_options({"tokens_to_win": "x" * 100_000})
    assert len(str(caught.value)) < 200
    with pytest.raises(InvalidOptionsError, match="too large"):
        get_game("wizards-cup").resolve_options({"tokens_to_win": 10**5000})


def test_a_new_game_refuses_an_oversized_deck_option(store: SessionStore) -> None:
    seats = [SeatInfo("Ana"), SeatInfo("Bea")]
    with pytest.raises(InvalidOptionsError, match="longer than 64 KiB"):
        LiveSession.create(store, "wizbits", {"deck_1": padded(EMBER_TEXT, 70_000)}, 1, seats)
    assert store.list_sessions() == []


def test_a_table_refuses_an_oversized_deck_option(open_tables: Opener) -> None:
    tables = open_tables()
    plan = [SeatPlan("local", "Ana"), SeatPlan("local", "Bea")]
    with pytest.raises(InvalidOptionsError, match="longer than 64 KiB"):
        tables.host("wizbits", {"deck_1": padded(EMBER_TEXT, 70_000)}, 1, plan, host_name="Ana")
    assert tables.my_tables() == []


def wizbits_export(store: SessionStore, path: Path, **options: Any) -> dict[str, Any]:
    session = LiveSession.create(store, "wizbits", options, 5, [SeatInfo("Ana"), SeatInfo("Bea")])
    export_session(store, session.session_id, path)
    return dict(json.loads(path.read_text(encoding="utf-8")))


def test_an_import_refuses_an_oversized_deck_option(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    document["options"]["deck_1"] = padded(EMBER_TEXT, 2 * 1024 * 1024)
    path.write_text(json.dumps(document), encoding="utf-8")
    before = store.list_sessions()
    with pytest.raises(SessionFileError, match="longer than 64 KiB"):
        import_session_file(store, path)
    assert store.list_sessions() == before


# -- import bounds and messages --------------------------------------------------------


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_the_action_count_is_bounded(store: SessionStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    monkeypatch.setattr(transfer, "MAX_ACTIONS", 3)
    document["log"] = [{"seat": 0, "action": {"type": "pass"}}] * 4
    with pytest.raises(SessionFileError, match="log has 4 actions; at most 3 are accepted"):
        import_session_file(store, write_json(path, document))
    document["log"] = document["log"][:3]
    with pytest.raises(SessionFileError) as caught:  # at the bound the log is read, then replayed
        import_session_file(store, write_json(path, document))
    assert "at most 3" not in str(caught.value)


def test_deep_nesting_is_refused_by_name(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    nested: object = "x"
    for _ in range(transfer.MAX_DEPTH):
        nested = [nested]
    document["extra"] = nested  # at depth MAX_DEPTH + 1 from the top
    with pytest.raises(SessionFileError, match=f"deeper than {transfer.MAX_DEPTH} levels"):
        import_session_file(store, write_json(path, document))
    document["extra"] = nested[0]  # type: ignore[index]
    assert import_session_file(store, write_json(path, document)).session_id > 0


def test_a_number_of_thousands_of_digits_is_refused_in_words(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    wizbits_export(store, path)
    text = path.read_text(encoding="utf-8").replace('"seed": 5', f'"seed": {"7" * 5000}')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionFileError) as caught:
        import_session_file(store, path)
    assert "5000 digits long" in str(caught.value) and "sys." not in str(caught.value)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["seats"][1].update(kind={"a": 1}), "seats[1].kind must be text, not an object"),
        (lambda d: d["seats"][0].update(name=["Ana"]), "seats[0].name must be text, not a list"),
        (lambda d: d["log"][0].update(seat={"x": 1}), "log[0].seat must be a whole number or null, not an object"),
        (lambda d: d["log"][0].update(action=[1]), "log[0].action must be an object, not a list"),
        (lambda d: d["log"].__setitem__(0, 7), "log[0] must be an object"),
        (lambda d: d["log"][0]["action"].update(type={"x": 1}), "(log[0].action)"),
        (lambda d: d["log"][0]["action"].update(cards=[{"a": 1}] * 5), "(log[0].action)"),
        (lambda d: d.update(seed=[1]), "\"seed\" must be a whole number, not a list"),
        (lambda d: d.update(seats={"a": 1}), "\"seats\" must be a list, not an object"),
        (lambda d: d.update(version={"v": 1}), "(\"version\" is an object)"),
        (lambda d: d.update(game=["wizards-cup"]), "(\"game\" is a list, not a game id)"),
    ],
)
def test_import_refusals_name_the_field_in_words(
    store: SessionStore, tmp_path: Path, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    session = LiveSession.create(store, "wizards-cup", {}, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
    team = session.spec.rules.legal_actions(session.state, 0)[0]
    session.apply(0, team)
    path = tmp_path / "cup.json"
    export_session(store, session.session_id, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    before = store.list_sessions()
    with pytest.raises(SessionFileError) as caught:
        import_session_file(store, write_json(path, document))
    message = str(caught.value)
    assert field in message
    for internal in ("TypeError", "unhashable", "KeyError", "Traceback"):
        assert internal not in message
    assert store.list_sessions() == before


# -- the export format: version and digest ---------------------------------------------


def test_an_export_carries_its_version_and_the_digest_of_its_content(store: SessionStore, tmp_path: Path) -> None:
    document = wizbits_export(store, tmp_path / "game.json")
    assert document["version"] == FORMAT_VERSION == 3 and document["rules"] == WIZBITS_RULES_VERSION
    assert document["digest"].startswith("sha256:") and len(document["digest"]) == 7 + 64
    assert document["digest"] == content_digest(document)
    assert import_session_file(store, tmp_path / "game.json").warning is None


def test_a_file_edited_after_export_still_imports_with_a_warning(
    store: SessionStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    document["seats"][1]["name"] = "Beatrix"
    write_json(path, document)
    imported = import_session_file(store, path)
    assert imported.warning == CHANGED_WARNING and "changed after export" in CHANGED_WARNING
    assert store.load(imported.session_id).seats[1].name == "Beatrix"
    assert main(["import", str(path)]) == 0
    out, err = clean_output(capsys)
    assert "Imported" in out and "warning: This file was changed after export" in " ".join(err.split())


def test_a_changed_file_that_does_not_replay_is_still_refused(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    document["seed"] = "five"
    with pytest.raises(SessionFileError, match="\"seed\""):
        import_session_file(store, write_json(path, document))


def test_an_old_export_without_a_digest_imports_without_a_warning(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    del document["digest"]
    document["version"] = 1
    assert import_session_file(store, write_json(path, document)).warning is None
    document["version"] = 2  # a version 2 file without its digest was changed
    assert import_session_file(store, write_json(path, document)).warning == CHANGED_WARNING


def test_indentation_and_key_order_do_not_count_as_changes(store: SessionStore, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    path.write_text(json.dumps(dict(reversed(document.items())), ensure_ascii=True), encoding="utf-8")
    assert import_session_file(store, path).warning is None


# -- session ids -----------------------------------------------------------------------


@pytest.mark.parametrize("session", ["99999999999999999999999", "9" * 5000, "-3", "0", "1e3", "٣"])
def test_export_refuses_an_impossible_session_id_clearly(
    session: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", session, str(tmp_path / "out.json")]) == 2
    _, err = clean_output(capsys)
    assert "a session id is a whole number such as 3" in err
    assert not (tmp_path / "out.json").exists()


def test_export_of_the_largest_id_says_there_is_no_such_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(2**63 - 1), str(tmp_path / "out.json")]) == 1
    _, err = clean_output(capsys)
    assert f"no saved session {2**63 - 1}" in err


@pytest.mark.parametrize("where", ["title", "options", "log"])
def test_overlong_text_anywhere_in_an_import_is_refused_by_name(
    store: SessionStore, tmp_path: Path, where: str
) -> None:
    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    long_text = "x" * (MAX_OPTION_BYTES + 1)
    if where == "title":
        document["title"] = long_text
        field = "title"
    elif where == "options":
        document["options"]["deck_2"] = long_text
        field = "options.deck_2"
    else:
        document["log"] = [{"seat": 0, "action": {"type": long_text}}]
        field = "log[0].action.type"
    with pytest.raises(SessionFileError, match=rf"The file's {re.escape(field)} is longer than 64 KiB"):
        import_session_file(store, write_json(path, document))
    if where == "title":  # at the bound it is only text Coven ignores
        document["title"] = "x" * MAX_OPTION_BYTES
        assert import_session_file(store, write_json(path, document)).warning == CHANGED_WARNING


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_a_deck_option_in_any_editors_line_endings_survives_export_and_import(
    store: SessionStore, tmp_path: Path, ending: str
) -> None:
    text = ending.join(EMBER_TEXT.splitlines()) + ending
    assert get_game("wizbits").resolve_options({"deck_1": text})["deck_1"] == EMBER_TEXT
    path = tmp_path / "game.json"
    wizbits_export(store, path, deck_1=text)
    imported = import_session_file(store, path)
    assert store.load(imported.session_id).options["deck_1"] == EMBER_TEXT


async def test_the_sessions_screen_warns_when_an_imported_file_was_changed(store: SessionStore, tmp_path: Path) -> None:
    from tui.app import CovenApp
    from tui.widgets.confirm import PromptScreen

    path = tmp_path / "game.json"
    document = wizbits_export(store, path)
    document["seats"][0]["name"] = "Anna"
    write_json(path, document)
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "i")
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one("#prompt-input").value = str(path)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: len(store.list_sessions()) == 2, 'len(store.list_sessions()) == 2')
        notes = [(note.severity, str(note.message)) for note in app._notifications]
        assert len(store.list_sessions()) == 2
    assert any(severity == "warning" and "changed after export" in message for severity, message in notes), notes
