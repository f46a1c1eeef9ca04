"""The table keeper's limits, each hit: its period's bounds, the moves one pass plays at a table, and the lines
it may write into the server's log."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from saves import LiveSession, Presence, SessionStore
from saves.tables import TableStore
from tests.helpers.kept_tables import ROOT, left_table, moves_by_seat
from tui.keeper import tend
from tui.keeper.run import PARENT_ENV, PERIOD_ENV, PERIOD_SECONDS, SENDER_WAIT_SECONDS, period
from tui.server.keeper_link import MAX_LINE, TableKeeper


@pytest.mark.parametrize(("text", "seconds"), [
    ("0.2", 0.2), ("0.05", 0.05), ("86400", 86400.0),  # the bounds themselves are taken
    ("0.049", PERIOD_SECONDS), ("86401", PERIOD_SECONDS), ("-1", PERIOD_SECONDS), ("nan", PERIOD_SECONDS),
    ("inf", PERIOD_SECONDS), ("sixty", PERIOD_SECONDS), ("", PERIOD_SECONDS),
])
def test_the_keeper_s_period_is_taken_only_within_its_bounds(
        monkeypatch: pytest.MonkeyPatch, text: str, seconds: float) -> None:
    monkeypatch.setenv(PERIOD_ENV, text)
    assert period() == seconds


def test_one_pass_plays_at_most_max_moves_at_a_table_and_the_next_pass_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = left_table(ana_waited=timedelta(days=2))  # Ana ran out: her bot has a team and a lineup to choose
    before = len(moves_by_seat(table.session_id))
    monkeypatch.setattr(tend, "MAX_MOVES", 1)
    with SessionStore() as store, Presence() as presence:
        tables = TableStore(store, presence)
        [first] = tend.keep_tables(tables)
        assert first.moves == 1 and first.timed_out == ["Ana"]
        assert len(moves_by_seat(table.session_id)) == before + 1
        [second] = tend.keep_tables(tables)
        assert second.moves == 1 and second.timed_out == []  # the guard cut the pass; the next one goes on
        assert tuple(LiveSession.load(store, table.session_id).to_act) == (1,)  # Bea is asked at last
    assert len(moves_by_seat(table.session_id)) == before + 2


class _Talker:
    """Stands in for the keeper's process: only its stderr is read, fed in pipe-sized pieces as a pipe would."""

    def __init__(self) -> None:
        self.stderr = asyncio.StreamReader(limit=64 * 1024)

    async def write(self, data: bytes, piece: int = 4096) -> None:
        for start in range(0, len(data), piece):
            self.stderr.feed_data(data[start:start + piece])
            # The next piece comes once the reader took this one or waits for more, as from a pipe.
            while self.stderr._buffer and self.stderr._waiter is None:  # type: ignore[attr-defined]
                await asyncio.sleep(0)
        self.stderr.feed_eof()


def test_a_keeper_line_reaches_the_log_cut_to_its_limit_printable_and_one_past_the_reader_s_limit_is_skipped(
        caplog: pytest.LogCaptureFixture) -> None:
    long_line = "table ABCD: " + "x" * (2 * MAX_LINE)
    hostile = "Bea\x1b[2J\x07 ran out"  # a name from a player, with a terminal escape in it
    huge = "y" * (200 * 1024)  # past what the relay holds of one line
    data = f"{long_line}\n{huge}\n{hostile}\nlast".encode()

    async def relay() -> None:
        talker = _Talker()
        await asyncio.gather(TableKeeper._relay(talker), talker.write(data))  # type: ignore[arg-type]

    with caplog.at_level(logging.INFO, logger="coven.serve"):
        asyncio.run(relay())
    lines = [record.getMessage() for record in caplog.records if record.name == "coven.serve"]
    assert lines == ["keeper: " + long_line[:MAX_LINE], "keeper: Bea?[2J? ran out", "keeper: last"]


def test_a_stopping_server_waits_for_the_keeper_to_send_its_notices(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A stand-in keeper that, on SIGTERM, takes what the real one may: a table, then the notices' wait.
    takes = SENDER_WAIT_SECONDS / 6 + 0.5
    script = ("import signal, sys, time\n"
              f"signal.signal(signal.SIGTERM, lambda *_: (time.sleep({takes}), sys.exit(0)))\n"
              "print('tending', file=sys.stderr, flush=True)\n"
              "signal.pause()\n")

    async def spawn(self: TableKeeper) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-c", script, stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)

    monkeypatch.setenv(PERIOD_ENV, "0.05")
    monkeypatch.setattr(TableKeeper, "_spawn", spawn)

    async def run() -> int | None:
        keeper = TableKeeper(tmp_path, tmp_path, None)
        keeper.start()
        for _ in range(600):  # up to a minute for the stand-in to start
            if "keeper: tending" in caplog.text:
                break
            await asyncio.sleep(0.1)
        assert "keeper: tending" in caplog.text
        await keeper.stop()
        assert keeper.process is not None
        return keeper.process.returncode

    with caplog.at_level(logging.INFO, logger="coven.serve"):
        assert asyncio.run(run()) == 0  # ended by itself, not killed mid-send


def test_a_keeper_whose_server_is_gone_before_it_starts_ends_at_once() -> None:
    # Its parent is this test, not the server it names: that server died and the keeper was handed on.
    env = dict(os.environ, **{PARENT_ENV: str(os.getppid()), PERIOD_ENV: "0.2"})
    ended = subprocess.run([sys.executable, "-m", "tui.keeper.run"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60, check=False)
    assert ended.returncode == 1 and "server is gone" in ended.stderr
