"""The browser door's output budget: a page that stops reading holds its own Coven back, then is let go.

A :class:`BrowserSeat` with a socket whose sends wait until the test lets them through (the page reads
nothing meanwhile) and a stand-in for the player's Coven, so no process or network runs.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from tui.server.config import ServeConfig
from tui.server.players import Login
from tui.server.server import ServerState
from tui.web.door import BrowserSeat

BUDGET = 16 * 1024


async def _until(check: Callable[[], object], what: str, bound: float = 30.0) -> None:
    deadline = time.monotonic() + bound
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


class _Page:
    """A socket whose binary sends complete only while ``reading`` is set."""

    def __init__(self) -> None:
        self.reading = asyncio.Event()
        self.closed = False
        self.received = 0

    async def send_bytes(self, data: bytes) -> None:
        await self.reading.wait()
        self.received += len(data)

    async def send_str(self, data: str) -> None:
        return None


class _Transport:
    def __init__(self) -> None:
        self.aborted = False

    def get_write_buffer_size(self) -> int:
        return 0

    def abort(self) -> None:
        self.aborted = True


class _Request:
    def __init__(self) -> None:
        self.transport = _Transport()


class _Coven:
    """What the seat does to its player's Coven."""

    def __init__(self) -> None:
        self.paused = False
        self.resumed = 0
        self.hung_up = False

    def pause_output(self) -> None:
        self.paused = True

    def resume_output(self) -> None:
        self.paused = False
        self.resumed += 1

    async def hang_up(self) -> int:
        self.hung_up = True
        return 0


def _seat(tmp_path: Path) -> tuple[BrowserSeat, _Page, _Request, _Coven, ServerState]:
    state = ServerState(ServeConfig(output_budget=BUDGET, stall_timeout=1.0, memory_floor=0), tmp_path)
    page, request, coven = _Page(), _Request(), _Coven()
    seat = BrowserSeat(state, page, request, Login("ana", "Ana", None), 1, "127.0.0.1")  # type: ignore[arg-type]
    assert state.counter.try_admit()
    seat.admitted = True
    seat.child = coven  # type: ignore[assignment]
    seat._sender = asyncio.create_task(seat._send_output())
    return seat, page, request, coven, state


async def test_past_the_budget_the_coven_is_held_until_the_page_reads_again(tmp_path: Path) -> None:
    seat, page, _, coven, _ = _seat(tmp_path)
    for _ in range(BUDGET // 1024 + 8):
        seat._output(b"x" * 1024)  # the Coven draws; the page reads nothing
    assert coven.paused
    page.reading.set()
    await _until(lambda: not coven.paused and coven.resumed, "the Coven to draw again")
    assert page.received == (BUDGET // 1024 + 8) * 1024  # nothing was lost on the way
    seat.hang_up()


async def test_a_page_that_reads_nothing_for_the_stall_timeout_is_dropped_and_its_place_freed(
        tmp_path: Path) -> None:
    seat, _, request, coven, state = _seat(tmp_path)
    for _ in range(BUDGET // 1024 + 8):
        seat._output(b"x" * 1024)
    assert coven.paused
    await _until(lambda: seat.closed, "the stalled page to be dropped")
    assert request.transport.aborted
    await _until(lambda: coven.hung_up, "its Coven to be hung up")
    assert state.counter.count == 0
