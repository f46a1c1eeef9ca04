"""Textual's Strip, made to build each of its caches the first time it is used rather than when it is made.

In Textual 8.2.8 every :class:`~textual.strip.Strip` (one line of a widget's
drawing) makes seven caches as it is made: seven small dicts in seven
objects, about 1.3 KB before it holds a thing. Most strips never use most of
them. A game screen makes and keeps thousands (each widget's drawn lines, the
compositor's, a log's), so at a game's peak they were megabytes of empty
dicts, scattered through the heap that the seat then keeps. Making them costs
time too, on the way to every frame.

:func:`make_strips_lean` gives Strip an ``__init__`` that sets its segments and
length only, and a ``__getattr__`` (which Python calls only for a slot never
set) that makes a cache the first time a method asks for it. Strip's own
methods are untouched, so each draws exactly what it drew. The slots found to
be caches are read from a real Strip, so a Textual that adds or drops one is
followed; one whose Strip has no such cache is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip


def _strip_slots() -> tuple[dict[str, int], dict[str, Any]]:
    """A plain Strip's caches (their sizes, by slot) and its other slots' starting values, read from a new one."""
    plain = Strip([])
    caches: dict[str, int] = {}
    others: dict[str, Any] = {}
    for name in Strip.__slots__:
        value = getattr(plain, name)
        if isinstance(value, FIFOCache):
            caches[name] = value._maxsize
        elif name not in ("_segments", "_cell_length"):
            others[name] = value
    return caches, others


CACHES, OTHER_SLOTS = _strip_slots()  # read here, where nothing can have made strips lean yet
"""Textual's Strip's caches, their sizes by slot; and its other slots' starting values."""


def start_lean(strip: Strip, segments: Iterable[Segment], cell_length: int | None) -> None:
    """Set ``strip``'s segments, length and other slots, and none of its caches."""
    strip._segments = list(segments)
    strip._cell_length = cell_length
    for name, value in OTHER_SLOTS.items():
        setattr(strip, name, value)


def make_cache(strip: Strip, name: str) -> Any:
    """Make ``strip``'s cache ``name`` now, the first time it is asked for.

    Raises:
        AttributeError: ``name`` is not one of a Strip's caches.
    """
    size = CACHES.get(name)
    if size is None:
        raise AttributeError(f"{type(strip).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache[Any, Any] = FIFOCache(size)
    setattr(strip, name, cache)
    return cache


def make_strips_lean() -> bool:
    """Make every Strip made from now on build its caches when first used; True when it was done now."""
    if getattr(Strip, "coven_lean", False) or not CACHES:
        return False

    def __init__(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
        start_lean(self, segments, cell_length)

    def __getattr__(self: Strip, name: str) -> Any:  # only ever called for a slot never set
        return make_cache(self, name)

    Strip.__init__ = __init__  # type: ignore[method-assign]
    Strip.__getattr__ = __getattr__  # type: ignore[attr-defined]
    Strip.coven_lean = True  # type: ignore[attr-defined]
    return True
