"""Rich's and Textual's memo caches, emptied after a game so that a seat's memory comes back.

Rich and Textual memoise small pure functions with :func:`functools.lru_cache`:
a string's cell width, a sum of two styles, a region's overlap with another.
Their entries pile up as a game draws new texts and layouts, up to thousands a
cache, and each is a few small objects left among the game's freed ones. Such
survivors keep Python's small-object arenas from being handed back: measured
with ``coven bench seat-memory``, a seat forked warm grew by about 1.7 MB of
new arenas over five Wizbits games, against 0.4 MB with these caches emptied
after each game. Emptied, they refill from the next screen at the cost of a few
recomputed results.

Caches without a bound (Textual's per-class lookups, keyed by the app's few
widget classes) do not grow with what a game draws, and are left alone.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from typing import Any

from tui.ahead import ahead_of_fork

LIBRARIES = ("rich", "textual")
"""The packages whose bounded memo caches are emptied."""


def _bounded_memos_in(namespace: dict[str, Any], module: str, seen: set[int]) -> Iterator[Any]:
    """The bounded ``lru_cache`` wrappers defined in ``namespace`` (a module's or a class's), and in its classes."""
    for value in list(namespace.values()):
        if id(value) in seen:
            continue
        if isinstance(value, type):
            if value.__module__ == module:  # a class is walked once, from its own module (others import it)
                seen.add(id(value))
                yield from _bounded_memos_in(dict(vars(value)), module, seen)
            continue
        seen.add(id(value))
        function = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if isinstance(function, functools._lru_cache_wrapper) and function.cache_info().maxsize is not None:
            yield function


@ahead_of_fork
@functools.cache
def render_memos() -> tuple[Any, ...]:
    """Every bounded memo cache of Rich's and Textual's modules imported so far, found once per process.

    ``coven serve``'s warm parent finds them before forking (:mod:`tui.ahead`), so a player's seat never walks
    the libraries' classes (which would copy their pages); elsewhere they are found at the first game's end,
    when every module that draws has been imported.
    """
    seen: set[int] = set()
    found: list[Any] = []
    for name, module in sorted(sys.modules.items()):
        if module is None or name.split(".")[0] not in LIBRARIES:
            continue
        found.extend(_bounded_memos_in(dict(vars(module)), name, seen))
    return tuple(found)


def forget_render_memos() -> int:
    """Empty every cache of :func:`render_memos`; how many entries they held."""
    entries = 0
    for memo in render_memos():
        entries += memo.cache_info().currsize
        memo.cache_clear()
    return entries
