"""``coven doctor``: a full check on request, findings in words, and moving a damaged database aside."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from saves import LiveSession, SeatInfo, SessionStore, db_path
from saves.checkup import examine, in_use
from tests.helpers.damage_helpers import (
    damaged_copy_with_companions,
    hide_moves_from_the_index,
    newer_coven_database,
    two_sessions,
    write_damage,
)
from tests.helpers.fake_game import Add
from tui.cli import main
from tui.cli.doctor import run


class _Terminal(io.StringIO):
    """A stdin that says it is a terminal, holding the user's answer."""

    def isatty(self) -> bool:
        return True


def _files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("coven.sqlite3"))


def test_no_database_yet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 0
    assert "nothing to check" in capsys.readouterr().out


def test_a_healthy_database_is_reported_healthy(fake_spec: object, capsys: pytest.CaptureFixture[str]) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "count-to-ten", None, 1, [SeatInfo("Ana"), SeatInfo("Bea")])
        live.apply(0, Add(1))
    before = db_path().read_bytes()
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "full integrity check" in out and "is clean" in out
    assert "read and replay as they should: 1 of 1" in out
    assert "Nothing is wrong" in out and "PROBLEM" not in out
    assert db_path().read_bytes() == before


def test_index_damage_quick_check_misses_is_found_and_left_alone_without_a_terminal(
    coven_data_dir: Path, fake_spec: object, capsys: pytest.CaptureFixture[str]
) -> None:
    _, bad = two_sessions()
    hide_moves_from_the_index(bad, keep=1)
    before = db_path().read_bytes()
    code = run(move=False, stdin=io.StringIO("y\n"))  # not a terminal: never asks, never moves
    out = capsys.readouterr().out
    assert code == 1
    assert "integrity check found" in out and "missing from index sqlite_autoindex_actions_1" in out
    assert f"Session {bad} cannot be opened: the index of its log lists 1 action but the log itself holds 2" in out
    assert "coven doctor --repair" in out  # an index is rebuilt from its table: nothing needs moving
    assert db_path().read_bytes() == before
    assert not any(".corrupt-" in name for name in _files(coven_data_dir))


@pytest.mark.parametrize(("answer", "moved"), [("y\n", True), ("yes\n", True), ("\n", False), ("n\n", False), ("", False)])
def test_at_a_terminal_doctor_asks_before_moving(
    answer: str, moved: bool, coven_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two_sessions()
    conn = sqlite3.connect(db_path(), isolation_level=None)  # damage no repair of rows can mend
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, '''human''', '''hum!n''') WHERE name = 'seats'")
    conn.close()
    code = run(move=False, stdin=_Terminal(answer))
    out = capsys.readouterr().out
    assert "Move the database aside and start fresh? [y/N]" in out
    assert "The table seats is not defined as Coven defines it." in out
    assert (code == 0) is moved
    assert db_path().exists() is not moved
    assert any(".corrupt-" in name for name in _files(coven_data_dir)) is moved


def test_move_aside_keeps_the_file_and_its_companions(coven_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wal = damaged_copy_with_companions(
        "UPDATE sqlite_master SET sql = replace(sql, 'COLLATE NOCASE', 'COLLATE NCASE') WHERE name = 'decks'"
    )
    assert main(["doctor", "--move-aside"]) == 0
    out = capsys.readouterr().out
    assert "PROBLEM" in out and "Moved it to" in out
    names = _files(coven_data_dir)
    assert not db_path().exists()
    moved = next(name for name in names if name.endswith(tuple("0123456789")))
    assert {f"{moved}-wal", f"{moved}-shm"} <= set(names)
    assert (coven_data_dir / f"{moved}-wal").read_bytes() == wal
    with SessionStore() as store:
        assert store.notice is None and store.list_sessions() == []


def test_a_database_in_use_is_not_moved(capsys: pytest.CaptureFixture[str]) -> None:
    _, bad = two_sessions()
    write_damage("UPDATE seats SET kind = 'alien' WHERE session_id = ?", bad)
    other = subprocess.Popen(  # another Coven, idle with the database open
        [sys.executable, "-c", "import sys, saves; s = saves.SessionStore(); print('open', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[3],
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "open\n"
        assert in_use(db_path())
        assert main(["doctor", "--move-aside"]) == 1
        assert "in use by another Coven" in capsys.readouterr().err
        assert db_path().exists()
    finally:
        other.communicate("", timeout=60)
    assert not in_use(db_path())
    assert main(["doctor", "--move-aside"]) == 0
    assert not db_path().exists()


def test_a_file_that_is_not_a_database(coven_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    coven_data_dir.mkdir(parents=True, exist_ok=True)
    db_path().write_bytes(b"\x1b[2Jnot sqlite " * 300)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "SQLite cannot read it: file is not a database" in out
    assert "\x1b" not in out


def test_a_schema_coven_did_not_write_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    two_sessions()
    conn = sqlite3.connect(db_path(), isolation_level=None)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, '''human''', '''hum!n''') WHERE name = 'seats'")
    conn.close()
    assert main(["doctor"]) == 1
    assert "The table seats is not defined as Coven defines it." in capsys.readouterr().out


def test_a_log_that_no_longer_replays_is_named(fake_spec: object) -> None:
    _, bad = two_sessions()
    write_damage("UPDATE actions SET action = '{\"add\": 5}' WHERE session_id = ? AND seq = 2", bad)
    checkup = examine(db_path())
    assert [(entry.session_id, entry.reason.split(":")[0]) for entry in checkup.damaged_sessions] == [
        (bad, "its log no longer replays")
    ]
    assert "you may add only 1 or 2" in checkup.damaged_sessions[0].reason


def test_a_newer_coven_database_is_not_checked_nor_moved(capsys: pytest.CaptureFixture[str]) -> None:
    before = newer_coven_database()
    assert main(["doctor", "--move-aside"]) == 1
    out = capsys.readouterr().out
    assert "written by a newer Coven (schema 99" in out and "Upgrade Coven" in out
    assert db_path().read_bytes() == before
