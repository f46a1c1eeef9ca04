"""Progress lines for the benches: where a run is and how long it has taken, on stderr.

A bench's figures go to stdout as one table at the end; these lines go to
stderr as it runs, so a long run shows it is alive and a redirected table
stays clean. Each stage says what it is about to do (so many games, say);
a stage of slow items (games against a Hard bot) also says each tenth of
the way, so no minute passes without a line.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console

from engine.core.words import plural


class Progress:
    """Says each stage of a bench as it starts, and how far its slow stages have gone."""

    def __init__(self, name: str, console: Console | None = None) -> None:
        """``name`` is the bench's, e.g. ``"coven bench wizbits"``."""
        self.name = name
        self.console = console or Console(stderr=True, highlight=False)
        self.started = time.perf_counter()

    def _say(self, text: str) -> None:
        self.console.print(f"{self.name} [{time.perf_counter() - self.started:.0f} s]: {text}", markup=False,
                           highlight=False, soft_wrap=True)  # one line each, however narrow the terminal

    def stage(self, what: str, total: int, unit: str = "", *, slow: bool = False) -> Callable[..., None]:
        """Say that ``what`` starts (``total`` of ``unit``, a singular noun); the returned ``tick(done, ...)`` says each
        tenth of a slow one.

        ``tick`` ignores any further arguments, so it can be a loop's own report callback.
        """
        self._say(f"{what}, {plural(total, unit)}" if unit else what)
        step = max(1, -(-total // 10))

        def tick(done: int, *_: object) -> None:
            if slow and (done % step == 0 or done == total):
                self._say(f"{what}: {done} of {total}")

        return tick
