"""Shared tables: codes, seats, tokens, presence, starting, bots and the store's seat-claim check."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine import GameSpec
from engine.core import InvalidOptionsError, UnknownGameError
from saves import (
    JOIN_CODE_ALPHABET,
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    LiveSession,
    Presence,
    SeatClaimError,
    SeatInfo,
    SeatPlan,
    SeatTakenError,
    SessionLoadError,
    SessionStore,
    TableError,
    TableNotFoundError,
    TableStore,
    db_path,
    normalise_code,
)
from saves.table_records import hash_token

REPO = Path(__file__).resolve().parents[1]
PLAN = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]

Opener = Callable[[], TableStore]


@pytest.fixture
def open_tables(fake_spec: GameSpec, tmp_path: Path) -> Iterator[Opener]:
    """Open a TableStore as another process would: its own connection and its own presence."""
    with ExitStack() as stack:

        def opener() -> TableStore:
            store = stack.enter_context(SessionStore())
            presence = stack.enter_context(Presence(tmp_path / "presence"))
            return TableStore(store, presence)

        yield opener


def host_table(tables: TableStore, plan: list[SeatPlan] = PLAN) -> tuple[str, str]:
    hosted = tables.host("count-to-ten", {}, 7, plan, host_name="Ana")
    return hosted.info.code, hosted.token


def started(open_tables: Opener) -> tuple[TableStore, TableStore, int]:
    """A started two-seat table: the host plays seat 0 locally, Bea seat 1 from another connection."""
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    return host, bea, host.start(code)


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
        ("count-to-ten", {}, [PLAN[0], SeatPlan("local", "   ")], TableError, "non-blank"),
        ("count-to-ten", {}, [PLAN[0], SeatPlan("local", "Bea\x1b[2J")], TableError, "control characters"),
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
    with pytest.raises(BadTokenError, match=f"^That seat token does not match any seat at table {code}.$"):
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


def test_a_finished_game_ends_its_table(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host, [SeatPlan("remote", "Seat 1"), SeatPlan("bot", "Robo", "easy")])
    bea.take_seat(code, 0, "Bea")
    session_id = host.start(code)
    assert host.store.latest_unfinished() is None  # Continue must not open a table's game
    mine = LiveSession.load(bea.store, session_id, claim=bea.claim)
    hosts = LiveSession.load(host.store, session_id, claim=host.claim)
    while not mine.finished:
        hosts.sync()
        if hosts.table_action is not None:
            hosts.play_table()
        elif hosts.to_act == (1,):
            hosts.apply(1, {"add": 2})
        else:
            mine.sync()
            mine.apply(0, {"add": 2})
        mine.sync()
    assert not host.is_live(code)
    with pytest.raises(TableNotFoundError):
        bea.find(code)
    table = host.table_of_session(session_id)
    assert table is not None and table.status == "closed"


def test_closing_a_lobby_frees_it(open_tables: Opener) -> None:
    host = open_tables()
    code, _ = host_table(host)
    host.close(code.lower())
    assert not host.is_live(code)
    with pytest.raises(TableNotFoundError):
        open_tables().take_seat(code, 1, "Bea")


# -- bots ------------------------------------------------------------------------------


def test_a_dropped_seat_goes_to_a_bot_only_after_the_reclaim_window(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    session_id = host.start(code)
    with pytest.raises(TableError, match="Seat 2 \\(Bea\\) is still connected"):
        host.hand_to_bot(code, 1, "easy")
    bea.presence.close()  # Bea's process is gone
    dropped = host.clock()
    with pytest.raises(TableError, match="kept for its player for 10 more minutes"):
        host.hand_to_bot(code, 1, "easy")  # even before a refresh noticed the drop
    host.refresh(code)
    host.clock = lambda: dropped + timedelta(seconds=RECLAIM_WINDOW_SECONDS - 61)
    with pytest.raises(TableError, match="for 2 more minutes"):
        host.hand_to_bot(code, 1, "easy")
    assert host.find(code).seats[1].reserved(host.clock())
    host.clock = lambda: dropped + timedelta(seconds=RECLAIM_WINDOW_SECONDS + 1)
    assert not host.find(code).seats[1].reserved(host.clock())
    with pytest.raises(InvalidOptionsError, match="unknown bot level 'godlike'"):
        host.hand_to_bot(code, 1, "godlike")
    with pytest.raises(TableError, match="Only the host"):
        open_tables().hand_to_bot(code, 1, "easy")
    with pytest.raises(TableError, match="Seat 1 \\(Ana\\) is not a remote seat"):
        host.hand_to_bot(code, 0, "easy")
    host.hand_to_bot(code, 1, "easy")
    seat = host.find(code).seats[1]
    assert (seat.role, seat.bot_level, seat.name) == ("bot", "easy", "Bea")
    assert [(s.kind, s.bot_level) for s in host.store.seats_of(session_id)] == [("human", None), ("bot", "easy")]
    # The bot is the host's to play now, and its old token no longer reclaims the seat.
    beas_screen = LiveSession.load(bea.store, session_id)  # opened before the hand-over...
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    assert live.seats[1].is_bot
    live.apply(0, {"add": 1})
    live.apply(1, {"add": 1})
    with pytest.raises(BadTokenError, match=f"Seat 2 \\(Bea\\) at table {code} was handed to a bot"):
        open_tables().reclaim(code, token)
    assert len(beas_screen.sync()) == 2 and beas_screen.seats[1].is_bot  # ...sees it after a sync


def test_an_open_seat_can_go_to_a_bot_at_once(open_tables: Opener) -> None:
    host = open_tables()
    code, _ = host_table(host)
    host.hand_to_bot(code, 1, "hard")
    info = host.find(code)
    assert info.ready and info.seats[1].claim is None
    session_id = host.start(code)
    assert host.store.seats_of(session_id)[1].is_bot


# -- the store's claim check, data_version and sync ----------------------------------------


def test_the_store_refuses_actions_for_seats_this_connection_does_not_hold(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    store = host.store
    with pytest.raises(SeatClaimError, match="^Seat 1 is not played from this connection.$"):
        store.append_action(session_id, 1, 0, {"add": 1}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="Seat 1 is not played"):
        store.append_action(session_id, 1, 0, {"add": 1})  # no claim at all
    store.append_action(session_id, 1, 0, {"add": 1}, claim=host.claim)
    with pytest.raises(SeatClaimError, match="Seat 2 is not played"):
        store.append_action(session_id, 2, 1, {"add": 1}, claim=host.claim)
    store.append_action(session_id, 2, 1, {"add": 1}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="automatic steps"):
        store.append_action(session_id, 3, None, {"bump": 0}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="Seat 5 is not a seat"):
        store.append_action(session_id, 3, 4, {"add": 1}, claim=host.claim)
    assert store.log_length(session_id) == 2
    # Through LiveSession too: nothing is stored and the state does not move.
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    assert beas.to_act == (0,)
    digest = beas.digest
    with pytest.raises(SeatClaimError):
        beas.apply(0, {"add": 1})
    assert beas.digest == digest and len(beas.log) == 2 == store.log_length(session_id)


def test_sessions_without_a_table_ignore_claims(open_tables: Opener) -> None:
    store = open_tables().store
    session_id = store.create_session("count-to-ten", {"target": 10}, 1, host_seats())
    store.append_action(session_id, 1, 0, {"add": 1}, claim="0123456789abcdef")
    store.append_action(session_id, 2, 1, {"add": 1})
    assert store.log_length(session_id) == 2
    assert store.latest_unfinished() == session_id


def host_seats() -> list[SeatInfo]:
    return [SeatInfo("Ana"), SeatInfo("Bea")]


def test_data_version_changes_only_on_other_connections_commits(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    mine, other = host.store.data_version(), bea.store.data_version()
    host.store.append_action(session_id, 1, 0, {"add": 1}, claim=host.claim)
    assert host.store.data_version() == mine
    assert bea.store.data_version() != other
    other = bea.store.data_version()
    assert bea.store.data_version() == other  # stable while nobody writes


def test_sync_catches_up_with_another_connection(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    hosts = LiveSession.load(host.store, session_id, claim=host.claim)
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    assert beas.sync() == []
    hosts.apply(0, {"add": 2})
    (events,) = beas.sync()
    assert [e.text for e in events] == ["Ana adds 2; the total is 2."]
    beas.apply(1, {"add": 1})
    assert hosts.sync() == [beas.events_at(2)]
    hosts.apply(0, {"add": 1})
    assert hosts.table_action is not None  # the third move makes the table due
    hosts.play_table()
    assert len(beas.sync()) == 2
    assert beas.digest == hosts.digest and len(beas.log) == len(hosts.log) == 4
    assert beas.log == hosts.log


def test_sync_refuses_a_tampered_entry(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    conn = sqlite3.connect(db_path())
    conn.execute(  # written behind the store's back: seat 1 out of turn
        "INSERT INTO actions (session_id, seq, seat, action, created) VALUES (?, 1, 1, '{\"add\":1}', 'now')",
        (session_id,),
    )
    conn.commit()
    conn.close()
    with pytest.raises(SessionLoadError, match="action 1 is illegal"):
        beas.sync()
    assert beas.log == ()
