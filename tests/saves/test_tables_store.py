"""Shared tables: join codes, hosting, seats and tokens, presence, starting and closing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.core import InvalidOptionsError, UnknownGameError
from saves import (
    JOIN_CODE_ALPHABET,
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    SeatPlan,
    SeatTakenError,
    TableError,
    TableNotFoundError,
    db_path,
    normalise_code,
)
from saves.table_tokens import hash_token
from tests.helpers.table_helpers import PLAN, Opener, host_table

REPO = Path(__file__).resolve().parents[2]


# -- codes -----------------------------------------------------------------------


def test_normalise_code() -> None:
    assert normalise_code("abcd") == "ABCD"
    assert normalise_code("  XyZw \n") == "XYZW"
    for bad in ("ABC", "ABCDE", "AB1D", "ABCI", "LOVE", "AB D", "", "ÄBCD"):
        assert normalise_code(bad) is None, bad
    assert not set("ILO") & set(JOIN_CODE_ALPHABET)


def test_find_accepts_any_case_and_unknown_codes_say_so(open_tables: Opener) -> None:
    tables = open_tables()
    code, _ = host_table(tables)
    assert len(code) == 4 and set(code) <= set(JOIN_CODE_ALPHABET)
    assert tables.find(f" {code.lower()} ").code == code
    assert tables.is_live(code.lower())
    other = "".join(next(c for c in JOIN_CODE_ALPHABET if c != ch) for ch in code)
    with pytest.raises(TableNotFoundError, match=f"^No open table has the code {other}.$"):
        tables.find(other.lower())
    assert not tables.is_live(other)
    assert not tables.is_live("not a code")


def test_codes_are_unique_among_live_tables_only(open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = open_tables()
    first, _ = host_table(tables)
    # Make the generator offer the taken code first: it must pick another.
    fresh = "WXYZ" if first != "WXYZ" else "ABCD"
    codes = iter([first, fresh, first])
    monkeypatch.setattr("saves.table_rows.random_code", lambda: next(codes))
    second, _ = host_table(tables)
    assert second == fresh
    tables.close(first)
    assert host_table(tables)[0] == first  # a closed table's code is free again
    conn = sqlite3.connect(db_path())
    with pytest.raises(sqlite3.IntegrityError):  # the partial unique index is the backstop
        conn.execute(
            "INSERT INTO tables (code, game_id, options, seed, status, host_name, host_token_hash, created, updated)"
            " VALUES (?, 'count-to-ten', '{}', 1, 'lobby', 'X', 'h', 'now', 'now')",
            (first,),
        )
    conn.close()


# -- hosting ----------------------------------------------------------------------


def test_host_holds_local_and_bot_seats_and_leaves_remote_ones_open(open_tables: Opener) -> None:
    tables = open_tables()
    plan = [SeatPlan("remote", "Seat 1"), SeatPlan("bot", "Robo", "hard")]
    hosted = tables.host("count-to-ten", {"target": 15}, 3, plan, host_name=" Ana ", allow_spectators=True)
    info = hosted.info
    assert (info.status, info.host_claim, info.host_name, info.session_id) == ("lobby", tables.claim, "Ana", None)
    assert info.options == {"target": 15} and info.seed == 3 and info.allow_spectators
    assert [(s.role, s.name, s.bot_level, s.claim) for s in info.seats] == [
        ("remote", "Seat 1", None, None),
        ("bot", "Robo", "hard", tables.claim),
    ]
    assert info.open_seats() == [0]
    assert info.seats_of(tables.claim) == [1]
    assert not info.ready
    assert tables.my_tables() == [info]
    # The token is shown once and only its hash is stored.
    conn = sqlite3.connect(db_path())
    (stored,) = conn.execute("SELECT host_token_hash FROM tables").fetchone()
    assert stored == hash_token(hosted.token) and hosted.token not in stored
    conn.close()


@pytest.mark.parametrize(
    ("game", "options", "plan", "error", "message"),
    [
        ("chess", {}, PLAN, UnknownGameError, "unknown game 'chess'"),
        ("count-to-ten", {"target": 11}, PLAN, InvalidOptionsError, "target"),
        ("count-to-ten", {}, PLAN[:1], InvalidOptionsError, "played with 2 seats, not 1"),
        ("count-to-ten", {}, [PLAN[0], SeatPlan("bot", "Robo", "godlike")], InvalidOptionsError, "seat 2 \\(Robo\\)"),
        ("count-to-ten", {}, [PLAN[0], SeatPlan("bot", "Robo")], InvalidOptionsError, "bot with no level"),
        ("count-to-ten", {}, [PLAN[0], SeatPlan("local", "   ")], TableError, "seat 2 must not be blank"),
        ("count-to-ten", {}, [PLAN[0], SeatPlan("local", "Bea\x1b[2J")], TableError, "seat 2 must not contain a control character \\(U\\+001B\\)"),
    ],
)
def test_host_validates_through_the_registry(
    open_tables: Opener, game: str, options: dict[str, int], plan: list[SeatPlan], error: type, message: str
) -> None:
    tables = open_tables()
    with pytest.raises(error, match=message):
        tables.host(game, options, 1, plan, host_name="Ana")
    assert tables.my_tables() == []


# -- seats and tokens -----------------------------------------------------------------


def test_a_seat_goes_to_whoever_takes_it_first(open_tables: Opener) -> None:
    host, bea, cy = open_tables(), open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code.lower(), 1, "  Bea ")
    with pytest.raises(SeatTakenError, match="^Seat 2 was just taken by Bea.$"):
        cy.take_seat(code, 1, "Cy")
    with pytest.raises(SeatTakenError, match="Seat 1 is not open"):
        cy.take_seat(code, 0, "Cy")
    with pytest.raises(TableError, match="has no seat 3"):
        cy.take_seat(code, 2, "Cy")
    info = host.find(code)
    assert (info.seats[1].name, info.seats[1].claim, info.seats[1].has_token) == ("Bea", bea.claim, True)
    assert info.open_seats() == [] and info.ready
    assert bea.my_tables() == [info] and cy.my_tables() == []
    conn = sqlite3.connect(db_path())
    assert conn.execute("SELECT token_hash FROM table_seats WHERE seat = 1").fetchone() == (hash_token(token),)
    conn.close()


TAKER = """
import sys
from saves import Presence, SessionStore, TableStore
from pathlib import Path
tables = TableStore(SessionStore(), Presence(Path(sys.argv[2])))
print(tables.take_seat(sys.argv[1], 1, "Bea"), flush=True)
sys.stdin.read()
"""


def test_a_killed_player_is_noticed_and_reclaims_the_seat_with_its_token(open_tables: Opener, tmp_path: Path) -> None:
    host = open_tables()
    code, _ = host_table(host)
    child = subprocess.Popen(
        [sys.executable, "-c", TAKER, code, str(tmp_path / "presence")],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None
    token = child.stdout.readline().strip()
    try:
        seat = host.refresh(code).seats[1]
        assert seat.claim is not None and seat.dropped_at is None  # alive: nothing cleared
        before = host.store.data_version()
        host.refresh(code)
        assert host.store.data_version() == before  # and nothing written
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdin.close()
        child.stdout.close()
    seat = host.refresh(code).seats[1]
    assert (seat.claim, seat.has_token, seat.dropped_at is not None) == (None, True, True)
    assert seat.reserved(datetime.now(UTC)) and not seat.is_open
    assert host.find(code).open_seats() == [] and not host.find(code).ready

    back = open_tables()
    with pytest.raises(BadTokenError, match=f"^That seat token does not match any seat at table {code} \\(4 tries left"):
        back.reclaim(code, "AAAA-2222")
    assert back.reclaim(code, token.lower().replace("-", " ")) == [1]
    seat = back.find(code).seats[1]
    assert (seat.claim, seat.dropped_at, seat.name) == (back.claim, None, "Bea")


def test_a_dropped_players_seat_is_kept_for_them(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    bea.release_mine()
    with pytest.raises(SeatTakenError, match="^Seat 2 is kept for Bea, who may come back with a token.$"):
        open_tables().take_seat(code, 1, "Cy")
    seat = host.find(code).seats[1]
    naive_now = datetime.now(UTC).replace(tzinfo=None)  # taken as UTC
    assert seat.reserved(naive_now) and not seat.reserved(naive_now + timedelta(seconds=RECLAIM_WINDOW_SECONDS))


def test_a_seat_whose_holder_lives_cannot_be_reclaimed(open_tables: Opener) -> None:
    host, bea, thief = open_tables(), open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    with pytest.raises(TableError, match="Seat 2 \\(Bea\\) is still connected"):
        thief.reclaim(code, token)
    assert host.find(code).seats[1].claim == bea.claim
    assert bea.reclaim(code, token) == [1]  # the holder itself may


def test_the_host_token_restores_the_host_role_and_local_seats(open_tables: Opener) -> None:
    host = open_tables()
    code, host_token = host_table(host)
    with pytest.raises(TableError, match="host .* is still connected"):
        open_tables().reclaim(code, host_token)
    host.presence.close()  # the host's process is gone
    watcher = open_tables()
    info = watcher.refresh(code)
    assert info.host_claim is None and info.seats[0].claim is None and info.seats[0].dropped_at is not None
    assert info.host_name == "Ana"
    new_host = open_tables()
    assert new_host.reclaim(code, host_token) == [0]
    info = new_host.find(code)
    assert (info.host_claim, info.seats[0].claim, info.seats[0].dropped_at) == (new_host.claim, new_host.claim, None)


def test_release_mine_lets_go_of_every_claim(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    bea.release_mine()
    seat = host.find(code).seats[1]
    assert seat.claim is None and seat.dropped_at is not None and seat.has_token
    host.release_mine()
    assert host.find(code).host_claim is None
    assert host.my_tables() == [] and bea.my_tables() == []


# -- starting and closing -----------------------------------------------------------------


def test_only_the_host_starts_and_only_when_every_remote_seat_is_held(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    with pytest.raises(TableError, match="Seat 2 \\(Seat 2\\) is not connected yet"):
        host.start(code)
    bea.take_seat(code, 1, "Bea")
    with pytest.raises(TableError, match=f"Only the host of table {code}"):
        bea.start(code)
    with pytest.raises(TableError, match=f"Only the host of table {code}"):
        bea.close(code)
    session_id = host.start(code)
    info = host.find(code)
    assert (info.status, info.session_id) == ("playing", session_id)
    assert host.table_of_session(session_id) == info
    with pytest.raises(TableError, match="already started"):
        host.start(code)
    record = host.store.load(session_id)
    assert [s.name for s in record.seats] == ["Ana", "Bea"] and record.seed == 7
    assert record.options == {"target": 10}


def test_closing_a_lobby_frees_it(open_tables: Opener) -> None:
    host = open_tables()
    code, _ = host_table(host)
    host.close(code.lower())
    assert not host.is_live(code)
    with pytest.raises(TableNotFoundError):
        open_tables().take_seat(code, 1, "Bea")


LEAVER = """
import sys
from saves import Presence, SessionStore, TableStore
from pathlib import Path
tables = TableStore(SessionStore(), Presence(Path(sys.argv[2])))
token = tables.take_seat(sys.argv[1], 1, "Bea")
print("seated", flush=True)
for line in sys.stdin:
    if line.strip() == "leave":
        tables.release_mine(left=True)
        print("left", flush=True)
    elif line.strip() == "back":
        print(tables.reclaim(sys.argv[1], token), flush=True)
