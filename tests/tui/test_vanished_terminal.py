"""A ``coven`` whose terminal vanishes without a SIGHUP ends cleanly instead of spinning.

The pty's master is closed under a running ``coven`` that has no
controlling terminal and ignores SIGHUP, as when an emulator dies or a
terminal multiplexer loses its client: no signal arrives, and reads return
end of file. Before the fix Coven then spun at full CPU for ever.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

from saves import LiveSession, SeatInfo, SessionStore, db_path
from tests.helpers.pyte_feed import feed

BOUND = 60.0
"""Generous seconds for anything awaited: the suite must pass on a busy machine."""


def _ignore_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_coven_exits_when_its_terminal_vanishes(coven_data_dir: Path) -> None:
    with SessionStore() as store:  # a game in the store, so there is a log to keep
        live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "easy")])
        live.apply(1, live.rules.legal_actions(live.state, 1)[0])
        saved = [entry.action for entry in live.log]
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", COVEN_DATA_DIR=str(coven_data_dir))
    # A new session without a controlling terminal, and SIGHUP ignored: closing the master sends no signal.
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.cli"], stdin=slave, stdout=slave, stderr=slave, env=env,
        start_new_session=True, preexec_fn=_ignore_sighup, cwd=Path(__file__).resolve().parents[2],
    )
    os.close(slave)
    try:
        deadline = time.monotonic() + BOUND
        while "Continue" not in "\n".join(screen.display):
            assert process.poll() is None, "coven ended before drawing its menu"
            assert time.monotonic() < deadline, "coven never drew its menu:\n" + "\n".join(screen.display)
            # Read here, not in a thread: a read blocked in another thread would keep the master open after close.
            if select.select([master], [], [], 0.1)[0]:
                feed(stream, os.read(master, 65536))
        os.close(master)  # the terminal vanishes
        master = -1
        try:
            code = process.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            raise AssertionError("coven kept running after its terminal vanished") from None
        assert code == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(BOUND)
        if master >= 0:
            os.close(master)
    db = db_path()
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the store was closed and checkpointed"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
    conn.close()
    with SessionStore() as store:
        assert [entry.action for entry in store.load(live.session_id).log] == saved
