"""The output budget: a client that stops reading holds its own Coven back and is let go, nobody else waits.

The end-to-end test stops a real SSH client reading at the TCP level while a
five-bot WitchDraft game plays itself on a big terminal, so the game keeps
drawing far more than the budget and the kernel's socket buffers hold.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import time
from pathlib import Path

import asyncssh
import pyte

from tests.helpers.ssh_client import ServeProcess, SSHPlayer, _ScreenSession, wait_until
from tui.server.output import OutputHold

BUDGET = 64 * 1024
STALL_WAIT = 180.0
"""A bound for a busy machine: the game fills the budget in seconds, then the 10 s stall timeout runs."""
_STALL_LINE = re.compile(r"user=ana output stalled: (\d+) bytes pending, nothing read for (\d+) s "
                         r"\(budget (\d+) bytes\); disconnecting")


class _Recorder:
    """What an :class:`OutputHold` did, with a clock and a pending count the test sets."""

    def __init__(self) -> None:
        self.now = 100.0
        self.pending = 0
        self.calls: list[str] = []
        self.stalls: list[tuple[int, float]] = []

    def hold(self, stall_timeout: float = 10.0) -> OutputHold:
        return OutputHold(1000, stall_timeout, lambda: self.pending, lambda: self.calls.append("pause"),
                          lambda: self.calls.append("resume"), lambda *stall: self.stalls.append(stall),
                          clock=lambda: self.now)


def test_past_the_budget_the_child_is_held_until_the_client_catches_up() -> None:
    async def scenario() -> None:
        seen = _Recorder()
        hold = seen.hold()
        seen.pending = 1000
        hold.wrote()
        assert not hold.held and seen.calls == []  # at the budget, not past it
        seen.pending = 1001
        hold.wrote()
        assert hold.held and seen.calls == ["pause"]
        seen.pending, seen.now = 400, seen.now + 9.0
        hold.look()  # read some, but not down to a quarter of the budget
        assert hold.held
        seen.pending, seen.now = 250, seen.now + 9.0  # 18 s held, but never 10 s without progress
        hold.look()
        assert not hold.held and seen.calls == ["pause", "resume"] and seen.stalls == []
        hold.close()

    asyncio.run(scenario())


def test_a_client_that_reads_nothing_for_the_stall_timeout_is_reported_once() -> None:
    async def scenario() -> None:
        seen = _Recorder()
        hold = seen.hold(stall_timeout=10.0)
        seen.pending = 5000
        hold.wrote()
        seen.now += 9.0
        hold.look()
        assert seen.stalls == []
        seen.now += 1.0
        hold.look()
        assert seen.stalls == [(5000, 10.0)]
        hold.look()
        hold.wrote()
        assert seen.stalls == [(5000, 10.0)] and seen.calls == ["pause"]  # given up on: nothing more happens

    asyncio.run(scenario())


def test_a_full_channel_holds_too_and_its_release_cancels_the_stall() -> None:
    async def scenario() -> None:
        seen = _Recorder()
        hold = seen.hold(stall_timeout=10.0)
        seen.pending = 70_000
        hold.channel_full()  # asyncssh: the client's SSH window is used up
        hold.wrote()  # and past the budget too: both must clear
        assert seen.calls == ["pause"]
        seen.now += 5.0
        hold.channel_drained()
        assert hold.held  # still past the budget
        seen.pending = 0
        hold.look()
        assert not hold.held and seen.calls == ["pause", "resume"]
        seen.pending, seen.now = 70_000, seen.now + 1.0
        hold.channel_full()  # a new hold starts a new stall clock
        seen.now += 9.0
        hold.look()
        assert seen.stalls == []
        hold.close()

    asyncio.run(scenario())


def _rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB, from /proc."""
    rss = _rss_kib_while_alive(pid)
    if rss is None:
        raise AssertionError(f"no VmRSS for {pid}")
    return rss


def _rss_kib_while_alive(pid: int) -> int | None:
    """The resident memory of process ``pid`` in KiB; None once it has ended (a zombie has no VmRSS, a reaped
    process no /proc entry)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


async def _connect_slow_reader(port: int, columns: int, rows: int) -> SSHPlayer:
    """Ana with a tiny TCP receive buffer and an SSH window of a gigabyte: only TCP can hold the server back."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    conn = await asyncssh.connect(sock=sock, username="ana", known_hosts=None, agent_path=None, config=None,
                                  preferred_auth="none", connect_timeout=20, login_timeout=20)
    screen = pyte.Screen(columns, rows)
    session = _ScreenSession(screen)
    chan, _ = await conn.create_session(lambda: session, term_type="xterm-256color", term_size=(columns, rows),
                                        encoding=None, window=1 << 30)
    return SSHPlayer(conn, chan, session, screen)