"""


def test_a_player_who_leaves_by_choice_is_told_apart_from_one_who_drops(open_tables: Opener, tmp_path: Path) -> None:
    host = open_tables()
    code, _ = host_table(host)
    child = subprocess.Popen(
        [sys.executable, "-c", LEAVER, code, str(tmp_path / "presence")],
        cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdin is not None

    def ask(command: str) -> str:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(command + "\n")
        child.stdin.flush()
        return child.stdout.readline().strip()

    try:
        assert child.stdout.readline().strip() == "seated"
        assert host.refresh(code).seats[1].left is False  # seated: neither
        assert ask("leave") == "left"
        seat = host.refresh(code).seats[1]  # Bea's Coven lives on (at its menu): nothing of hers is cleared again
        assert (seat.claim, seat.left, seat.dropped_at is not None, seat.reserved(datetime.now(UTC))) == (
            None, True, True, True)
        assert ask("back") == "[1]"
        seat = host.refresh(code).seats[1]
        assert (seat.claim is not None, seat.left, seat.dropped_at) == (True, False, None)
    finally:
        child.send_signal(signal.SIGKILL)  # now Bea's Coven dies at the table: a drop
        child.wait(timeout=30)
        child.stdin.close()
        child.stdout.close()
    seat = host.refresh(code).seats[1]
    assert (seat.claim, seat.left, seat.dropped_at is not None) == (None, False, True)
