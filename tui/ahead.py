"""Work a module asks to have done once, before ``coven serve``'s warm parent forks its players.

A module that builds something every player needs alike (the command line's
parser, the parsed CSS) registers the step with :func:`ahead_of_fork`. The
warm parent (:mod:`tui.server.warm`), once it has imported every module,
calls :func:`prepare` before it freezes its objects and forks: each player
then finds the work done, in memory it shares. Anywhere else nothing calls
:func:`prepare`, and each step's work is simply done at its first use.
This module imports nothing of Coven's, so the server's code reaches the
steps without importing the modules that registered them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Step = TypeVar("Step", bound=Callable[[], object])

_steps: list[Callable[[], object]] = []


def ahead_of_fork(step: Step) -> Step:
    """Register ``step`` (no arguments; what it returns is ignored) for :func:`prepare`; returns it."""
    if step not in _steps:
        _steps.append(step)
    return step


def prepare() -> int:
    """Run every registered step, in the order registered; how many ran."""
    for step in list(_steps):
        step()
    return len(_steps)
