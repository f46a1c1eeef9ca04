"""A paste too long for the input gate: the player is told how much was dropped, once per flood, never a flood of notices.

The gate and the pacing on their own, the line from the server to the player's Coven, and a
server session (no SSH, no child process) telling its Coven. The toast on the player's screen is
checked in-process here, and over a real ``coven serve`` in test_serve_paste.py.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.serve_status import ServeStatus, dropped_line
from tui.server import connection as connection_module
from tui.server import drop_notice
from tui.server.admission import ChildStatus
from tui.server.drop_notice import DropNotices
from tui.server.limits import InputBudget
from tui.server.paste import KEY_BURST, PASTE_END, PASTE_START, InputGate


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _eventually(check: Callable[[], bool], what: str) -> None:
    for _ in range(6000):  # up to a minute on a busy machine; it takes milliseconds
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_the_gate_counts_the_characters_of_a_raw_paste_it_drops() -> None:
    gate = InputGate(clock=_Clock())
    text = "é".encode() * 1000  # two bytes a character
    passed = gate.filter(text, room=10**9)
    assert len(passed.decode()) == KEY_BURST
    assert gate.dropped_text == 1000 - KEY_BURST and gate.dropped == len(text) - len(passed)
    gate.filter(b"z" * 500, room=10**9)  # the flood goes on: all of it is dropped
    assert gate.dropped_text == 1000 - KEY_BURST + 500
    gate.take_dropped()
    assert gate.dropped_text == 0


def test_the_gate_counts_a_bracketed_paste_cut_to_its_budget_but_not_its_markers() -> None:
    gate = InputGate(InputBudget(burst=100, per_second=1, clock=lambda: 0.0), clock=_Clock())
    passed = gate.filter(PASTE_START + b"x" * 1000 + PASTE_END, room=10**9)
    assert passed.startswith(PASTE_START) and passed.endswith(PASTE_END)
    assert gate.dropped_text == 1000 - passed.count(b"x")


def test_notices_come_once_per_flood_and_at_a_steady_pace() -> None:
    clock = _Clock()
    notices = DropNotices(clock)
    assert notices.take() is None  # nothing dropped, nothing to say
    notices.add(700)
    assert notices.take() == 700
    clock.now += 1.0
    notices.add(50)  # a second flood at once: not told yet
    notices.add(25)
    assert notices.take() is None and notices.wait() == pytest.approx(drop_notice.NOTICE_GAP_SECONDS - 1.0)
    clock.now += drop_notice.NOTICE_GAP_SECONDS
    assert notices.wait() == 0 and notices.take() == 75  # both, in one notice
    assert notices.take() is None


def test_the_server_tells_the_coven_and_the_coven_hears_only_that() -> None:
    async def scenario() -> list[int]:
        heard: list[int] = []
        status = ChildStatus()
        child = ServeStatus.from_environment({"COVEN_SERVE_STATUS_FD": str(os.dup(status.child_fd))})
        status.listen()
        child.listen(heard.append)
        assert status.say(dropped_line(1234))
        for junk in ("dropped", "dropped -1", "dropped x", "dropped ١٢", "ready", "dropped " + "9" * 40):
            status.say(junk)
        status.say(dropped_line(5))
        await _eventually(lambda: len(heard) == 2, "the two notices")
        status.close()
        child.close()
        assert not status.say(dropped_line(1))  # the child is gone: nothing said, nothing raised
        return heard

    assert asyncio.run(scenario()) == [1234, 5]


def test_a_session_tells_its_coven_once_per_flood_and_holds_the_next_notice_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.server.config import ServeConfig
    from tui.server.connection import CovenSession
    from tui.server.server import CovenConnection, ServerState

    monkeypatch.setattr(connection_module, "DROP_REPORT_SECONDS", 0.05)
    monkeypatch.setattr(drop_notice, "NOTICE_GAP_SECONDS", 0.2)

    async def scenario() -> None:
        state = ServerState(ServeConfig(max_sessions=1), tmp_path)
        connection = CovenConnection(state)
        session = CovenSession(connection)
        session.gate = InputGate(clock=_Clock())  # still: a flood never ends by itself here
        notice_clock = _Clock()
        session.notices = DropNotices(notice_clock)
        session.status = ChildStatus()
        heard: list[int] = []
        child = ServeStatus.from_environment({"COVEN_SERVE_STATUS_FD": str(os.dup(session.status.child_fd))})
        session.status.listen()
        child.listen(heard.append)
        for _ in range(4):  # one flood in four reads
            session.data_received(b"z" * 10_000, None)  # type: ignore[arg-type]
        await _eventually(lambda: bool(heard), "the first notice")
        assert heard == [40_000 - KEY_BURST]
        session.data_received("é".encode() * 300, None)  # type: ignore[arg-type]  # another flood, at once
        await _eventually(lambda: session.drop_timer is None and not session.gate.dropped, "the second report")
        assert heard == [40_000 - KEY_BURST] and session.notice_timer is not None  # held back, not dropped
        notice_clock.now += drop_notice.NOTICE_GAP_SECONDS
        await _eventually(lambda: len(heard) == 2, "the held notice")
        assert heard[1] == 300
        session.client_gone()
        child.close()

    asyncio.run(scenario())


async def test_the_notice_reaches_the_players_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = socket.socketpair()
    os.set_blocking(theirs.fileno(), False)
    status = ServeStatus(theirs.detach())
    monkeypatch.setattr("tui.app.serve_status", lambda: status)
    ours.sendall(dropped_line(12_345).encode() + b"\n")  # kept by the socket until the Coven listens
    app = CovenApp(serve_port=2222, account="ana", signed_in=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # toasts drawn, as a player sees them
        await until(pilot, lambda: ("Pasted text too long: 12,345 characters" in _toast_text(app)
                                    and "Pasted text too long: 12,345" in _drawn_text(app)), "the notice on screen")
    status.close()
    ours.close()


def _toast_text(app: CovenApp) -> str:
    """The words of the toasts on screen, with the line breaks of their wrapping taken out."""
    from textual.widgets._toast import Toast

    return " ".join(" ".join(str(toast.render()).split()) for toast in app.screen.query(Toast))


def _drawn_text(app: CovenApp) -> str:
    """The screen's text run by run, as drawn (the screenshot splits a styled number from its words)."""
    return html.unescape("".join(re.findall(r">([^<]*)<", app.export_screenshot()))).replace("\xa0", " ")
