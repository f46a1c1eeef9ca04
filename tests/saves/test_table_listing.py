"""The open-table list: which tables a host listed, the one-hour rule, what leaves it, damage and other processes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from saves import SessionStore, db_path
from saves.presence import Presence
from saves.schema import SCHEMA_VERSION
from saves.table_listing import LISTED_FOR
from saves.tables import SeatPlan, TableStore
from tests.helpers.old_schema import old_lobby
from tests.helpers.table_helpers import PLAN, Opener

REPO = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
THREE = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2"), SeatPlan("remote", "Seat 3")]


def at(tables: TableStore, minutes: float) -> TableStore:
    """``tables`` with its clock fixed ``minutes`` after T0."""
    tables.clock = lambda: T0 + timedelta(minutes=minutes)
    return tables


def codes(tables: TableStore) -> list[str]:
    return [table.code for table in tables.listed().tables]


def test_only_listed_tables_are_on_the_list_with_what_anyone_may_see(open_tables: Opener) -> None:
    host, other = at(open_tables(), 0), at(open_tables(), 5)
    hidden = host.host("count-to-ten", {}, 7, PLAN, host_name="Ana").info
    shown = host.host("witchdraft", {"faster": True}, 7, THREE, host_name="Ana", listed=True,
                      allow_spectators=True).info
    assert shown.listed and not hidden.listed
    listing = other.listed()
    assert [table.code for table in listing.tables] == [shown.code] and listing.unreadable == 0
    table = listing.tables[0]
    assert (table.game_id, table.host_name, table.seats, table.free, table.allow_spectators, table.pace) == (
        "witchdraft", "Ana", 3, 2, True, "live")
    assert table.options["faster"] is True and table.created == T0
    assert not hasattr(table, "seed")  # the seed would tell the deal: never on the list
    other.take_seat(shown.code, 1, "Bea")
    assert other.listed().tables[0].free == 1  # one seat fewer, still listed


def test_a_listed_table_nobody_joins_for_an_hour_drops_off(open_tables: Opener) -> None:
    host, looker = at(open_tables(), 0), open_tables()
    code = host.host("witchdraft", {}, 7, THREE, host_name="Ana", listed=True).info.code
    assert codes(at(looker, 59)) == [code]
    assert codes(at(looker, 61)) == []
    assert codes(at(looker, LISTED_FOR.total_seconds() / 60)) == []  # an hour on the dot is an hour
    at(looker, 50).take_seat(code, 1, "Bea")  # a join keeps it listed for another hour from then
    assert codes(at(looker, 109)) == [code]
    assert codes(at(looker, 111)) == []


def test_closed_started_and_full_tables_leave_the_list(open_tables: Opener) -> None:
    host, bea, looker = open_tables(), open_tables(), open_tables()
    closed = host.host("witchdraft", {}, 1, THREE, host_name="Ana", listed=True).info.code
    full = host.host("count-to-ten", {}, 2, PLAN, host_name="Ana", listed=True).info.code
    started = host.host("witchdraft", {}, 3, THREE, host_name="Ana", listed=True).info.code
    assert sorted(codes(looker)) == sorted([closed, full, started])
    host.close(closed)
    bea.take_seat(full, 1, "Bea")
    assert codes(looker) == [started]
    bea.take_seat(started, 1, "Bea")
    host.hand_to_bot(started, 2, "easy")
    host.start(started)
    assert codes(looker) == []


def test_a_table_whose_host_left_is_not_offered(open_tables: Opener) -> None:
    host, looker = open_tables(), open_tables()
    code = host.host("witchdraft", {}, 1, THREE, host_name="Ana", listed=True).info.code
    assert codes(looker) == [code]
    host.release_mine()
    assert codes(looker) == []  # nobody could start it


def test_a_damaged_listed_row_is_counted_and_the_rest_still_listed(open_tables: Opener) -> None:
    host, looker = open_tables(), open_tables()
    good = host.host("witchdraft", {}, 1, THREE, host_name="Ana", listed=True).info.code
    bad_options = host.host("witchdraft", {}, 2, THREE, host_name="Ana", listed=True).info.code
    bad_name = host.host("witchdraft", {}, 3, THREE, host_name="Ana", listed=True).info.code
    bad_time = host.host("witchdraft", {}, 4, THREE, host_name="Ana", listed=True).info.code
    conn = sqlite3.connect(db_path())
    conn.execute("UPDATE tables SET options = '{not json' WHERE code = ?", (bad_options,))
    conn.execute("UPDATE tables SET host_name = ? WHERE code = ?", ("[bold]\x1b[31mEve\x07", bad_name))
    conn.execute("UPDATE tables SET created = 'yesterday' WHERE code = ?", (bad_time,))
    conn.commit()
    conn.close()
    listing = looker.listed()
    assert [table.code for table in listing.tables] == [good] and listing.unreadable == 3


HOSTER = """
import sys
from pathlib import Path
from saves import SessionStore
from saves.presence import Presence
from saves.tables import SeatPlan, TableStore
tables = TableStore(SessionStore(), Presence(Path(sys.argv[1])))
plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2"), SeatPlan("remote", "Seat 3")]
code = tables.host("witchdraft", {}, 5, plan, host_name="Hal", listed=True, allow_spectators=True).info.code
print(code, flush=True)
for line in sys.stdin:
    if line.strip() == "start":
        tables.hand_to_bot(code, 2, "easy")
        tables.start(code)
        print("started", flush=True)
"""


def test_a_table_listed_by_another_process_appears_then_leaves_when_it_starts(
        open_tables: Opener, tmp_path: Path) -> None:
    looker = open_tables()
    child = subprocess.Popen(
        [sys.executable, "-c", HOSTER, str(tmp_path / "presence")],
        cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    try:
        code = child.stdout.readline().strip()
        listed = looker.listed().tables
        assert [(table.code, table.host_name, table.free) for table in listed] == [(code, "Hal", 2)]
        looker.take_seat(code, 1, "Bea")
        assert [table.free for table in looker.listed().tables] == [1]
        child.stdin.write("start\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "started"
        assert looker.listed().tables == ()
        assert looker.find(code).status == "playing"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdin.close()
        child.stdout.close()


def test_a_version_9_database_gains_listing_and_its_tables_stay_unlisted() -> None:
    old_lobby(9)
    path = db_path()
    assert SCHEMA_VERSION >= 10
    with SessionStore() as store, Presence() as presence:
        assert store.notice is None
        tables = TableStore(store, presence)
        old = tables.find("KXMP")
        assert old.listed is False and old.allow_spectators  # reachable by code, as before
        assert tables.listed().tables == ()
        code = tables.host("wizards-cup", {}, 3, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                           host_name="Ana", listed=True).info.code
        assert [table.code for table in tables.listed().tables] == [code]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT listed, last_joined FROM tables WHERE code = 'KXMP'").fetchall() == [(0, None)]
    conn.close()
