"""The pty bridge of ``coven serve`` on its own: sizes, back-pressure, bounded input, hanging up."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tui.server.pty_bridge import INPUT_LIMIT, PtyChild

_PYTHON = [sys.executable, "-c"]


class _Sink:
    """Collects a child's output and its exit status."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.status: int | None = None
        self.exited = asyncio.Event()

    def output(self, data: bytes) -> None:
        self.data += data

    def exit(self, status: int) -> None:
        self.status = status
        self.exited.set()

    async def wait_for(self, text: bytes, timeout: float = 10.0) -> None:
        async def poll() -> None:
            while text not in self.data:
                await asyncio.sleep(0.02)
        await asyncio.wait_for(poll(), timeout)


def _child(code: str, sink: _Sink, columns: int = 80, rows: int = 24) -> PtyChild:
    env = {"PATH": os.defpath, "LANG": "C.UTF-8"}
    return PtyChild([*_PYTHON, code], env, columns, rows, sink.output, sink.exit, label="test")


def test_the_child_starts_at_the_size_and_sees_every_resize_with_its_own_terminal() -> None:
    code = ("import os, signal, sys, time\n"
            "show = lambda *_: print('size', *os.get_terminal_size(0), flush=True)\n"
            "signal.signal(signal.SIGWINCH, show)\n"
            "show(); print('tty', os.ttyname(0) == os.ttyname(1), os.getsid(0) == os.getpid(),"
            " os.tcgetpgrp(0) == os.getpgrp(), flush=True)\n"
            "time.sleep(30)\n")

    async def scenario() -> None:
        sink = _Sink()
        child = _child(code, sink, 100, 30)
        await child.start()
        await sink.wait_for(b"size 100 30")
        await sink.wait_for(b"tty True True True")
        child.resize(132, 43)
        await sink.wait_for(b"size 132 43")
        assert await child.hang_up() == -1  # SIGHUP ended it
        assert sink.exited.is_set()

    asyncio.run(scenario())


def test_a_server_that_ignores_hang_ups_still_hangs_its_children_up() -> None:
    """Under ``nohup`` the server ignores SIGHUP; its children must not inherit that, or a dropped player lingers."""
    code = ("import signal, time\n"
            "print('hup', signal.getsignal(signal.SIGHUP) == signal.SIG_DFL,"
            " signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, flush=True)\n"
            "time.sleep(30)\n")

    async def scenario() -> None:
        sink = _Sink()
        child = _child(code, sink)
        await child.start()
        await sink.wait_for(b"hup ", timeout=60)
        await sink.wait_for(b"\n", timeout=60)
        assert b"hup True True" in sink.data, bytes(sink.data)
        assert await child.hang_up() == -signal.SIGHUP  # ended by the hang-up, not the later SIGKILL

    ignored = {number: signal.signal(number, signal.SIG_IGN) for number in (signal.SIGHUP, signal.SIGTERM)}
    try:
        asyncio.run(scenario())
    finally:
        for number, handler in ignored.items():
            signal.signal(number, handler)


def test_output_is_not_read_while_the_channel_is_full() -> None:
    code = "import sys\nwhile True:\n    sys.stdout.write('x' * 4096); sys.stdout.flush()\n"

    async def scenario() -> None:
        sink = _Sink()
        child = _child(code, sink)
        await child.start()
        await sink.wait_for(b"x" * 8192)
        child.pause_output()
        # A read already under way may still land (later on a busy machine): wait for a quiet moment first.
        # Were output not paused, the child's endless writes would never give one.
        held, quiet_since = len(sink.data), asyncio.get_running_loop().time()
        deadline = quiet_since + 30
        while asyncio.get_running_loop().time() - quiet_since < 1.0:
            assert asyncio.get_running_loop().time() < deadline, "output never stopped after pause_output"
            await asyncio.sleep(0.02)
            if len(sink.data) != held:
                held, quiet_since = len(sink.data), asyncio.get_running_loop().time()
        await asyncio.sleep(0.5)
        assert len(sink.data) == held  # the child blocks on its full pty instead
        child.resume_output()
        await sink.wait_for(b"x" * (held + 65536))
        await child.hang_up()

    asyncio.run(scenario())


def test_input_beyond_the_limit_is_dropped_not_queued() -> None:
    code = "import time\ntime.sleep(30)\n"  # never reads its input

    async def scenario() -> None:
        sink = _Sink()
        child = _child(code, sink)
        await child.start()
        for _ in range(64):
            child.write(b"y" * 65536)
        assert 0 < child.queued_input <= INPUT_LIMIT
        await child.hang_up()

    asyncio.run(scenario())


def test_a_child_that_ignores_sighup_is_killed_and_reaped() -> None:
    code = ("import signal, time\nsignal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "print('ready', flush=True)\ntime.sleep(60)\n")

    async def scenario() -> None:
        sink = _Sink()
        child = _child(code, sink)
        await child.start()
        await sink.wait_for(b"ready")
        pid = child.pid
        assert await child.hang_up(grace=0.5) == -9
        assert not Path(f"/proc/{pid}").exists()

    asyncio.run(scenario())


def test_a_child_that_exits_reports_its_status_after_its_last_words() -> None:
    async def scenario() -> None:
        sink = _Sink()
        child = _child("print('bye'); raise SystemExit(3)", sink)
        await child.start()
        await asyncio.wait_for(sink.exited.wait(), 10)
        assert sink.status == 3
        assert b"bye" in sink.data
        assert await child.hang_up() == 3

    asyncio.run(scenario())
