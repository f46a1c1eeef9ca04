"""The ``coven`` command line, driven through ``main([...])``."""

from __future__ import annotations

import json
import sqlite3
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from engine import GameSpec
from saves import LiveSession, SeatInfo, SessionStore, db_path
from tests.helpers.damage_helpers import newer_coven_database
from tests.helpers.fake_game import next_action
from tui import cli
from tui.cli import main

SEATS = [SeatInfo("Alice"), SeatInfo("Bob", "bot", "easy")]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def make_session(steps: int = 5) -> int:
    with SessionStore() as store:
        session = LiveSession.create(store, "count-to-ten", {}, 9, SEATS)
        for _ in range(steps):
            seat, action = next_action(session.spec, session.state)
            session.apply(seat, action)
        return session.session_id


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("rules", "sessions", "export", "import", "bench"):
        assert command in out


def test_usage_error_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "not-a-number", "x.json"]) == 2
    assert "a session id is a whole number such as 3" in capsys.readouterr().err


def test_no_command_runs_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    fake_app = types.ModuleType("tui.app")
    fake_app.run = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.app", fake_app)
    assert main([]) == 0
    assert calls == [{"player_name": None, "join_code": None, "serve_port": None, "account": None,
                      "serve_host": None, "signed_in": False, "serve_browser": False}]


def test_play_passes_the_join_code_and_name(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []
    fake_app = types.ModuleType("tui.app")
    fake_app.run = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.app", fake_app)
    assert main(["play", "--name", "Bea", "--join", "kxmp", "--serve-port", "2222", "--account", "bea",
                 "--serve-host", "0.0.0.0"]) == 0
    assert main(["play", "--serve-port", "2222", "--account", "bea", "--signed-in"]) == 0
    assert main(["play", "--serve-port", "8000", "--account", "bea", "--serve-browser"]) == 0  # coven web's
    assert calls == [{"player_name": "Bea", "join_code": "kxmp", "serve_port": 2222, "account": "bea",
                      "serve_host": "0.0.0.0", "signed_in": False, "serve_browser": False},
                     {"player_name": None, "join_code": None, "serve_port": 2222, "account": "bea",
                      "serve_host": None, "signed_in": True, "serve_browser": False},
                     {"player_name": None, "join_code": None, "serve_port": 8000, "account": "bea",
                      "serve_host": None, "signed_in": False, "serve_browser": True}]


def test_rules(fake_spec: GameSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "count-to-ten.md").write_text("# Count to Ten\n\nAdd **one** or two.\n")
    monkeypatch.setattr(cli, "RULES_DIR", tmp_path)
    assert main(["rules", "count-to-ten"]) == 0
    out = capsys.readouterr().out
    assert "Count to Ten" in out and "Add one or two." in out


def test_rules_missing_document(fake_spec: GameSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "RULES_DIR", tmp_path)
    assert main(["rules", "count-to-ten"]) == 1
    assert "rules of Count to Ten are not available" in one_line_error(capsys)


def test_rules_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "snap"]) == 2
    line = one_line_error(capsys)
    assert "Unknown game 'snap'" in line and "Known games:" in line


def test_sessions_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sessions"]) == 0
    assert "No saved sessions yet" in capsys.readouterr().out


def test_sessions_table(fake_spec: GameSpec, capsys: pytest.CaptureFixture[str]) -> None:
    session_id = make_session()
    assert main(["sessions"]) == 0
    out = capsys.readouterr().out
    assert "Count to Ten" in out
    assert "Alice, Bob" in out
    assert "in progress" in out
    assert f"│ {session_id} " in out or f" {session_id} " in out


def test_export_then_import(fake_spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session_id = make_session()
    target = tmp_path / "out.json"
    assert main(["export", str(session_id), str(target)]) == 0
    assert json.loads(target.read_text())["game"] == "count-to-ten"
    before = target.read_bytes()
    assert main(["export", str(session_id), str(target)]) == 1
    line = one_line_error(capsys)
    assert f"{target} already exists" in line and "--force" in line
    assert target.read_bytes() == before
    assert main(["export", str(session_id), str(target), "--force"]) == 0
    assert main(["import", str(target)]) == 0
    assert "as session" in capsys.readouterr().out
    with SessionStore() as store:
        assert len(store.list_sessions()) == 2


def test_export_leaves_the_overwrite_decision_to_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[int, Path, bool]] = []

    def fake_export(store: SessionStore, session_id: int, path: Any, *, overwrite: bool = False) -> Path:
        calls.append((session_id, Path(path), overwrite))
        return Path(path)

    monkeypatch.setattr(cli, "export_session", fake_export)
    target = tmp_path / "exists.json"
    target.write_text("old")
    assert main(["export", "4", str(target)]) == 0
    assert main(["export", "4", str(target), "--force"]) == 0
    assert calls == [(4, target, False), (4, target, True)]


