"""The table keeper with real processes: a turn-based table moves on while nobody is connected.

Each table is left by :func:`tests.helpers.kept_tables.left_table` with Ana asked since some time ago (its
start moved back in the database) and nobody connected; a local HTTP server the test starts receives notices.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from saves import LiveSession, Presence, SessionStore
from saves.tables import TableStore
from tests.helpers.kept_tables import ROOT, keep_once, left_table, moves_by_seat
from tests.helpers.notice_server import notice_server
from tests.helpers.ssh_client import ServeProcess, wait_until
from tui.keeper.run import PERIOD_ENV
from tui.notify.notice import BODY_KEYS


def _asked(session_id: int) -> tuple[int, ...]:
    with SessionStore() as store:
        return tuple(LiveSession.load(store, session_id).to_act)


def _seat(code: str, seat: int) -> tuple[str, str | None]:
    with SessionStore() as store, Presence() as presence:
        found = TableStore(store, presence).find(code).seats[seat]
    return found.role, found.timed_out_at


@pytest.mark.parametrize("door", ["serve", "web"])
def test_a_served_table_whose_seat_ran_out_passes_it_to_the_bot_plays_on_and_tells_the_next_seat(door: str) -> None:
    table = left_table(ana_waited=timedelta(days=2))  # a 1-day table: Ana's time ran out a day ago
    assert _asked(table.session_id) == (0,)
    env = dict(os.environ, **{PERIOD_ENV: "0.2"})
    with notice_server() as (base, received):
        with ServeProcess.start(Path(os.environ["COVEN_DATA_DIR"]), "--no-warm", "--notify-url", f"{base}/hook",
                                env=env, command=door) as server:
            [body] = received.wait_for(1)
            wait_until(lambda: f"table {table.code} (Wizards Cup): Ana ran out of time" in server.log,
                       "the keeper's line in the server's log", 60)
    assert set(body) <= BODY_KEYS
    assert (body["table"], body["game"], body["seat"]) == (table.code, "Wizards Cup", "Bea")
    assert body["deadline"] is not None  # a turn-based ask has a deadline
    role, timed_out = _seat(table.code, 0)
    assert role == "bot" and timed_out is not None  # every list and table screen reads who ran out
    assert _asked(table.session_id) == (1,)  # the bot chose Ana's team and lineup; Bea is asked now
    assert moves_by_seat(table.session_id).count(0) >= 1


def test_coven_tables_keep_reminds_an_away_player_at_half_time_once() -> None:
    table = left_table(ana_waited=timedelta(hours=13))  # past half of a 1-day move, not yet out of time
    with notice_server() as (base, received):
        first = keep_once("--notify-url", f"{base}/hook")
        [body] = received.wait_for(1)
        again = [keep_once("--notify-url", f"{base}/hook") for _ in range(2)]
        assert len(received.bodies()) == 1  # once per seat and move, however many passes
    assert first.returncode == 0 and first.stdout.strip() == \
        f"table {table.code} (Wizards Cup): reminded Ana at half time"
    assert [run.returncode for run in again] == [0, 0] and [run.stdout for run in again] == ["", ""]
    assert (body["table"], body["seat"]) == (table.code, "Ana") and "half your time" in body["title"]
    assert _seat(table.code, 0)[0] != "bot" and _asked(table.session_id) == (0,)


def test_keepers_and_a_player_opening_the_table_at_once_play_each_bot_move_once() -> None:
    table = left_table(ana_waited=timedelta(days=2))
    before = moves_by_seat(table.session_id)
    roles = ["keeper", "player", "keeper", "player"]
    children = [subprocess.Popen([sys.executable, "-m", "tests.helpers.keeper_race", role, table.code], cwd=ROOT,
                                 env=dict(os.environ), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for role in roles]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        played = []
        for child in children:
            out, _ = child.communicate(timeout=120)
            assert child.returncode == 0
            played.append(int(out.strip()))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=30)
    after = moves_by_seat(table.session_id)  # the log replays: no move was stored twice or out of turn
    assert after[:len(before)] == before
    bot_moves = after[len(before):]
    assert sum(played) == len(bot_moves) and bot_moves and set(bot_moves) == {0}
    assert sum(1 for moves in played if moves) == 1  # one process drove the table
    assert _asked(table.session_id) == (1,)  # the bots stopped where a person is asked


def test_a_keeper_that_dies_is_started_again_and_the_log_says_so() -> None:
    env = dict(os.environ, **{PERIOD_ENV: "1"})  # the server waits one period (at most 10 s) before the keeper
    with ServeProcess.start(Path(os.environ["COVEN_DATA_DIR"]), env=env) as server:
        started = re.compile(r"table keeper (\d+) started")
        wait_until(lambda: started.search(server.log) is not None, "the keeper to start", 60)
        match = started.search(server.log)
        assert match is not None
        first = int(match.group(1))
        os.kill(first, signal.SIGKILL)
        wait_until(lambda: f"table keeper {first} ended (killed by SIGKILL); starting it again" in server.log,
                   "the server to notice", 60)
        wait_until(lambda: len(started.findall(server.log)) == 2, "a new keeper", 60)
        second = int(started.findall(server.log)[1])
        assert second != first
        wait_until(lambda: _alive(second), "the new keeper to run", 30)
    assert not _alive(second)  # a stopped server stops its keeper


@pytest.mark.parametrize("door", ["serve", "web"])
def test_a_keeper_ends_when_its_server_is_killed(door: str) -> None:
    env = dict(os.environ, **{PERIOD_ENV: "0.2"})  # the keeper starts at once
    server = ServeProcess.start(Path(os.environ["COVEN_DATA_DIR"]), "--no-warm", env=env, command=door)
    keeper = None
    try:
        started = re.compile(r"table keeper (\d+) started")
        wait_until(lambda: started.search(server.log) is not None, "the keeper to start", 60)
        match = started.search(server.log)
        assert match is not None
        keeper = int(match.group(1))
        wait_until(lambda: "looks at turn-based tables" in server.log, "the keeper to run", 60)
        server.stop(signal.SIGKILL)  # no chance to stop its keeper
        wait_until(lambda: not _alive(keeper), "the orphaned keeper to end", 60)
    finally:
        server.stop()
        if keeper is not None and _alive(keeper):
            os.kill(keeper, signal.SIGKILL)  # never left tending the folder after a failed test


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"
