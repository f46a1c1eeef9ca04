"""What the torture tests share: a writing Coven in its own process, a watch on its files, and the commands.

``Writer`` runs ``tests/helpers/store_torture_writer.py`` and keeps, from its output,
the last log length the store committed for each session. ``DeletedWatch``
polls ``/proc/<pid>/fd`` of the processes it is given, in a thread, and
remembers every database file one of them still had open after it left the
folder: the defect of issue 22, seen from outside. ``coven`` runs one real
command in a fresh process.

The counts come from the environment so ``make soak`` can run the same tests
far longer: ``COVEN_TORTURE_COMMANDS`` (commands beside the writer) and
``COVEN_TORTURE_SEED`` (their order).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRITER = ROOT / "tests" / "helpers" / "store_torture_writer.py"
BOUND = 120.0
"""Seconds any one process may take on a busy machine before the test gives up on it."""


def torture_count(default: int) -> int:
    """How many commands run beside the writer (``COVEN_TORTURE_COMMANDS``, at least 1)."""
    return max(1, int(os.environ.get("COVEN_TORTURE_COMMANDS", default)))


def torture_seed() -> int:
    """The seed of the commands' order (``COVEN_TORTURE_SEED``), printed by the tests so a failure reproduces."""
    return int(os.environ.get("COVEN_TORTURE_SEED", "22"))


def deleted_database_files(pid: int) -> list[str]:
    """Files of a Coven database that process ``pid`` holds open although they are gone from their folder."""
    folder = Path(f"/proc/{pid}/fd")
    found = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []  # the process has ended
    for entry in entries:
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if "coven.sqlite3" in target and target.endswith(" (deleted)"):
            found.append(target)
    return found


class DeletedWatch:
    """A thread that looks at the open files of some processes until stopped, and keeps what it saw deleted.

    Args:
        pids: called on every look; the processes to look at (they may come and go).
    """

    def __init__(self, pids: Callable[[], Iterable[int]]) -> None:
        self._pids = pids
        self._stop = threading.Event()
        self.seen: list[str] = []
        self.looks = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> DeletedWatch:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(BOUND)

    def _run(self) -> None:
        while not self._stop.is_set():
            for pid in list(self._pids()):
                for target in deleted_database_files(pid):
                    if f"pid {pid}: {target}" not in self.seen:
                        self.seen.append(f"pid {pid}: {target}")
            self.looks += 1
            self._stop.wait(0.02)


class Writer:
    """The long-lived Coven: a store in its own process committing moves, reported line by line."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(WRITER)], cwd=ROOT, text=True,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.committed: dict[int, int] = {}
        """Each session's log length as the writer's store last confirmed it committed."""
        self.lost: list[str] = []
        self.moves = 0
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            words = line.split()
            with self._changed:
                if words[:1] == ["saved"]:
                    self.committed[int(words[1])] = int(words[2])
                    self.moves += 1
                elif words[:1] == ["started"]:
                    self.committed.setdefault(int(words[1]), 0)
                elif words[:1] == ["lost"]:
                    self.lost.append(line.strip())
                self._changed.notify_all()

    @property
    def pid(self) -> int:
        """The writer's process id."""
        return self.process.pid

    def wait_for_moves(self, count: int) -> None:
        """Block until the writer has committed ``count`` moves in all (AssertionError past the bound)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self.moves >= count or self.process.poll() is not None,
                                          BOUND):
                raise AssertionError(f"the writer committed {self.moves} moves of {count}")
        assert self.process.poll() is None, self.stderr()

    def sessions(self) -> dict[int, int]:
        """A copy of what the writer has committed so far."""
        with self._changed:
            return dict(self.committed)

    def stderr(self) -> str:
        """What the writer printed to stderr (only once it has ended)."""
        assert self.process.stderr is not None
        return self.process.stderr.read() if self.process.poll() is not None else ""

    def kill(self) -> dict[int, int]:
        """SIGKILL the writer; what it had committed before it died."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(BOUND)
        self._reader.join(BOUND)  # every line it printed before the kill is counted
        return self.sessions()


def coven(*argv: str) -> subprocess.CompletedProcess[str]:
    """One ``coven`` command in its own process, with this process's environment (so its data folder)."""
    return subprocess.run([sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, text=True, capture_output=True,
                          timeout=BOUND, env=os.environ.copy(), stdin=subprocess.DEVNULL)
