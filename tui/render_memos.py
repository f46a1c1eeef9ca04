"""The memo caches of what draws (Rich, Textual and Coven's own screens), emptied after a game so a seat's memory
comes back.

Rich, Textual and Coven memoise small pure functions with :func:`functools.lru_cache`:
a string's cell width, a sum of two styles, a region's overlap with another, a
colour kept readable on its background. Their entries pile up as a game draws
new texts and layouts (some hundreds to a thousand new ones a game, up to
4,096 in most caches and 16,384 in a few), and each is a few small objects
made among the game's short-lived ones. Such survivors keep Python's small-object arenas from being handed back:
in two side-by-side runs of ten Wizbits games in one seat forked warm (``coven
bench seat-memory``'s setup), the seat's new arenas grew by 2.0 MB, and by
0.7 MB with these caches emptied after each game. Emptied, they refill from the
next screen at the cost of a few recomputed results.

Caches without a bound (Textual's per-class lookups, Coven's one-time finds)
do not grow with what a game draws, and are left alone. The engine's own caches
go with :func:`engine.core.game_caches.forget_games`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from tui.ahead import ahead_of_fork
from tui.style_cache import mend_style_cache

PACKAGES = ("rich", "textual", "tui")
"""The packages whose bounded memo caches are emptied."""

_found: list[Any] = []
_walked: set[str] = set()
"""Every module name looked at so far (a module is walked once)."""
_seen: set[int] = set()
"""The ids of the classes and memos found so far: a class imported by many modules is walked once, from its own."""
_modules_at_last_look = [-1]


def _bounded_memo(value: object) -> Any | None:
    """``value`` if it is a memo with a bound (or holds one: a static or class method, a property), else None.

    A memo is known by the two methods ``lru_cache`` gives it, so one that stands in for another (as
    :func:`tui.style_cache.mend_style_cache`'s does) is found too.
    """
    inner: Any = value
    if isinstance(value, (staticmethod, classmethod)):
        inner = value.__func__
    elif isinstance(value, property):
        inner = value.fget
    try:
        info = inner.cache_info()
        clear = inner.cache_clear
    except Exception:  # noqa: BLE001 - anything else in a module: not a memo, whatever it does when asked
        return None
    return inner if callable(clear) and isinstance(getattr(info, "maxsize", None), int) else None


def _memos_in(namespace: dict[str, Any], module: str) -> Iterator[Any]:
    """The bounded memos defined in ``namespace`` (a module's or a class's), and in the classes defined there."""
    for value in list(namespace.values()):
        if id(value) in _seen:
            continue
        if isinstance(value, type):
            if value.__module__ == module:  # a class is walked once, from its own module (others import it)
                _seen.add(id(value))
                yield from _memos_in(dict(vars(value)), module)
            continue
        memo = _bounded_memo(value)
        if memo is not None and id(memo) not in _seen:
            _seen.add(id(value))
            _seen.add(id(memo))
            yield memo


@ahead_of_fork
def render_memos() -> tuple[Any, ...]:
    """Every bounded memo of :data:`PACKAGES`' modules imported so far; a module is looked at only once.

    ``coven serve``'s warm parent looks before forking (:mod:`tui.ahead`), so a seat that imports no module of its
    own (a test checks this for the menu and every game) never walks the libraries' classes, which would copy
    their pages into it (4 MB, measured). A module imported since the last look is walked at the next one.
    Modules are counted, not compared: going over their names would write to every module's and name's
    reference count, copying those pages too. A module still being imported is left for a later look.
    """
    count = len(sys.modules)  # before the copy: a module imported during the walk is seen at the next look
    if count != _modules_at_last_look[0]:
        mend_style_cache()  # the memo Coven puts in place of Textual's, so that the one in use is found
        complete = True
        for name, module in sorted(list(sys.modules.items())):  # a copy: another thread may import meanwhile
            if name in _walked:
                continue
            if getattr(getattr(module, "__spec__", None), "_initializing", False):
                complete = False  # still being imported (by another thread): walked whole at a later look
                continue
            _walked.add(name)
            if name.split(".")[0] not in PACKAGES:
                continue
            try:
                namespace = dict(vars(module))
            except TypeError:  # an entry that is not a module
                continue
            _found.extend(_memos_in(namespace, name))
        _modules_at_last_look[0] = count if complete else -1
    return tuple(_found)


def forget_render_memos() -> int:
    """Empty every cache of :func:`render_memos`; how many entries they held."""
    entries = 0
    for memo in render_memos():
        entries += memo.cache_info().currsize
        memo.cache_clear()
    return entries


def look_again() -> None:
    """Forget what was found, so the next :func:`render_memos` walks every module again (for tests)."""
    _found.clear()
    _walked.clear()
    _seen.clear()
    _modules_at_last_look[0] = -1
