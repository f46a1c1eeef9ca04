"""The ``coven bench`` targets that are not a game's engine and bots, and how each is run.

Each target's module is imported only when that target runs, so ``coven``'s
start-up and the other targets never load it (numpy above all).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """A named bench target.

    Attributes:
        module: The module under ``tui.cli.bench`` that runs it.
        count: The keyword its ``run`` takes for ``--games``.
        default: The count when ``--games`` is left out (None: the module's own ``default_name``).
        default_name: The module constant holding its default count, when ``default`` is None; when both are
            empty, a run without ``--games`` calls the module's ``run()`` bare, for its own default plan.
        cap: The module constant bounding the count, if any.
    """

    module: str
    count: str
    default: int | None = None
    default_name: str = ""
    cap: str = ""


TARGETS: dict[str, Target] = {
    # not a game: the time to the main menu, against a bare Textual app
    "startup": Target("startup", "runs", default_name="RUNS"),
    # the Wizbits Hard bot against Normal, seats and decks mirrored
    "wizbits-hard": Target("wizbits_hard", "games", default_name="GAMES"),
    # WitchDraft Hard against Normal, each seed twice with seats swapped
    "witchdraft-bots": Target("witchdraft", "games", default_name="SEEDS"),
    # not a game: how soon processes at a shared table see each other's moves
    "tables": Target("tables", "samples", default=100),
    # not a game: one seat's memory after whole games against Hard, each plan in a fresh process
    "seat-memory": Target("seat_memory", "games", cap="MAX_GAMES"),
    # not a game: what `coven serve` sends a player, against a bare Textual app
    # 8 by default: at 16 a run took 62 s of CPU here, and an idle machine ramps further (up to 112 seats)
    "serve": Target("serve", "clients", default=8, cap="CONCURRENT"),
    # not a game: a browser session beside an SSH session through one `coven web --ssh-port`
    "web": Target("web", "sessions", default_name="SESSIONS", cap="MAX_SESSIONS"),
}
"""Targets by the name ``coven bench`` takes; any other name is a game id."""


def run_target(name: str, games: int | None) -> int:
    """Run the target ``name`` (a key of :data:`TARGETS`) with ``games`` (None: its default)."""
    target = TARGETS[name]
    module = importlib.import_module(f"tui.cli.bench.{target.module}")
    if games is None and target.default is None and not target.default_name:
        code = module.run()
        return code if isinstance(code, int) else 0
    count = games if games is not None else (target.default if target.default is not None
                                             else int(getattr(module, target.default_name)))
    if target.cap:
        count = min(count, int(getattr(module, target.cap)))
    code = module.run(**{target.count: count})
    return code if isinstance(code, int) else 0
