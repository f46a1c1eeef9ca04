"""``coven doctor --repair``: damage confined to some rows is taken out (copied first), and everything else kept."""

from __future__ import annotations

import io
import json
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist
from saves import Presence, SessionStore, TableStore, db_path
from saves.checkup import examine
from saves.decks import DeckStore
from saves.preferences import get_preference, set_preference
from saves.repair import repair
from tests.helpers.damage_helpers import hide_moves_from_the_index, two_sessions, write_damage
from tests.helpers.table_helpers import host_table
from tui.cli import main
from tui.cli.doctor import run

ROOT = Path(__file__).resolve().parents[3]
EMBER = decklist(STARTER_DECKS["ember-dawn"].deck)


class _Terminal(io.StringIO):
    """A stdin that says it is a terminal, holding the user's answer."""

    def isatty(self) -> bool:
        return True


def kept_rows(path: Path | None) -> list[dict[str, Any]]:
    """The rows a repair copied out, from its file (which must be private)."""
    assert path is not None and path.parent == db_path().parent
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    document = json.loads(path.read_text(encoding="ascii"))
    assert document["coven_repair"] == 1
    rows: list[dict[str, Any]] = document["rows"]
    return rows


def a_table_with_talk() -> tuple[int, int]:
    """A hosted table with three chat lines; its id and the id of the line about to be damaged."""
    with SessionStore() as store, Presence() as presence:
        tables = TableStore(store, presence)
        code, _ = host_table(tables)
        table_id = tables.find(code).table_id
        tables.say(table_id, "first")
        bad = tables.say(table_id, "second").line_id
        tables.say(table_id, "third")
    return table_id, bad


def chat_texts(table_id: int) -> list[str]:
    with SessionStore() as store, Presence() as presence:
        return [line.text for line in TableStore(store, presence).chat_since(table_id)]


