"""A real ``coven`` process, killed with SIGKILL mid-game, resumes at its last action.

The app runs in a pseudo-terminal and pyte renders what it draws, so the test
sees exactly what a player would have seen before the kill.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pyte

from engine.wizards_cup.actions import ChooseTeam, SetLineup
from pyte_feed import feed
from saves import LiveSession, SeatInfo, SessionStore

ANA = ["pyre-lord", "mist-warden", "deepwater-regent", "echo-warden", "moss-hermit"]
ROWS, COLUMNS = 24, 80


class Terminal:
    """``coven`` in a pty of 80x24, rendered with pyte."""

    def __init__(self, data_dir: Path) -> None:
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
        env.update(TERM="xterm-256color", COVEN_DATA_DIR=str(data_dir), COVEN_AUTO_DELAY="0.2")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui.cli"], stdin=slave, stdout=slave, stderr=slave, env=env,
            start_new_session=True, cwd=Path(__file__).resolve().parents[1],
        )
        os.close(slave)
        self.master = master
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                feed(self.stream, chunk)

    def text(self) -> str:
        with self.lock:
            return "\n".join(self.screen.display)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; screen was:\n{self.text()}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=60)
        os.close(self.master)


def started_session(store: SessionStore) -> LiveSession:
    """A session at the start of round 1's duels."""
    live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "easy")])
    for seat in (0, 1):
        displayed = live.state.players[seat].displayed
        picks = [card for card in [*ANA, "tide-caller"] if card != displayed][:5]
        live.apply(seat, ChooseTeam(tuple(picks)))
    for seat in (0, 1):
        live.apply(seat, SetLineup(tuple(live.state.players[seat].team[:5])))
    return live


def test_killed_coven_resumes_at_its_last_action(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        live = started_session(store)
        session_id, before = live.session_id, len(live.log)

    terminal = Terminal(coven_data_dir)
    try:
        terminal.wait_for(lambda: "Continue" in terminal.text(), "the main menu")
        terminal.send("c")
        terminal.wait_for(lambda: "Duel zone" in terminal.text() or "ready" in terminal.text(), "the game screen")
        for duel in (1, 2, 3):
            terminal.send(" ")
            terminal.wait_for(lambda duel=duel: f"Duel {duel} " in terminal.text(), f"duel {duel} on screen")
        shown = terminal.text()
    finally:
        terminal.kill()

    with SessionStore() as store:
        resumed = LiveSession.load(store, session_id)
    # Everything shown was committed: three duel steps, no more and no fewer.
    assert len(resumed.log) == before + 3
    assert [entry.seat for entry in resumed.log[before:]] == [None, None, None]
    assert resumed.state.duel == 3 and "Duel 3 " in shown

    terminal = Terminal(coven_data_dir)
    try:
        terminal.wait_for(lambda: "Continue" in terminal.text(), "the main menu after the kill")
        terminal.send("c")
        terminal.wait_for(lambda: "Duel 3 " in terminal.text(), "the game resumed at duel 3")
        terminal.send(" ")
        terminal.wait_for(lambda: "Duel 4 " in terminal.text(), "the next duel after resuming")
    finally:
        terminal.kill()
