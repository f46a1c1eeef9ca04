"""Who ``coven serve`` lets in: the memory floor, and a full server's idle seats (tui/server/admission.py)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest

from tests.helpers.serve_game import open_table
from tests.helpers.ssh_client import ROOT, ServeProcess, SSHPlayer, wait_until
from tui.serve_status import ServeStatus
from tui.server.admission import SEAT_CHANGE_SECONDS, ChildStatus, MemoryFloor, available_memory, idle_seat
from tui.server.config import ServeUsageError, parse_memory_floor

FULL_HOST = "This host is full right now"
TABLE_FULL = r"The table is full \(at most 2 at once\); try again later."
ATTEMPTS_SECONDS = 90.0
"""A bound for a busy machine on retrying a newcomer until the server thinks a seat idle (it takes seconds)."""


def _mem_total_kib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1])
    raise AssertionError("no MemTotal in /proc/meminfo")


# -- memory ------------------------------------------------------------------------------------------


def test_below_the_memory_floor_a_newcomer_hears_the_host_is_full(coven_data_dir: Path) -> None:
    # More than the whole machine has: MemAvailable is below it whatever else runs here.
    floor = f"{_mem_total_kib() + (1 << 20)}K"
    with ServeProcess.start(coven_data_dir, "--memory-floor", floor) as server:
        async def scenario() -> None:
            with pytest.raises(asyncssh.DisconnectError, match=FULL_HOST):
                await SSHPlayer.connect(server.port, "ana")

        asyncio.run(scenario())
        wait_until(lambda: "MemAvailable" in server.log, "the refusal in the log", 60)
        log = server.log
        assert not server.children()
    assert "user=ana refused: This host is full right now (it is short of memory)" in log
    # The figure and the floor, so the host sees how far off it was.
    assert re.search(r"user=ana refused: .* \(MemAvailable [\d.]+ [MG]iB, floor [\d.]+ GiB\)", log), log


def test_above_the_memory_floor_a_player_gets_in(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--memory-floor", "1M") as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for("C O V E N")
            await player.close()

        asyncio.run(scenario())
    assert "refused" not in server.log


def test_meminfo_is_read_and_a_system_without_it_turns_the_check_off(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       16384000 kB\nMemFree:          100000 kB\nMemAvailable:     204800 kB\n")
    assert available_memory(meminfo) == 200 << 20
    assert MemoryFloor(256 << 20, meminfo).shortfall() == 200 << 20
    assert MemoryFloor(128 << 20, meminfo).shortfall() is None
    assert MemoryFloor(0, meminfo).shortfall() is None  # --memory-floor 0
    missing = tmp_path / "no-such-meminfo"
    assert available_memory(missing) is None
    assert MemoryFloor(1 << 40, missing).shortfall() is None and not MemoryFloor(1 << 40, missing).enabled
    meminfo.write_text("MemTotal: 16384000 kB\n")  # an old kernel without the line
    assert MemoryFloor(1 << 40, meminfo).shortfall() is None


def test_memory_sizes_take_units_and_zero() -> None:
    assert parse_memory_floor("256M") == 256 << 20
    assert parse_memory_floor("1G") == parse_memory_floor("1g") == parse_memory_floor("1GiB") == parse_memory_floor("1 GB") == 1 << 30
    assert parse_memory_floor("1.5G") == 3 << 29
    assert parse_memory_floor("512k") == 512 << 10
    assert parse_memory_floor("0") == parse_memory_floor("0M") == 0
    for bad in ("256", "lots", "-1G", "1P", ""):
        with pytest.raises(ServeUsageError, match="--memory-floor takes a size such as 256M or 1G"):
            parse_memory_floor(bad)


@pytest.mark.parametrize(("args", "message"), [
    (["--memory-floor", "256"], "--memory-floor takes a size such as 256M or 1G (or 0 for off), not '256'."),
    (["--idle-seat-grace", "soon"], "--idle-seat-grace takes a duration such as 90s, 30m or 1h"),
    (["--idle-seat-grace", "0"], "--idle-seat-grace must be longer than zero."),
])
def test_bad_admission_flags_are_one_line_errors(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "tui.cli", "serve", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=os.environ)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr


# -- what a player's Coven tells the server ------------------------------------------------------------


def test_a_coven_tells_the_server_it_is_up_and_whether_it_is_seated() -> None:
    async def scenario() -> list[str]:
        heard: list[str] = []
        status = ChildStatus(heard.append)
        # The child's own copy of its end, as a started child has: listen() closes the server's.
        child = ServeStatus.from_environment({"COVEN_SERVE_STATUS_FD": str(os.dup(status.child_fd))})
        assert status.environment() == {"COVEN_SERVE_STATUS_FD": str(status.child_fd)}
        status.listen()
        child.tell("ready")
        child.screen_shown("lobby", seated=True)
        child.screen_shown("game", seated=True)
        child.screen_gone("lobby")  # still in the game
        child.screen_shown("watching", seated=False)
        child.tell("x" * 5000)  # no word of a Coven's: ignored
        child.screen_gone("game")
        child.close()
        for _ in range(6000):
            await asyncio.sleep(0.01)
            if status.closed:  # the child's end closed: everything it said was read
                break
        assert status.ready and status.seated  # it left its seat only a moment ago
        status._left_seat_at -= SEAT_CHANGE_SECONDS
        assert not status.seated
        return heard

    assert asyncio.run(scenario()) == ["ready", "seated", "free"]


def test_without_coven_serve_a_coven_says_nothing() -> None:
    for environment in ({}, {"COVEN_SERVE_STATUS_FD": ""}, {"COVEN_SERVE_STATUS_FD": "x"},
                        {"COVEN_SERVE_STATUS_FD": "99999"}):  # 99999: no such descriptor
        status = ServeStatus.from_environment(environment)
        status.tell("ready")  # goes nowhere, and raises nothing
        assert not status.talking


@dataclass
class _Seat:
    name: str
    admitted_at: float = 0.0
    last_input: float = 0.0
    ready: bool = True
    seated: bool = False
    live: bool = True


def test_the_idle_seat_closed_first_never_came_up_else_pressed_no_key_longest() -> None:
    grace = 60.0
    typing = _Seat("typing", last_input=990.0)
    seated = _Seat("seated", seated=True)  # idle the longest, and in a game
    quiet = _Seat("quiet", last_input=500.0)
    quieter = _Seat("quieter", last_input=400.0)
    stuck = _Seat("stuck", ready=False, last_input=995.0)  # its Coven never came up, typed or not
    new = _Seat("new", admitted_at=980.0, ready=False)
    gone = _Seat("gone", live=False)
    assert idle_seat([typing, seated, quiet, quieter, stuck, new, gone], 1000.0, grace) is stuck
    assert idle_seat([typing, seated, quiet, quieter, new, gone], 1000.0, grace) is quieter
    assert idle_seat([typing, seated, new, gone], 1000.0, grace) is None


# -- idle seats on a real server -------------------------------------------------------------------------


async def _connect_until_admitted(port: int, name: str) -> SSHPlayer:
    """Connect ``name`` again and again while the table is full (until a seat counts as idle)."""
    deadline = time.monotonic() + ATTEMPTS_SECONDS
    while True:
        try:
            return await SSHPlayer.connect(port, name)
        except asyncssh.DisconnectError as error:
            assert "The table is full" in str(error.reason), error.reason
            if time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.5)


def test_a_full_server_closes_a_never_typed_session_for_a_newcomer(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--max-sessions", "2", "--idle-seat-grace", "3s",
                            "--rate-burst", "1000") as server:
        async def scenario() -> None:
            idle = await SSHPlayer.connect(server.port, "ida")  # opens a terminal and never types
            await idle.wait_for("C O V E N")
            busy = await SSHPlayer.connect(server.port, "bo")
            await busy.wait_for("C O V E N")

            async def keep_typing() -> None:
                while True:
                    busy.press("down")  # moves the menu's focus; harmless
                    await asyncio.sleep(0.3)

            typing = asyncio.create_task(keep_typing())
            try:
                newcomer = await _connect_until_admitted(server.port, "cy")
                await newcomer.wait_for("C O V E N")
                await idle.wait_closed(timeout=30)
                assert b"Coven is full and this terminal was idle for 3 seconds; its place went to another " \
                       b"player. Goodbye.\r\n" in idle.session.received
                assert not busy.session.closed.is_set()
            finally:
                typing.cancel()
            busy.press("down")
            await busy.wait_for("C O V E N")
            for player in (busy, newcomer):
                await player.close()

        asyncio.run(scenario())
        log = server.log
    assert "user=ida menu reached after" in log
    assert "user=ida idle seat closed for newcomer #" in log
    assert "user=bo idle seat closed" not in log


def test_a_seated_player_is_never_closed_for_a_newcomer(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--max-sessions", "2", "--idle-seat-grace", "1s",
                            "--rate-burst", "1000") as server:
        async def scenario() -> None:
            ana, bea, code, _ = await open_table(server)  # both seated in a Wizards Cup game, and now idle
            deadline = time.monotonic() + 60
            while not all(f"user={name} seated in a game" in server.log for name in ("ana", f"bea+{code}")):
                assert time.monotonic() < deadline, server.log
                await asyncio.sleep(0.1)
            deadline = time.monotonic() + ATTEMPTS_SECONDS
            # Until the server itself counts both as idle: only their seats keep them.
            while "2 seated in a game, 2 of them idle for 1 second" not in server.log:
                with pytest.raises(asyncssh.DisconnectError, match=TABLE_FULL):
                    await SSHPlayer.connect(server.port, "cy")
                assert time.monotonic() < deadline, server.log
                await asyncio.sleep(0.5)
            assert "idle seat closed" not in server.log
            assert not ana.session.closed.is_set() and not bea.session.closed.is_set()
            assert len(server.children()) == 2
            await ana.close()
            await bea.close()

        asyncio.run(scenario())
