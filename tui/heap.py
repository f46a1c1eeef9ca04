"""Keeping a seat's C heap from growing with the games it has played (glibc only; elsewhere nothing).

A Hard bot thinks in a Textual worker thread and the coach in another. glibc
gives each new thread that meets a busy heap a heap (an arena) of its own, up to
eight a core, and keeps what is freed there for later use. Games played one
after another then leave their garbage in several arenas that are never handed
back: measured with ``coven bench seat-memory``, a seat went from about 95 MB
after one Wizards Cup game with the coach to 136 MB after two, and stayed there.
One arena serves Coven: the threads rarely allocate at the same moment (the
app waits for the bot), so they do not wait on each other in practice.

``coven serve``'s warm parent also fills the free blocks inside its heap before
it forks (:func:`fill_heap_holes`). A player's first allocations would otherwise
land in those blocks, scattered over many of the parent's pages, and each would
copy a whole page for a few bytes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import sys
from collections.abc import Callable
from typing import NamedTuple

from tui.ahead import ahead_of_fork

M_ARENA_MAX = -8
"""glibc's mallopt parameter for the most arenas (malloc.h)."""
ARENAS = 1
"""The arenas Coven's process keeps (see the module docstring)."""
LARGEST_FILLER = 64 * 1024
"""The first size :func:`fill_heap_holes` asks for, halved down to :data:`SMALLEST_FILLER`: below glibc's smallest
threshold for giving a block a mapping of its own (128 KiB), so every block comes from the heap."""
SMALLEST_FILLER = 16
"""The last size asked for: it gets glibc's smallest block, so no hole is left smaller."""
CACHED_LARGEST = 1032
"""The largest block asked for that glibc's per-thread cache keeps when it is freed (``tcache_max``)."""
CACHED_BYTES = 64 * 7 * CACHED_LARGEST
"""The most glibc's per-thread cache holds (7 freed blocks of each of 64 sizes): blocks that are not counted as
free, which a filler may take too. With the holes, the most :func:`fill_heap_holes` asks for."""
FILLING_ROUNDS = 4
"""The most rounds of sizes :func:`fill_heap_holes` asks for; it stops at a round that finds no hole."""

_done = False


class _HeapNow(NamedTuple):
    """What glibc says of the heap at one moment (:func:`_heap_figures`), in bytes unless said."""

    holes: int
    """Free below the main heap's top: ``fordblks`` (every heap's free bytes) less ``keepcost``."""
    top: int
    """The main heap's top, from which it grows."""
    heap_bytes: int
    """Every heap's size (``arena``): it changes when a heap grows or shrinks."""
    own_mappings: int
    """Blocks given mappings of their own (``hblks``)."""


class _MallocFigures(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (malloc.h, glibc 2.33 and later): every heap's figures added up, in bytes,
    but ``keepcost``, the main heap's top."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


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


def heap_holes() -> int | None:
    """Bytes free inside the C heap below its top (glibc's ``fordblks`` less ``keepcost``); None where unknown.

    glibc adds up every heap of the process: a process that has run threads may have more than the main one,
    which is the only one :func:`fill_heap_holes` fills. The warm parent never runs a thread.
    """
    figures = _heap_figures()
    return None if figures is None else figures().holes


def fill_heap_holes() -> int:
    """Take every free block inside the C heap, below its top, for good; how many bytes of holes were filled.

    The blocks are never used and never freed. Called once by ``coven serve``'s warm parent, from its only
    thread, just before it forks its players (:mod:`tui.server.warm`): a player's allocations then come from the
    heap's top, packed into pages of its own, instead of landing in holes spread over the parent's pages and
    copying each of those pages. The holes are some hundreds of KB, kept once, in the parent; measured at a drawn
    menu, a seat copies about 2 MB less.

    Each size, from :data:`LARGEST_FILLER` down to :data:`SMALLEST_FILLER`, is asked for until a block does not
    come from a hole: the heap's top, its size or its count of blocks with mappings of their own changed. Such a
    block is handed back (the small ones only at the end, so that the next round does not take them for holes);
    rounds go on until one takes no block, at most :data:`FILLING_ROUNDS`. What is asked for in all stays within
    the holes and glibc's per-thread cache (:data:`CACHED_BYTES`), whatever the heap does.

    Elsewhere than glibc 2.33 and later, and where Python itself allocates with ``malloc`` (``PYTHONMALLOC``),
    whose holes come and go with every object, nothing is done and 0 returned.
    """
    figures = _heap_figures()
    libc = _libc()
    if figures is None or libc is None or os.environ.get("PYTHONMALLOC", "").startswith("malloc"):
        return 0
    malloc, free = libc.malloc, libc.free
    malloc.restype, malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    free.restype, free.argtypes = None, [ctypes.c_void_p]
    holes = figures().holes
    budget = holes + CACHED_BYTES
    not_holes: list[int] = []
    for _ in range(FILLING_ROUNDS):  # a round can leave a few small holes: blocks freed while it ran
        size, budget_before = LARGEST_FILLER, budget
        while size >= SMALLEST_FILLER and budget >= size:
            before = figures()
            block = malloc(size)
            if block is None:
                break
            after = figures()
            if (after.top, after.heap_bytes, after.own_mappings) != (before.top, before.heap_bytes,
                                                                      before.own_mappings):
                # No hole of this size is left: the block came from elsewhere. A large one goes straight back
                # (to the top, where it came from); a small one would wait in glibc's per-thread cache, to be
                # taken for a hole next round, so it is handed back at the end.
                if size > CACHED_LARGEST:
                    free(block)
                else:
                    not_holes.append(block)
                size //= 2
            else:
                budget -= size
        if budget == budget_before:
            break
    for block in not_holes:
        free(block)
    return max(0, holes - figures().holes)


def _heap_figures() -> Callable[[], _HeapNow] | None:
    """A function giving the heap's figures now (:class:`_HeapNow`), or None without glibc 2.33 or later."""
    libc = _libc()
    mallinfo2 = getattr(libc, "mallinfo2", None)
    if mallinfo2 is None:
        return None
    mallinfo2.restype, mallinfo2.argtypes = _MallocFigures, []

    def figures() -> _HeapNow:
        now = mallinfo2()
        return _HeapNow(int(now.fordblks) - int(now.keepcost), int(now.keepcost), int(now.arena), int(now.hblks))

    return figures