def test_a_bad_chat_line_is_taken_out_and_the_rest_kept(fake_spec: object, capsys: pytest.CaptureFixture[str]) -> None:
    good, _ = two_sessions()
    table_id, bad = a_table_with_talk()
    write_damage("UPDATE table_chat SET line = X'fffe41' WHERE id = ?", bad)
    assert main(["doctor"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "coven doctor --repair" in out and "Move the database aside" not in out
    assert main(["doctor", "--repair"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Took out 1 damaged table chat line" in out and "Repaired. Nothing else is wrong" in out
    assert chat_texts(table_id) == ["first", "third"]
    with SessionStore() as store:
        assert len(store.list_sessions()) == 2 and store.log_length(good) == 1
    [kept] = [path for path in db_path().parent.iterdir() if ".repair-" in path.name]
    [row] = kept_rows(kept)
    assert row["table"] == "table_chat" and row["columns"]["id"] == bad
    assert row["columns"]["line"] == {"bytes_hex": "fffe41"}  # the stored bytes, exactly
    assert examine(db_path()).healthy


def test_a_damaged_session_is_taken_out_with_its_log_and_the_others_stay(fake_spec: object) -> None:
    good, bad = two_sessions()
    write_damage("UPDATE sessions SET status = 'weird' WHERE id = ?", bad)
    with SessionStore() as store:
        DeckStore(store).save_deck("Kept", EMBER)
        set_preference(store, None, "setting.theme", "nord")
    done = repair(db_path())
    assert done.left == [] and len(done.removed) == 1 and f"session {bad}" in done.removed[0]
    rows = kept_rows(done.kept_in)
    assert sorted({row["table"] for row in rows}) == ["actions", "seats", "sessions"]
    assert [row["columns"]["status"] for row in rows if row["table"] == "sessions"] == ["weird"]
    assert len([row for row in rows if row["table"] == "actions"]) == 2
    with SessionStore() as store:
        assert [entry.session_id for entry in store.list_sessions()] == [good]
        assert [deck.name for deck in DeckStore(store).list_decks()] == ["Kept"]
        assert get_preference(store, None, "setting.theme") == "nord"
    assert examine(db_path()).healthy


def test_an_unreadable_setting_is_taken_out_and_back_to_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with SessionStore() as store:
        set_preference(store, None, "setting.theme", "nord")
        set_preference(store, None, "setting.glyphs", True)
    write_damage("UPDATE preferences SET value = 'NaN' WHERE key = 'setting.glyphs'")
    assert run(move=False, mend=True) == 0
    out = capsys.readouterr().out
    assert "unreadable stored preference" in out
    with SessionStore() as store:
        assert get_preference(store, None, "setting.theme") == "nord"
        assert get_preference(store, None, "setting.glyphs") is None
    assert examine(db_path()).healthy


def test_index_damage_is_rebuilt_and_the_session_it_hid_comes_back(fake_spec: object) -> None:
    _, bad = two_sessions()
    hide_moves_from_the_index(bad, keep=1)
    assert examine(db_path()).damaged_sessions
    done = repair(db_path())
    assert done.reindexed and done.removed == [] and done.kept_in is None
    with SessionStore() as store:
        assert store.log_length(bad) == 2 and len(store.list_sessions()) == 2  # nothing was taken out
    assert examine(db_path()).healthy


@pytest.mark.parametrize("table", ["table_chat", "preferences", "decks"])
def test_a_missing_table_is_recreated_by_the_doctor(fake_spec: object, table: str) -> None:
    good, other = two_sessions()
    write_damage(f"DROP TABLE {table}")
    found = examine(db_path())
    assert f"The table {table} is missing." in found.problems
    done = repair(db_path())
    assert done.recreated == [table] and done.left == []
    assert examine(db_path()).healthy
    with SessionStore() as store:
        assert store.notice is None and {entry.session_id for entry in store.list_sessions()} == {good, other}


@pytest.mark.parametrize("table", ["table_chat", "preferences", "decks"])
def test_a_missing_table_does_not_send_the_database_aside_when_coven_opens_it(fake_spec: object, table: str) -> None:
    good, other = two_sessions()
    write_damage(f"DROP TABLE {table}")
    lost = {"table_chat": "table chat", "preferences": "settings", "decks": "saved deck lists"}[table]
    with SessionStore() as store:
        assert store.moved_to is None  # nothing was moved aside, and the player is told what was lost
        assert store.notice is not None and f"missing ({lost}); it was made again, empty" in store.notice
        assert {entry.session_id for entry in store.list_sessions()} == {good, other}
        DeckStore(store).save_deck("New", EMBER)
        set_preference(store, None, "setting.theme", "nord")
    assert not [path for path in db_path().parent.iterdir() if ".corrupt-" in path.name]
    assert examine(db_path()).healthy
    with SessionStore() as store:
        assert store.notice is None  # told once


def test_damage_in_a_table_page_is_left_for_moving_aside(capsys: pytest.CaptureFixture[str]) -> None:
    two_sessions_in_many_pages()
    conn = sqlite3.connect(db_path())
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(db_path().read_bytes())
    offset = (root - 1) * page_size
    data[offset:offset + 8] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"  # a leaf page whose cell count and pointers lie
    db_path().write_bytes(bytes(data))
    before = db_path().read_bytes()
    assert run(move=False, mend=True, stdin=io.StringIO("")) == 1
    out = capsys.readouterr().out
    assert "cannot be repaired in place" in out and "coven doctor --move-aside" in out
    assert db_path().read_bytes() == before
    assert not [path for path in db_path().parent.iterdir() if ".repair-" in path.name]


def two_sessions_in_many_pages() -> None:
    """Sessions whose log fills several pages, so the log table's root page is its own."""
    from tests.helpers.damage_helpers import SEATS

    with SessionStore() as store:
        store.checkpoint()
        for seed in range(3):
            store.create_session("wizards-cup", {}, seed, SEATS)
        store.checkpoint()


def test_at_a_terminal_the_doctor_offers_the_repair_not_the_move(
    fake_spec: object, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = two_sessions()
    write_damage("UPDATE seats SET kind = 'alien' WHERE session_id = ?", bad)
    assert run(move=False, stdin=_Terminal("n\n")) == 1
    out = capsys.readouterr().out
    assert "Repair it now? [y/N]" in out and "Move the database aside" not in out
    assert len(examine(db_path()).damaged_sessions) == 1
    assert run(move=False, stdin=_Terminal("y\n")) == 0
    with SessionStore() as store:
        assert [entry.session_id for entry in store.list_sessions()] == [good]


def test_a_database_another_coven_has_open_is_not_repaired(fake_spec: object,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    _, bad = two_sessions()
    write_damage("UPDATE seats SET kind = 'alien' WHERE session_id = ?", bad)
    other = subprocess.Popen(  # another Coven, idle with the database open
        [sys.executable, "-c", "import sys, saves; s = saves.SessionStore(); print('open', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "open\n"
        before = db_path().read_bytes()
        assert main(["doctor", "--repair"]) == 1
        assert "in use by another Coven" in capsys.readouterr().err
        assert db_path().read_bytes() == before and len(examine(db_path()).damaged_sessions) == 1
    finally:
        other.communicate("", timeout=60)
    assert main(["doctor", "--repair"]) == 0
    assert examine(db_path()).healthy
