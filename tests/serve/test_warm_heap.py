"""The warm parent fills the holes of its C heap before it forks, so a player's blocks come from pages of its own
instead of copying the parent's pages one small block at a time (``coven bench seat-memory`` gives the figures)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tui import heap
from tui.server.warm import CONTROL_FD_FLAG, HEADER, MAX_REQUEST

REPO = Path(__file__).resolve().parents[2]


# Holes are made and filled in a fresh process: glibc's figures add up every thread's heap, and a process that
# has run threads (pytest's has) keeps heaps that a fill from one thread never reaches. The warm parent runs none.
_HOLES_THEN_FILL = """
import ctypes, sys
from tui import heap
from tui.server.warm import CONTROL_FD_FLAG, HEADER, MAX_REQUEST
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
top = figures().top
block = libc.malloc(1500)  # larger than glibc's per-thread cache keeps, smaller than the largest hole
print(holes, filled, left, int(figures().top < top))
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


class _FakeHeap:
    """A C library and heap figures that answer as scripted: which of the blocks asked for come from a hole.

    ``from_hole(size, round)`` says whether the next block of ``size`` comes from a hole (True), from the top
    (False: the top's size changes) or is refused (None), in ``round`` (counted by the sizes' restarts).
    """

    def __init__(self, from_hole: Callable[[int, int], bool | None], holes: int = 3_200) -> None:
        self.asked: list[int] = []
        self.freed: list[int] = []
        self.rounds = 0
        self.top = 1_000
        self.holes = holes
        last = [0]

        def malloc(size: int) -> int | None:  # plain functions, as ctypes' are: they take restype and argtypes
            if size > last[0]:
                self.rounds += 1
            last[0] = size
            self.asked.append(size)
            answer = from_hole(size, self.rounds)
            if answer is None:
                return None
            if answer:
                self.holes = max(0, self.holes - size)
            else:
                self.top -= size
            return 4096 * len(self.asked)

        def free(block: int) -> None:
            self.freed.append(block)

        self.malloc, self.free = malloc, free

    def figures(self) -> heap._HeapNow:
        return heap._HeapNow(self.holes, self.top, 10_000_000, 0)


def _use(monkeypatch: pytest.MonkeyPatch, fake: _FakeHeap) -> None:
    monkeypatch.setattr(heap, "_libc", lambda: fake)
    monkeypatch.setattr(heap, "_heap_figures", lambda: fake.figures)
    monkeypatch.delenv("PYTHONMALLOC", raising=False)


def test_filling_never_asks_for_more_than_the_holes_and_glibcs_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeHeap(lambda size, round_: True)  # a heap whose holes never run out, unlike glibc's
    _use(monkeypatch, fake)
    heap.fill_heap_holes()
    assert 3_200 + heap.CACHED_BYTES - heap.LARGEST_FILLER < sum(fake.asked) <= 3_200 + heap.CACHED_BYTES


def test_filling_stops_at_the_first_round_that_takes_no_hole(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeHeap(lambda size, round_: round_ == 1 and size == 64 and len(fake.asked) % 2 == 1)
    _use(monkeypatch, fake)
    heap.fill_heap_holes()
    assert fake.rounds == 2  # the second round found nothing: no third
    sizes = len(range(heap.LARGEST_FILLER.bit_length() - heap.SMALLEST_FILLER.bit_length() + 1))
    assert fake.asked.count(heap.LARGEST_FILLER) == 2 and len(fake.asked) == 2 * sizes + 1


def test_filling_goes_at_most_the_set_number_of_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: set[int] = set()

    def one_hole_a_round(size: int, round_: int) -> bool:  # a hole appears each round, as if freed meanwhile
        if size == 16 and round_ not in taken:
            taken.add(round_)
            return True
        return False

    fake = _FakeHeap(one_hole_a_round)
    _use(monkeypatch, fake)
    heap.fill_heap_holes()
    assert fake.rounds == heap.FILLING_ROUNDS and taken == set(range(1, heap.FILLING_ROUNDS + 1))


def test_blocks_that_came_from_the_top_are_handed_back(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeHeap(lambda size, round_: False)
    _use(monkeypatch, fake)
    heap.fill_heap_holes()
    assert len(fake.freed) == len(fake.asked)  # none kept: they were no holes


def test_filling_ends_when_no_block_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeHeap(lambda size, round_: None)
    _use(monkeypatch, fake)
    heap.fill_heap_holes()
    assert fake.asked == [heap.LARGEST_FILLER]


def test_where_python_allocates_with_malloc_nothing_is_filled(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeHeap(lambda size, round_: True)
    _use(monkeypatch, fake)
    monkeypatch.setenv("PYTHONMALLOC", "malloc")
    assert heap.fill_heap_holes() == 0 and fake.asked == []


def test_without_glibcs_figures_nothing_is_filled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_libc", lambda: None)
    assert heap.heap_holes() is None
    assert heap.fill_heap_holes() == 0


# A real warm parent (tui.server.warm's main, as coven serve starts it) whose forking of a player is replaced by
# reporting its heap's holes at that moment, as the player's "pid".
_HOLES_AT_EACH_FORK = """
import sys
from tui import heap
from tui.server.warm import CONTROL_FD_FLAG, HEADER, MAX_REQUEST
from tui.server import warm
warm._fork_player = lambda request, fds, server_pid: heap.heap_holes()
sys.exit(warm.main(sys.argv[1:]))
"""


def test_the_warm_parent_has_no_hole_in_its_heap_when_it_forks_each_player(tmp_path: Path) -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.settimeout(300)
    with ours:
        parent = subprocess.Popen([sys.executable, "-c", _HOLES_AT_EACH_FORK, f"{CONTROL_FD_FLAG}={theirs.fileno()}"],
                                  pass_fds=[theirs.fileno()], cwd=tmp_path, stdin=subprocess.DEVNULL,
                                  env=dict(os.environ, PYTHONPATH=str(REPO)))
        theirs.close()
        try:
            assert json.loads(ours.recv(MAX_REQUEST)).get("ready") is True
            holes = []
            for number in (1, 2, 3):
                reading, writing = os.pipe()
                try:
                    socket.send_fds(ours, [number.to_bytes(HEADER, "big") + b'{"argv": []}'], [reading])
                finally:
                    os.close(reading)
                    os.close(writing)
                answer = json.loads(ours.recv(MAX_REQUEST))
                assert answer["id"] == number
                holes.append(answer["pid"])
        finally:
            ours.close()  # the server's end closed: the warm parent exits
            assert parent.wait(timeout=60) == 0
    assert holes == [0, 0, 0]
