"""The browser door's output budget: a page that stops reading holds its own Coven back, then is let go.

A :class:`BrowserSeat` with a socket whose sends wait until the test lets them through (the page reads
nothing meanwhile) and a stand-in for the player's Coven, so no process or network runs.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from tests.helpers.web_fakes import seat_for_test
from tui.server.config import ServeConfig
from tui.server.output import SEND_BUFFER_BYTES, cap_send_buffer
from tui.server.players import Login
from tui.server.server import ServerState
from tui.web.door import BrowserSeat
from tui.web.site import COOKIE, Door
from tui.web.tokens import TokenSigner

BUDGET = 16 * 1024


async def _until(check: Callable[[], object], what: str, bound: float = 30.0) -> None:
    deadline = time.monotonic() + bound
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def test_past_the_budget_the_coven_is_held_until_the_page_reads_again(tmp_path: Path) -> None:
    seat, page, _, coven, _ = seat_for_test(tmp_path, BUDGET)
    for _ in range(BUDGET // 1024 + 8):
        seat._output(b"x" * 1024)  # the Coven draws; the page reads nothing
    assert coven.paused
    page.reading.set()
    await _until(lambda: not coven.paused and coven.resumed, "the Coven to draw again")
    assert page.received == (BUDGET // 1024 + 8) * 1024  # nothing was lost on the way
    seat.hang_up()


async def test_a_page_that_reads_nothing_for_the_stall_timeout_is_dropped_and_its_place_freed(
        tmp_path: Path) -> None:
    seat, _, request, coven, state = seat_for_test(tmp_path, BUDGET)
    for _ in range(BUDGET // 1024 + 8):
        seat._output(b"x" * 1024)
    assert coven.paused
    await _until(lambda: seat.closed, "the stalled page to be dropped")
    assert request.transport.aborted
    await _until(lambda: coven.hung_up, "its Coven to be hung up")
    assert state.counter.count == 0


async def test_a_page_s_socket_has_its_kernel_send_buffer_fixed_as_an_ssh_client_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Else Linux grows it up to megabytes for a page that reads nothing, before the output budget counts a byte."""
    state = ServerState(ServeConfig(memory_floor=0), tmp_path)
    signer = TokenSigner()
    door = Door(state, signer)
    sizes: list[int] = []

    async def record_the_socket(seat: BrowserSeat) -> None:
        sock = seat.request.transport.get_extra_info("socket") if seat.request.transport else None
        assert sock is not None
        sizes.append(sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF))

    monkeypatch.setattr(BrowserSeat, "run", record_the_socket)
    async with TestServer(door.application()) as server, aiohttp.ClientSession(
            cookies={COOKIE: signer.sign(Login("ana", "Ana", None))}) as client:
        async with client.ws_connect(server.make_url("/ws")):
            await _until(lambda: sizes, "the visit to start")
    with socket.socket() as capped:  # what the kernel grants when asked for the cap (twice it, on Linux)
        cap_send_buffer(capped)
        granted = capped.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    # Left to itself, Linux had already grown this socket's buffer to 3.9 MB here.
    assert sizes == [granted] and granted <= 2 * SEND_BUFFER_BYTES
