"""Helpers shared by the shared-table test files: one TableStore per simulated process, a started table, a hosted one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from saves import SeatPlan, TableStore
from tests.helpers.waiting import until

if TYPE_CHECKING:
    from tui.app import CovenApp

PLAN = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]

Opener = Callable[[], TableStore]


def host_table(tables: TableStore, plan: list[SeatPlan] = PLAN) -> tuple[str, str]:
    hosted = tables.host("count-to-ten", {}, 7, plan, host_name="Ana")
    return hosted.info.code, hosted.token


def started(open_tables: Opener) -> tuple[TableStore, TableStore, int]:
    """A started two-seat table: the host plays seat 0 locally, Bea seat 1 from another connection."""
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    return host, bea, host.start(code)


async def host_from_menu(pilot: Any, app: CovenApp) -> str:
    """Open a table from the menu with the form's defaults (Wizards Cup, seat 2 remote); its code."""
    from tui.screens.host_table import HostTableScreen
    from tui.screens.lobby import LobbyScreen

    await pilot.press("h")
    # The whole form before ctrl+s: on a loaded run a fixed pause let ctrl+s reach the menu instead.
    await until(pilot, lambda: isinstance(app.screen, HostTableScreen) and bool(app.screen.query("#clock")),
                "the host form")
    await pilot.press("ctrl+s")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    return lobby.link.code


def turn_session(tables: TableStore, code: str) -> int:
    """The session of turn-based table ``code``, which started by itself when its last seat was taken."""
    session_id = tables.find(code).session_id
    assert session_id is not None, f"table {code} has not started"
    return session_id
