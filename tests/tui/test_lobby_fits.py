"""The lobby at 80x24 with spectators allowed: every line in view, what the table waits for included.

The spectators' line and the token's line each take two rows there; they once pushed "Everyone is here. Press
s to start." below the screen's edge while the Footer still offered ``s``. The lobby reads the same whoever
serves it (SSH, the browser door, or nobody), so each is checked.
"""

from __future__ import annotations

import pytest

from saves.tables import SeatPlan, TableStore
from tests.helpers.layout_audit import rows
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.lobby import LobbyScreen

DOORS = {
    "ssh": {"serve_port": 2222, "serve_host": "0.0.0.0"},
    "browser": {"serve_port": 8000, "serve_host": "127.0.0.1", "serve_browser": True},
    "one machine": {},
}


def shown(app: CovenApp) -> str:
    """The rows the screen draws, as text (what fell below its edge is not there)."""
    return "\n".join(rows(app))


@pytest.mark.parametrize("door", list(DOORS))
async def test_the_lobby_at_80x24_shows_everyone_is_here_with_spectators_allowed(door: str,
                                                                                  other: TableStore) -> None:
    app = CovenApp(auto_delay=60.0, player_name="ana", **DOORS[door])  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.tables.store() is not None, "the table store")
        tables = app.tables.store()
        assert tables is not None
        plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
        hosted = tables.host("wizards-cup", {}, 3, plan, host_name="Ana", allow_spectators=True)
        app.tables.enter_table(hosted.info.code, hosted.token)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.take_seat(hosted.info.code, 1, "Bea")
        await until(pilot, lambda: "Bea · seated" in shown(app) and "s Start game" in " ".join(rows(app)[-1].split()),
                    "Bea in the lobby and the Footer offering s")
        drawn = rows(app)
        assert len(drawn) == 24
        assert "Everyone is here. Press s to start." in shown(app), "\n".join(drawn)
        text = shown(app)
        for line in ("Bea · seated", "Spectators: allowed", "Your host token:", "table back (Join a table).",
                     "Join a table → " + hosted.info.code):
            assert line in text, line
        assert "╰" in text  # the box's bottom edge: nothing below the status is cut either
