"""A resize of a real terminal repaints Coven once: bytes counted
through a pty, as a player's SSH link carries them.

Byte counts do not depend on the machine's speed. The waits do, so they wait
on conditions: first for the screen to show what it should, then for the
output to stay quiet a while.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte

from tests.helpers.pyte_feed import feed

ROOT = Path(__file__).resolve().parents[2]
QUIET_SECONDS = 1.5
"""Output silent this long after the screen is right means the paint is over."""
LIMIT_SECONDS = 60.0
"""Generous bound on any one wait, for a busy machine."""
TARGET_RATIO = 1.2
"""Issue 11: resize bytes at most 1.2x a first frame at the new size."""


def _set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def _take_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # so a size change sends the child SIGWINCH


class PtyCoven:
    """``coven play`` in a pty of its own, its output counted and rendered by pyte."""

    def __init__(self, columns: int, rows: int, *options: str) -> None:
        master, slave = pty.openpty()
        _set_size(slave, columns, rows)
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.process = subprocess.Popen([sys.executable, "-m", "tui.cli", "play", *options], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, cwd=ROOT, start_new_session=True,
                                        preexec_fn=_take_terminal)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if not data:
            raise AssertionError(f"Coven ended; screen:\n{self.text()}")
        self.received += len(data)
        feed(self.stream, data)
        return True

    def settle(self, shows: Callable[[str], bool]) -> int:
        """Bytes received until the screen ``shows`` what it should and the output went quiet."""
        start = self.received
        deadline = time.monotonic() + LIMIT_SECONDS
        while not shows(self.text()):
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed what was expected:\n{self.text()}")
            self._read(0.1)
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < QUIET_SECONDS:
            if time.monotonic() > deadline:
                raise AssertionError("the output never went quiet")
            if self._read(0.05):
                quiet_since = time.monotonic()
        return self.received - start

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        _set_size(self.master, columns, rows)

    def close(self) -> None:
        self.process.send_signal(signal.SIGHUP)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


def _menu_at(columns: int, rows: int) -> Callable[[str], bool]:
    """The main menu laid out for ``columns`` x ``rows``: the title centred, the footer on the last line."""

    def shows(text: str) -> bool:
        lines = text.splitlines()
        title = next((line for line in lines if "C O V E N" in line), None)
        return (len(lines) == rows and title is not None and "Quit" in text and lines[-1].strip() != ""
                and abs(title.index("C O V E N") - (columns - 9) // 2) <= 1)

    return shows


def _first_frame(columns: int, rows: int, *options: str) -> tuple[int, str]:
    coven = PtyCoven(columns, rows, *options)
    try:
        return coven.settle(_menu_at(columns, rows)), coven.text()
    finally:
        coven.close()


def test_a_resize_repaints_once() -> None:
    first_bytes, fresh = _first_frame(120, 40)
    coven = PtyCoven(100, 30)
    try:
        coven.settle(_menu_at(100, 30))
        coven.resize(120, 40)
        resize_bytes = coven.settle(_menu_at(120, 40))
        resized = coven.text()
    finally:
        coven.close()
    assert resized == fresh  # nothing held back is missing from the one repaint
    assert resize_bytes <= TARGET_RATIO * first_bytes, (resize_bytes, first_bytes)


def test_a_burst_of_resizes_repaints_once() -> None:
    first_bytes, fresh = _first_frame(120, 40)
    coven = PtyCoven(100, 30)
    try:
        coven.settle(_menu_at(100, 30))
        for columns, rows in ((104, 31), (108, 33), (112, 35), (116, 38), (120, 40)):
            coven.resize(columns, rows)
            time.sleep(0.01)  # a window being dragged
        burst_bytes = coven.settle(_menu_at(120, 40))
        resized = coven.text()
    finally:
        coven.close()
    assert resized == fresh
    assert burst_bytes <= TARGET_RATIO * first_bytes, (burst_bytes, first_bytes)


def test_too_small_and_back_shows_the_notice_then_the_menu() -> None:
    coven = PtyCoven(100, 30)
    try:
        coven.settle(_menu_at(100, 30))
        coven.resize(60, 20)
        coven.settle(lambda text: "Coven needs at least 80×24; this terminal is 60×20." in text)
        coven.resize(100, 30)
        coven.settle(_menu_at(100, 30))
        assert "needs at least" not in coven.text()
    finally:
        coven.close()


def test_served_the_first_screen_is_painted_once() -> None:
    """Over SSH (as `coven serve` starts it) the settling first screen goes out as one paint."""
    served_first, served_screen = _first_frame(120, 40, "--serve-port=2222", "--account=ana", "--name=Ana")
    coven = PtyCoven(100, 30)
    try:
        coven.settle(_menu_at(100, 30))
        coven.resize(120, 40)
        one_paint = coven.settle(_menu_at(120, 40))  # a resize is one paint (tested above)
    finally:
        coven.close()
    assert _menu_at(120, 40)(served_screen)
    assert served_first <= TARGET_RATIO * one_paint, (served_first, one_paint)
