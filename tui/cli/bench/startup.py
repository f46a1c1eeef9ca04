"""``coven bench startup``: how long ``coven`` takes to show the main menu, beside a bare Textual app.

Both run side by side in one bench, alternating, each in a fresh interpreter:
Coven's own command (``tui.cli.main`` with no arguments) up to the first
frame of the main menu, and a bare Textual app (a Header, a Static and a
Footer) up to its first frame. Both are headless at 80x24 in a throw-away data
folder. The figure is the wall time from starting the interpreter to its exit
after that frame, and the peak RSS of the process (``wait4``), in MB of
1,000,000 bytes.
"""

from __future__ import annotations

import os
import pty
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from engine.core.words import plural
from tui.cli.bench.memory import kib_to_mb

TARGET_RATIO = 1.3
"""Coven's median start-up at most this many times the bare app's."""
TARGET_RSS_RATIO = 1.2
"""Coven's peak memory at start-up at most this many times the bare app's."""

RUNS = 10
"""Starts of each program when ``--games`` is not given."""

_SIZE = "(80, 24)"

# Both probes stop at the first frame written to the (headless) terminal: the
# first call of Textual's ``App._display`` with something to draw, for Coven
# while its main menu is the screen.
_FIRST_FRAME = """
import sys
from textual.app import App

def exit_at_first_frame(is_target):
    real_display = App._display
    def display(self, screen, renderable):
        real_display(self, screen, renderable)
        if renderable is not None and is_target(screen) and not getattr(self, "_bench_done", False):
            self._bench_done = True
            self.exit("frame")
    App._display = display
"""

_COVEN = _FIRST_FRAME + f"""
from tui import cli
from tui.app import CovenApp
from tui.screens.menu import MainMenu

exit_at_first_frame(lambda screen: isinstance(screen, MainMenu))
real_run = CovenApp.run
def headless_run(self, *args, **kwargs):
    sys.exit(0 if real_run(self, headless=True, size={_SIZE}) == "frame" else 3)
CovenApp.run = headless_run
cli.main([])
"""

_BARE = _FIRST_FRAME + f"""
from textual.widgets import Footer, Header, Static

class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]
    def compose(self):
        yield Header()
        yield Static("Hello")
        yield Footer()

exit_at_first_frame(lambda screen: True)
sys.exit(0 if Bare().run(headless=True, size={_SIZE}) == "frame" else 3)
"""


@dataclass(frozen=True)
class StartupFigures:
    """Medians over the runs of one program."""

    seconds: float
    peak_rss_mb: float


def _one_start(code: str, data_dir: Path) -> tuple[float, float]:
    """Seconds to the first frame and exit, and peak RSS in MB (1,000,000 bytes), of one fresh interpreter."""
    env = dict(os.environ, COVEN_DATA_DIR=str(data_dir))
    env.pop("COVEN_DEBUG", None)
    keyboard, terminal = pty.openpty()  # coven reads keys from a terminal, and refuses anything else
    try:
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=data_dir,
                                   stdin=terminal, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
    finally:
        os.close(keyboard)
        os.close(terminal)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        error = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        raise RuntimeError(f"the start-up probe failed ({process.returncode}): {error.strip()[-500:]}")
    if process.stderr:
        process.stderr.close()
    return seconds, kib_to_mb(usage.ru_maxrss)  # ru_maxrss is in KiB on Linux


def measure(runs: int) -> tuple[StartupFigures, StartupFigures]:
    """Start Coven and the bare app ``runs`` times each, alternating; their median figures."""
    coven: list[tuple[float, float]] = []
    bare: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="coven-bench-startup-") as folder:
        data_dir = Path(folder)
        _one_start(_COVEN, data_dir)  # warm the file cache and create the store once for both
        _one_start(_BARE, data_dir)
        for _ in range(runs):
            coven.append(_one_start(_COVEN, data_dir))
            bare.append(_one_start(_BARE, data_dir))

    def figures(samples: list[tuple[float, float]]) -> StartupFigures:
        return StartupFigures(statistics.median(s for s, _ in samples), statistics.median(r for _, r in samples))

    return figures(coven), figures(bare)


def run(runs: int = RUNS) -> int:
    """Print both medians, their ratio and both peak RSS figures; 0 when both targets are met."""
    console = Console()
    console.print(f"Starting Coven and a bare Textual app {plural(runs, 'time')} each (headless, 80x24)...")
    coven, bare = measure(runs)
    time_ratio = coven.seconds / bare.seconds
    rss_ratio = coven.peak_rss_mb / bare.peak_rss_mb
    table = Table(title="Start-up to the first frame")
    table.add_column("program")
    table.add_column("median", justify="right")
    table.add_column("peak RSS", justify="right")
    table.add_row("coven (main menu)", f"{coven.seconds * 1000:.0f} ms", f"{coven.peak_rss_mb:.1f} MB")
    table.add_row("bare Textual app", f"{bare.seconds * 1000:.0f} ms", f"{bare.peak_rss_mb:.1f} MB")
    table.add_row("ratio", f"{time_ratio:.2f}x", f"{rss_ratio:.2f}x")
    console.print(table)
    met = time_ratio <= TARGET_RATIO and rss_ratio <= TARGET_RSS_RATIO
    console.print(f"Targets: time ratio at most {TARGET_RATIO}, RSS ratio at most {TARGET_RSS_RATIO}: "
                  f"{'met' if met else 'not met'}.")
    return 0