def _seat_line(text: str, seat: int) -> str:
    return next((line for line in text.splitlines() if line.startswith(f" Seat {seat} ")), "")


async def _start_a_bot_game(player: SSHPlayer) -> None:
    """Start a five-seat WitchDraft with bots only, which plays itself."""
    player.press("n")
    await player.wait_for(lambda text: "Start game" in text and "Seat 1" in text)
    player.press("\x1b[Z", "\x1b[Z", "enter")  # from Seat 1's name back to the game's list, opened
    await player.wait_for("WitchDraft")
    player.press("down", "enter")  # the list's second game
    await player.wait_for("Draft companion cards")
    player.press("tab", "enter")  # the seat count's list
    await player.wait_for("▊  5 ")  # the list is open
    player.press("down", "down", "down", "enter")
    await player.wait_for("Seat 5")
    player.press("tab", "tab", "enter")  # Seat 1's kind: Human, then the bot levels
    await player.wait_for("Bot – easy")
    player.press("down", "enter")
    await player.wait_for(lambda text: "Bot" in _seat_line(text, 1))
    player.press("\x13")  # ctrl+s: with no human seat the game plays itself at once
    await player.wait_for("a Auto play")


def test_a_client_that_stops_reading_is_held_to_its_budget_and_dropped_while_others_play(
        coven_data_dir: Path) -> None:
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    # The stall timeout is 10 s, not less: a test process starved on a busy machine may read nothing for seconds
    # before Ana stops reading on purpose, and she must not be dropped for that.
    with ServeProcess.start(coven_data_dir, "--output-budget", "64k", "--stall-timeout", "10s", env=env) as server:
        async def scenario() -> tuple[int, int, int, int]:
            ana = await _connect_slow_reader(server.port, 200, 60)
            await ana.wait_for("C O V E N")
            await _start_a_bot_game(ana)
            [child] = server.children()
            try:
                server_before, child_before = _rss_kib(server.pid), _rss_kib(child)
            except AssertionError as gone:  # her Coven ended before she stopped reading: the log says why
                raise AssertionError(f"{gone}; the server logged:\n{server.log}") from None
            transport = ana.conn._transport  # asyncssh's own; Ana reads nothing from now on
            assert transport is not None
            transport.pause_reading()

            bea = await SSHPlayer.connect(server.port, "bea")
            await bea.wait_for("C O V E N", timeout=60)
            peaks = [server_before, child_before]

            def sample() -> None:
                peaks[0] = max(peaks[0], _rss_kib(server.pid))
                # The stalled player's process may end between any check and the read: it is dropped on purpose.
                peaks[1] = max(peaks[1], _rss_kib_while_alive(child) or 0)

            def sampled_until_reaped() -> bool:
                sample()
                return child not in server.children()

            # Bea's keys are answered while Ana's game is held, and after Ana is dropped.
            deadline = time.monotonic() + STALL_WAIT
            while "output stalled" not in server.log:
                assert time.monotonic() < deadline, f"Ana was never dropped; the server logged:\n{server.log}"
                for key, answer in (("s", "Saved sessions"), ("escape", "C O V E N")):
                    bea.press(key)
                    await bea.wait_for(answer, timeout=30)
                    sample()
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: wait_until(sampled_until_reaped,
                                         "the stalled player's process to be reaped", 60))
            bea.press("s")
            await bea.wait_for("Saved sessions", timeout=30)
            await bea.close()
            ana.conn.abort()
            return server_before, child_before, peaks[0], peaks[1]

        server_before, child_before, server_peak, child_peak = asyncio.run(scenario())
        log = server.log
    print(f"\nwhile Ana was stalled: server RSS {server_before} -> {server_peak} KiB, "
          f"her Coven {child_before} -> {child_peak} KiB")
    stall = _STALL_LINE.search(log)
    assert stall is not None, log
    pending, seconds, budget = map(int, stall.groups())
    assert pending > budget == BUDGET and seconds >= 10
    # Generous bounds: the budget is 64 KiB; without it the same game queued some 18 MiB in the server.
    assert server_peak - server_before < 10 * 1024
    assert child_peak - child_before < 64 * 1024
