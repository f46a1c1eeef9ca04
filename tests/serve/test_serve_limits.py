"""The limits of ``coven serve`` on their own: per-address keys, the input gate that spares paste
markers, and a session start that fails (the password throttle is in test_serve_auth_throttle.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tui.server.limits import InputBudget, address_key
from tui.server.paste import FLOOD_QUIET_SECONDS, KEY_BURST, PASTE_END, PASTE_START, InputGate


def _paste(size: int) -> bytes:
    return PASTE_START + b"x" * size + PASTE_END


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_raw_paste_passes_one_key_burst_then_nothing_until_the_input_pauses() -> None:
    clock = _Clock()
    gate = InputGate(clock=clock)
    passed = b"".join(gate.filter(b"z" * 32 * 1024, room=10**9) for _ in range(32))  # a megabyte, in 32 reads
    assert passed == b"z" * KEY_BURST and gate.flooding
    for _ in range(20):  # the flood trickles on for seconds: the key budget refills, but nothing passes
        clock.now += FLOOD_QUIET_SECONDS / 2
        assert gate.filter(b"z" * 1024, room=10**9) == b""
    assert gate.passed == KEY_BURST and gate.take_dropped() == 32 * 32 * 1024 + 20 * 1024 - KEY_BURST
    clock.now += FLOOD_QUIET_SECONDS  # the player stopped pasting, then presses a key
    assert gate.filter(b"s", room=10**9) == b"s" and not gate.flooding


def test_the_key_budget_never_cuts_a_key_in_half_and_lets_a_mouse_swipe_through() -> None:
    clock = _Clock()
    swipe = b"".join(b"\x1b[<35;%d;12M" % column for column in range(1, 201))  # 200 motion reports
    gate = InputGate(clock=clock)
    assert gate.filter(swipe, room=10**9) == swipe  # 200 keys, though some 2.6 KiB
    assert not gate.flooding
    clock.now += 1.0
    keys = "é".encode() * 100 + b"\x1b[A" * 100 + b"\x1bOP" * 100  # UTF-8, arrows, F1: 300 keys
    passed = gate.filter(keys, room=10**9)
    assert gate.flooding and 0 < len(passed) < len(keys)
    assert keys.startswith(passed) and passed.decode()  # whole characters, whole sequences
    assert len(passed) in {2 * n for n in range(101)} | {200 + 3 * n for n in range(101)}
    tight = InputGate(clock=clock)
    assert tight.filter(b"ab\x1b[<35;1;1M", room=5) == b"ab"  # the child's queue has room for 5 bytes only


def test_the_key_flood_leaves_a_bracketed_paste_whole() -> None:
    clock = _Clock()
    gate = InputGate(clock=clock)
    assert gate.filter(b"z" * 10_000, room=10**9) == b"z" * KEY_BURST
    passed = gate.filter(_paste(1000) + b"q", room=10**9)
    assert passed == _paste(1000)  # the paste is one event for the app: its own budget, not the keys'
    assert gate.flooding and not gate.in_paste


def test_the_per_address_key_counts_ipv6_by_its_64_and_ipv4_whole() -> None:
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("203.0.113.8") != address_key("203.0.113.7")
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == \
        "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("not an address") == "not an address"


def test_the_input_gate_never_cuts_a_marker_even_split_across_reads() -> None:
    data = _paste(50_000) + b"q"
    for cut in range(1, 60, 1):
        cuts = [cut, len(PASTE_START) + 49_995 + cut % 7, len(data) - 1]
        gate = InputGate(InputBudget(burst=1000, per_second=1, clock=lambda: 0.0))
        pieces = [data[start:end] for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        passed = b"".join(gate.filter(piece, room=10**9) for piece in pieces)
        assert passed.startswith(PASTE_START) and passed.count(PASTE_START) == 1
        assert PASTE_END in passed and not gate.in_paste
        assert gate.take_dropped() == len(data) - len(passed)


def test_the_input_gate_passes_a_lone_escape_at_once_and_bounds_a_flood_of_markers() -> None:
    gate = InputGate(InputBudget(burst=100, per_second=1, clock=lambda: 0.0))
    assert gate.filter(b"\x1b", room=10**9) == b"\x1b"  # never held back waiting for a marker
    assert gate.filter(b"j", room=10**9) == b"j"
    flood = (PASTE_START + PASTE_END) * 10_000
    passed = gate.filter(flood, room=10**9)
    assert len(passed) < 3000 and not gate.in_paste
    assert passed.count(PASTE_START) == passed.count(PASTE_END)


class _FakeChannel:
    def __init__(self) -> None:
        self.stderr = b""
        self.status: int | None = None

    def get_environment(self) -> dict[str, str]:
        return {}

    def write_stderr(self, data: bytes) -> None:
        self.stderr += data

    def write(self, data: bytes) -> None:
        pass

    def exit(self, status: int) -> None:
        self.status = status


class _FakeConnection:
    def __init__(self) -> None:
        self.disconnected: tuple[int, str] | None = None

    def get_extra_info(self, name: str) -> object:
        return ("127.0.0.1", 40000) if name == "peername" else None

    def disconnect(self, code: int, reason: str) -> None:
        self.disconnected = (code, reason)


def test_a_session_that_cannot_start_frees_its_place_and_closes_with_a_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.server.config import ServeConfig
    from tui.server.connection import CovenSession
    from tui.server.pty_bridge import PtyChild
    from tui.server.server import CovenConnection, ServerState

    async def no_pty_left(self: PtyChild) -> None:
        raise RuntimeError("out of pseudo-terminals")

    monkeypatch.setattr(PtyChild, "start", no_pty_left)

    async def scenario() -> None:
        state = ServerState(ServeConfig(max_sessions=1), tmp_path)
        connection, conn, chan = CovenConnection(state), _FakeConnection(), _FakeChannel()
        connection.connection_made(conn)  # type: ignore[arg-type]
        assert connection.begin_auth("ana") is False
        session = CovenSession(connection)
        session.connection_made(chan)  # type: ignore[arg-type]
        session.pty_requested("xterm", (80, 24, 0, 0), {})
        session.session_started()
        assert state.counter.count == 1
        for _ in range(6000):  # up to a minute on a busy machine; it takes milliseconds
            await asyncio.sleep(0.01)
            if conn.disconnected:
                break
        assert state.counter.count == 0
        assert chan.stderr == b"Coven could not start here; tell the host.\r\n" and chan.status == 1
        assert conn.disconnected is not None and conn.disconnected[1] == "Coven could not start here; tell the host."
        connection.connection_lost(None)

    asyncio.run(scenario())


class _ClosingChannel(_FakeChannel):
    """A channel the client has already closed: asyncssh refuses writes to it."""

    def write(self, data: bytes) -> None:
        raise BrokenPipeError("channel is closing")

    def exit(self, status: int) -> None:
        raise BrokenPipeError("channel is closing")


def test_a_goodbye_to_a_client_that_already_left_ends_the_session_quietly(tmp_path: Path) -> None:
    from tui.server.config import ServeConfig
    from tui.server.connection import CovenSession
    from tui.server.server import CovenConnection, ServerState

    async def scenario() -> None:
        state = ServerState(ServeConfig(max_sessions=1), tmp_path)
        connection, conn, chan = CovenConnection(state), _FakeConnection(), _ClosingChannel()
        connection.connection_made(conn)  # type: ignore[arg-type]
        session = CovenSession(connection)
        session.connection_made(chan)  # type: ignore[arg-type]
        session.say_goodbye("The server is stopping.")  # raised BrokenPipeError before
        assert session.closed
        connection.connection_lost(None)

    asyncio.run(scenario())


def test_output_or_an_exit_for_a_client_that_already_left_ends_the_session_quietly(tmp_path: Path) -> None:
    from tui.server.config import ServeConfig
    from tui.server.connection import CovenSession
    from tui.server.server import CovenConnection, ServerState

    async def scenario() -> None:
        state = ServerState(ServeConfig(max_sessions=2), tmp_path)
        for ending in ("_output", "_exited"):
            connection, conn, chan = CovenConnection(state), _FakeConnection(), _ClosingChannel()
            connection.connection_made(conn)  # type: ignore[arg-type]
            session = CovenSession(connection)
            session.connection_made(chan)  # type: ignore[arg-type]
            if ending == "_output":
                session._output(b"a frame for a client that is gone")  # raised BrokenPipeError before
            else:
                session._exited(0)
            assert session.closed, ending
            connection.connection_lost(None)

    asyncio.run(scenario())


def test_beyond_the_pending_limit_a_new_connection_is_refused_with_a_reason(tmp_path: Path) -> None:
    from tui.server.config import ServeConfig
    from tui.server.server import MIN_PENDING, CovenConnection, ServerState

    async def scenario() -> None:
        state = ServerState(ServeConfig(max_sessions=2, rate_burst=1000), tmp_path)
        assert state.max_pending == MIN_PENDING
        waiting = []
        for _ in range(MIN_PENDING + 1):
            connection, conn = CovenConnection(state), _FakeConnection()
            connection.connection_made(conn)  # type: ignore[arg-type]
            waiting.append((connection, conn))
        await asyncio.sleep(0)  # refusals are sent on the next loop turn
        refused = [conn.disconnected for _, conn in waiting if conn.disconnected]
        assert len(refused) == 1
        assert refused[0][1] == "Too many connections are logging in right now; try again in a minute."
        for connection, _ in waiting:
            connection.connection_lost(None)
        assert not state.connections

    asyncio.run(scenario())