def test_import_refuses_what_is_not_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path)]) == 1
    assert f"{tmp_path} is not a regular file" in one_line_error(capsys)
    with SessionStore() as store:
        assert store.list_sessions() == []


def test_import_unknown_bot_level(fake_spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session_id = make_session()
    target = tmp_path / "game.json"
    assert main(["export", str(session_id), str(target)]) == 0
    document = json.loads(target.read_text())
    document["seats"][1]["bot_level"] = "godlike"
    target.write_text(json.dumps(document))
    capsys.readouterr()
    assert main(["import", str(target)]) == 1
    assert "Seat 2 (Bob) has unknown bot level 'godlike'; Count to Ten has easy, hard" in one_line_error(capsys)
    with SessionStore() as store:
        assert len(store.list_sessions()) == 1


def test_export_unknown_session(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["export", "99", str(tmp_path / "x.json")]) == 1
    assert "no saved session 99" in one_line_error(capsys)
    assert not (tmp_path / "x.json").exists()


def test_import_bad_file(fake_spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    assert main(["import", str(bad)]) == 1
    assert "not valid JSON" in one_line_error(capsys)
    session_id = make_session()
    target = tmp_path / "game.json"
    main(["export", str(session_id), str(target)])
    document = json.loads(target.read_text())
    document["log"][2]["action"] = {"add": 7}
    target.write_text(json.dumps(document))
    capsys.readouterr()
    assert main(["import", str(target)]) == 1
    assert "action 3 is illegal" in one_line_error(capsys)


def test_corrupt_database_notice_then_works(capsys: pytest.CaptureFixture[str]) -> None:
    db_path().write_bytes(b"\x00garbage" * 300)
    assert main(["sessions"]) == 0
    captured = capsys.readouterr()
    assert "was moved to" in captured.err and ".corrupt-" in captured.err
    assert "No saved sessions yet" in captured.out


def test_database_missing_a_table_is_recovered(fake_spec: GameSpec, capsys: pytest.CaptureFixture[str]) -> None:
    make_session()
    conn = sqlite3.connect(db_path())
    conn.execute("DROP TABLE sessions")
    conn.commit()
    conn.close()
    assert main(["sessions"]) == 0
    captured = capsys.readouterr()
    assert "was moved to" in captured.err and ".corrupt-" in captured.err
    assert "No saved sessions yet" in captured.out
    assert main(["sessions"]) == 0
    assert capsys.readouterr().err == ""


def test_newer_database_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    newer_coven_database()
    assert main(["sessions"]) == 1
    assert "newer Coven (schema 99" in one_line_error(capsys)


def test_bench_not_available(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tui.cli.bench.games", None)  # makes the import fail
    assert main(["bench", "wizards-cup"]) == 1
    assert "not available" in one_line_error(capsys)


def test_bench_runs_when_present(fake_spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    fake_bench = types.ModuleType("tui.cli.bench.games")
    fake_bench.run = lambda game_id, games: calls.append((game_id, games))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.cli.bench.games", fake_bench)
    assert main(["bench", "count-to-ten", "--games", "3"]) == 0
    assert calls == [("count-to-ten", 3)]
    assert main(["bench", "nope"]) == 2


def test_rules_and_unknown_games_import_no_games_rules(tmp_path: Path) -> None:
    import os
    import subprocess

    code = ("import sys; from tui.cli import main; codes = [main(['rules', 'wizbits']), main(['rules', 'nope'])]; "
            "print(codes, sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['engine', 'wizbits'], ['engine', 'witchdraft'], ['engine', 'wizards_cup'])))")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3]), COVEN_DATA_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.splitlines()[-1] == "[0, 2] []"
    assert "Unknown game 'nope'. Known games: wizards-cup, witchdraft, wizbits" in done.stderr
