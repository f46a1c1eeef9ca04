"""Turn-based tables under real concurrent processes: a seat whose time ran out is handed over once, and
taken back once, however many Covens look at the same moment."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from saves import LiveSession
from saves.tables import TableStore
from tests.helpers.table_helpers import PLAN, Opener, turn_session

REPO = Path(__file__).resolve().parents[2]

LOOKER = """
import sys
from datetime import UTC, datetime, timedelta, timedelta
from pathlib import Path
from engine import register
from tests.helpers.fake_game import SPEC
from saves import SessionStore
from saves.presence import Presence
from saves.tables import TableStore
from saves.table_records import TableError
from saves.turn_based import my_turn_tables, start_vacation, take_back
register(SPEC)
tables = TableStore(SessionStore(), Presence(Path(sys.argv[1])))
tables.account = sys.argv[2]
tables.clock = lambda: datetime.now(UTC) + timedelta(days=2)
print("ready", flush=True)
sys.stdin.readline()
if sys.argv[3] == "vacation":
    try:
        print("on" if start_vacation(tables, tables.account).on else "", flush=True)
    except TableError as error:
        print(error, flush=True)
elif sys.argv[3] == "look":
    print(" ".join(str(seat) for table in my_turn_tables(tables) for seat in table.handed_now), flush=True)
else:
    print(" ".join(str(seat) for seat in take_back(tables, sys.argv[4])), flush=True)
"""


def _race(tmp_path: Path, runs: list[list[str]]) -> list[str]:
    """Start one process per argument list, let them all go at once, and return what each printed."""
    children = [subprocess.Popen(
        [sys.executable, "-c", LOOKER, str(tmp_path / "presence"), *args],
        cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True) for args in runs]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        said = []
        for child in children:
            out, _ = child.communicate(timeout=120)
            assert child.returncode == 0
            said.append(out.strip())
        return said
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=30)


def _overdue_table(open_tables: Opener) -> tuple[TableStore, str, int]:
    ana, bea = open_tables(), open_tables()
    ana.account, bea.account = "ana", "bea"
    code = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", pace_days=1, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")
    session_id = turn_session(ana, code)
    ana.release_mine(left=True)
    bea.release_mine(left=True)
    return ana, code, session_id


def test_processes_looking_at_once_hand_an_overdue_seat_to_the_bot_once(open_tables: Opener, tmp_path: Path) -> None:
    ana, code, session_id = _overdue_table(open_tables)
    said = _race(tmp_path, [["ana", "look"], ["bea", "look"], ["ana", "look"], ["bea", "look"]])
    assert sorted(said) == ["", "", "", "0"]
    seat = ana.find(code).seats[0]
    assert (seat.role, seat.bot_level) == ("bot", "easy") and seat.timed_out_at is not None
    assert LiveSession.load(ana.store, session_id).seats[0].is_bot
    assert datetime.fromisoformat(seat.timed_out_at) > datetime.now(UTC)  # stamped by the lookers' clock


def test_two_terminals_of_one_player_take_a_seat_back_once(open_tables: Opener, tmp_path: Path) -> None:
    ana, code, session_id = _overdue_table(open_tables)
    assert sorted(_race(tmp_path, [["bea", "look"]])) == ["0"]
    said = _race(tmp_path, [["ana", "back", code], ["ana", "back", code], ["ana", "back", code]])
    assert sorted(said) == ["", "", "0"]
    seat = ana.find(code).seats[0]
    assert seat.role == "remote" and seat.timed_out_at is None and seat.clock_from is not None
    assert not LiveSession.load(ana.store, session_id).seats[0].is_bot


def test_two_terminals_turning_one_vacation_on_at_once_spend_one_day(open_tables: Opener, tmp_path: Path) -> None:
    from saves.turn_based import vacation

    ana, _, _ = _overdue_table(open_tables)
    said = _race(tmp_path, [["ana", "vacation"], ["ana", "vacation"], ["ana", "vacation"]])
    assert sorted(said) == ["Your vacation is already on.", "Your vacation is already on.", "on"]
    with ana.store._read() as conn:
        assert conn.execute("SELECT count(*) FROM vacations WHERE account = 'ana'").fetchone()[0] == 1
    ana.clock = lambda: datetime.now(UTC) + timedelta(days=2, hours=1)
    assert vacation(ana, "ana").days_used == 1  # begun in the lookers' clock, two days ahead
