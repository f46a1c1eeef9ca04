"""Visit accounts: preferences kept in one process's memory for one visit, never in the shared database.

Two real Coven-like processes visit at once under the same unproven name; the
host machine's own values seed what each visit was given, and neither visit
sees the other's choices or writes a row.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from saves import SessionStore, db_path
from saves.preferences import begin_visit, get_preference, is_visit, set_preference

REPO = Path(__file__).resolve().parents[2]

VISITOR = """
import sys
from saves import SessionStore
from saves.preferences import begin_visit, get_preference, set_preference
store = SessionStore()
visit = begin_visit(seeded=["setting.theme"])
print(get_preference(store, visit, "setting.theme"), flush=True)
sys.stdin.readline()
set_preference(store, visit, "setting.theme", sys.argv[1])
set_preference(store, visit, "new-game", {"game": sys.argv[1]})
print("set", flush=True)
sys.stdin.readline()  # the other visitor has set its own by now
print(get_preference(store, visit, "setting.theme"), get_preference(store, visit, "new-game")["game"], flush=True)
store.close()
"""


def test_two_visits_at_once_keep_their_own_choices_and_write_nothing(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        set_preference(store, None, "setting.theme", "nord")
        set_preference(store, None, "new-game", {"game": "the host's"})
    visitors = [subprocess.Popen([sys.executable, "-c", VISITOR, theme], cwd=REPO,
                                 env=dict(os.environ, PYTHONPATH=str(REPO)), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for theme in ("dracula", "gruvbox")]
    try:
        def line(visitor: subprocess.Popen[str]) -> str:
            assert visitor.stdout is not None
            return visitor.stdout.readline().strip()

        def go(visitor: subprocess.Popen[str]) -> None:
            assert visitor.stdin is not None
            visitor.stdin.write("\n")
            visitor.stdin.flush()

        assert [line(visitor) for visitor in visitors] == ["nord", "nord"]  # seeded from the host's own
        for visitor in visitors:
            go(visitor)
        assert [line(visitor) for visitor in visitors] == ["set", "set"]
        for visitor in visitors:
            go(visitor)
        assert [line(visitor) for visitor in visitors] == ["dracula dracula", "gruvbox gruvbox"]
        for visitor in visitors:
            assert visitor.wait(timeout=60) == 0
    finally:
        for visitor in visitors:
            if visitor.poll() is None:
                visitor.kill()
                visitor.wait()
            for pipe in (visitor.stdin, visitor.stdout):
                if pipe is not None:
                    pipe.close()
    conn = sqlite3.connect(db_path())
    try:
        assert conn.execute("SELECT account, key FROM preferences ORDER BY key").fetchall() == [
            ("", "new-game"), ("", "setting.theme")]  # only the host's rows
    finally:
        conn.close()
    with SessionStore() as store:
        assert get_preference(store, None, "setting.theme") == "nord"


def test_a_visit_refuses_what_the_store_refuses_and_is_its_own(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        visit, other = begin_visit(), begin_visit()
        assert visit != other and is_visit(visit) and not is_visit("KXMP") and not is_visit(None)
        with pytest.raises(ValueError):
            set_preference(store, visit, "setting.theme", float("nan"))
        with pytest.raises(ValueError):
            set_preference(store, visit, "bad key!", 1)
        set_preference(store, visit, "setting.linear", True)
        assert get_preference(store, visit, "setting.linear") is True
        assert get_preference(store, other, "setting.linear") is None  # not seeded, not shared
