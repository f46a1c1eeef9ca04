"""The warm parent fills the holes of its C heap before it forks, so a player's blocks come from pages of its own
instead of copying the parent's pages one small block at a time (``coven bench seat-memory`` gives the figures)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui import heap

REPO = Path(__file__).resolve().parents[2]


# Holes are made and filled in a fresh process: glibc's figures add up every thread's heap, and a process that
# has run threads (pytest's has) keeps heaps that a fill from one thread never reaches. The warm parent runs none.
_HOLES_THEN_FILL = """
import ctypes, sys
from tui import heap
libc = heap._libc()
assert libc is not None and heap.heap_holes() is not None, "this test runs where the C library is glibc 2.33+"
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.restype, libc.free.argtypes = None, [ctypes.c_void_p]
blocks = [libc.malloc(24 + 40 * (number % 50)) for number in range(600)]
for block in blocks[::2]:  # every other block freed: holes between the ones kept
    libc.free(block)
holes = heap.heap_holes()
filled = heap.fill_heap_holes()
left = heap.heap_holes()
figures = heap._heap_figures()
_, top = figures()
block = libc.malloc(4000)  # larger than any block glibc's per-thread cache keeps for reuse
print(holes, filled, left, int(figures()[1] < top))
"""


def test_filling_takes_every_hole_below_the_heaps_top_and_later_blocks_come_from_the_top(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _HOLES_THEN_FILL], cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    holes, filled, left, from_the_top = map(int, done.stdout.split())
    assert holes > 100_000  # the holes were made
    assert left == 0
    assert filled == holes
    assert from_the_top == 1, "a block asked for after filling was put in a hole"


class _HeapUnlikeGlibcs:
    """A C library whose heap's top never changes and whose holes never fill: the filling must still end."""

    def __init__(self, give: bool) -> None:
        self.asked = 0

        def malloc(size: int) -> int | None:  # plain functions, as ctypes' are: they take restype and argtypes
            self.asked += 1
            return 4096 * self.asked if give else None

        def free(block: int) -> None:
            pass

        self.malloc, self.free = malloc, free


def test_filling_ends_on_a_heap_whose_holes_never_fill(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _HeapUnlikeGlibcs(give=True)
    monkeypatch.setattr(heap, "_libc", lambda: fake)
    monkeypatch.setattr(heap, "_heap_figures", lambda: lambda: (3_200, 1_000))
    assert heap.fill_heap_holes() == 0
    assert fake.asked == 3_200 // heap.SMALLEST_BLOCK + heap.CACHED_BLOCKS


def test_filling_ends_when_no_block_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _HeapUnlikeGlibcs(give=False)
    monkeypatch.setattr(heap, "_libc", lambda: fake)
    monkeypatch.setattr(heap, "_heap_figures", lambda: lambda: (3_200, 1_000))
    heap.fill_heap_holes()
    assert fake.asked == 1


def test_without_glibcs_figures_nothing_is_filled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_libc", lambda: None)
    assert heap.heap_holes() is None
    assert heap.fill_heap_holes() == 0


def test_the_warm_parent_forks_with_no_hole_in_its_heap(tmp_path: Path) -> None:
    script = "from tui.server import warm\nfrom tui import heap\nwarm.get_ready()\nprint(heap.heap_holes())"
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"]
