"""A process that opens a series of new session databases at the same moment as its rivals (spawned by tests)."""

from __future__ import annotations

import multiprocessing.synchronize
from pathlib import Path

from saves import SessionStore, StoreError


def open_each_with_rivals(barrier: multiprocessing.synchronize.Barrier, paths: list[str]) -> int:
    """Open each database in ``paths`` the moment every rival is ready to; the number that failed.

    Each failure's message is printed, so a failing test shows SQLite's words.
    """
    failed = 0
    for path in paths:
        barrier.wait(timeout=120)
        try:
            SessionStore(Path(path)).close()
        except StoreError as error:
            print(f"{path}: {error}", flush=True)
            failed += 1
    return failed


def race(barrier: multiprocessing.synchronize.Barrier, paths: list[str]) -> None:
    """Entry point of one racing process: exits with the number of failed opens."""
    raise SystemExit(open_each_with_rivals(barrier, paths))
