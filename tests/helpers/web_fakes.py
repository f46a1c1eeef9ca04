"""Stand-ins for a browser seat's page, connection and Coven, so a :class:`BrowserSeat` runs in-process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from tui.server.config import ServeConfig
from tui.server.limits import RateLimiter
from tui.server.players import Login
from tui.server.server import ServerState
from tui.web.door import MESSAGE_BURST, MESSAGE_RATE, BrowserSeat


class Page:
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


class Transport:
    def __init__(self) -> None:
        self.aborted = False

    def get_write_buffer_size(self) -> int:
        return 0

    def abort(self) -> None:
        self.aborted = True


class Request:
    def __init__(self) -> None:
        self.transport = Transport()


class Coven:
    """What the seat does to its player's Coven."""

    def __init__(self) -> None:
        self.paused = False
        self.resumed = 0
        self.hung_up = False
        self.sizes: list[tuple[int, int]] = []

    def pause_output(self) -> None:
        self.paused = True

    def resume_output(self) -> None:
        self.paused = False
        self.resumed += 1

    def resize(self, columns: int, rows: int) -> None:
        self.sizes.append((columns, rows))

    async def hang_up(self) -> int:
        self.hung_up = True
        return 0


def seat_for_test(tmp_path: Path, budget: int = 1 << 20, clock: Callable[[], float] | None = None,
                  ) -> tuple[BrowserSeat, Page, Request, Coven, ServerState]:
    """A seat admitted and pumping output, its Coven a :class:`Coven`; ``clock`` drives its message rate."""
    state = ServerState(ServeConfig(output_budget=budget, stall_timeout=1.0, memory_floor=0), tmp_path)
    page, request, coven = Page(), Request(), Coven()
    seat = BrowserSeat(state, page, request, Login("ana", "Ana", None), 1, "127.0.0.1")  # type: ignore[arg-type]
    assert state.counter.try_admit()
    seat.admitted = True
    seat.child = coven  # type: ignore[assignment]
    seat._sender = asyncio.create_task(seat._send_output())
    if clock is not None:
        seat.messages = RateLimiter(MESSAGE_BURST, 1.0 / MESSAGE_RATE, clock=clock)
    return seat, page, request, coven, state
