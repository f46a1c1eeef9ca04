"""Keeping a seat's C heap from growing with the games it has played (glibc only; elsewhere nothing).

A Hard bot thinks in a Textual worker thread and the coach in another. glibc
gives each new thread that meets a busy heap a heap (an arena) of its own, up to
eight a core, and keeps what is freed there for later use. Games played one
after another then leave their garbage in several arenas that are never handed
back: measured with ``coven bench seat-memory``, a seat went from about 95 MB
after one Wizards Cup game with the coach to 136 MB after two, and stayed there.
One arena serves Coven: the threads rarely allocate at the same moment (the
app waits for the bot), so they do not wait on each other in practice.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys

from tui.ahead import ahead_of_fork

M_ARENA_MAX = -8
"""glibc's mallopt parameter for the most arenas (malloc.h)."""
ARENAS = 1
"""The arenas Coven's process keeps (see the module docstring)."""

_done = False


@ahead_of_fork
@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, found once per process: ``find_library`` runs ``ldconfig`` in a subprocess each time.

    ``coven serve``'s warm parent finds it before forking (:mod:`tui.ahead`), so no player starts that
    subprocess on its way to the menu.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def limit_arenas() -> bool:
    """Let glibc keep :data:`ARENAS` arena(s), before any worker thread starts; True when it took the setting."""
    global _done
    if _done:
        return True
    libc = _libc()
    _done = libc is not None and bool(libc.mallopt(M_ARENA_MAX, ARENAS))
    return _done


def give_back() -> bool:
    """Hand freed heap memory back to the system (after a game, once its screen is gone); True if some was."""
    libc = _libc()
    return libc is not None and bool(libc.malloc_trim(0))
