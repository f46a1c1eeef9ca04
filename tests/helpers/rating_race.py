"""A process that rates one finished table game at the same moment as its rivals (spawned by the ratings tests)."""

from __future__ import annotations

import multiprocessing.synchronize
from pathlib import Path

from saves import SessionStore
from saves.ratings import rate_finished


def rate_with_rivals(barrier: multiprocessing.synchronize.Barrier, path: str, session_id: int) -> None:
    """Entry point of one racing process: rates ``session_id`` once every rival is ready; exit 0 rated it, 3 not."""
    with SessionStore(Path(path), timeout=60) as store:
        barrier.wait(timeout=120)
        rated = rate_finished(store, session_id)
    raise SystemExit(0 if rated is not None else 3)
