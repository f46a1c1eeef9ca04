"""The lobby at 80x24 with spectators allowed: every line in view, what the table waits for included.

The spectators' line and the token's line each take two rows there; they once pushed "Everyone is here. Press
s to start." below the screen's edge while the Footer still offered ``s``. The lobby reads the same whoever
serves it (SSH, the browser door, or nobody), so each is checked. A five-seat WitchDraft table has three seat
lines more: there the big join code gives way to a one-line code, for the host, a seated player and a spectator.
"""

from __future__ import annotations

import pytest

from saves.tables import SeatPlan, TableStore
from tests.helpers.layout_audit import at_size, look, rows
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.lobby import LobbyScreen
from tui.widgets.join_code import big_text

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
        assert big_text(hosted.info.code).splitlines()[0].strip() in text  # room for the big letters, kept


FIVE = ("Ana", "Bea", "Cy", "Dot", "Eve")
"""The five players of a full WitchDraft table: Ana hosts, at her own terminal."""

WHO = ("host", "player", "spectator")


async def five_seat_lobby(pilot: object, app: CovenApp, other: TableStore, who: str) -> str:
    """A five-seat WitchDraft table with spectators allowed, every seat filled, in ``who``'s lobby; its code."""
    tables = app.tables.store()
    assert tables is not None
    host = tables if who == "host" else other
    plan = [SeatPlan("local", FIVE[0]), *(SeatPlan("remote", f"Seat {seat + 1}") for seat in range(1, 5))]
    hosted = host.host("witchdraft", {}, 5, plan, host_name=FIVE[0], allow_spectators=True)
    code = hosted.info.code
    if who == "host":
        app.tables.enter_table(code, hosted.token)
    elif who == "player":
        app.tables.enter_table(code, tables.take_seat(code, 1, FIVE[1]))
    else:
        app.tables.watch(code, "Wes")
    for seat in range(2 if who == "player" else 1, 5):
        other.take_seat(code, seat, FIVE[seat])
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                and all(f"{seat + 1}. {FIVE[seat]}" in shown(app) for seat in range(5)), "everyone in the lobby")
    return code


@pytest.mark.parametrize("who", WHO)
async def test_a_five_seat_witchdraft_lobby_at_80x24_shows_every_line(who: str, other: TableStore) -> None:
    app = CovenApp(auto_delay=60.0, player_name="bea", **DOORS["ssh"])  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.tables.store() is not None, "the table store")
        code = await five_seat_lobby(pilot, app, other, who)
        status = {"host": "Everyone is here. Press s to start.", "player": "Waiting for Ana to start the game…",
                  "spectator": "Waiting for Ana to start the game…"}[who]
        token = {"host": ("Your host token:", "(Join a table)."), "player": ("Your seat token:", "(Join a table)."),
                 "spectator": ("You are watching: you see only what every player sees.",)}[who]
        try:
            await until(pilot, lambda: status in shown(app) and "╰" in shown(app),
                        "the status and the box's bottom edge in view")
        except AssertionError as error:
            raise AssertionError(f"{error}; the screen shows:\n{shown(app)}") from None
        drawn = rows(app)
        assert len(drawn) == 24
        text = shown(app)
        for line in (f"WitchDraft · table {code}", " ".join(code), f"ssh -p 2222 {code}@",
                     f"Join a table → {code}", "Spectators", *token, status):
            assert line in text, f"{line!r} is not in view:\n{text}"
        seen = look(app, f"the {who}'s five-seat lobby")
        assert not seen.problems, seen.problems
        big = big_text(code).splitlines()[0].strip()
        assert big not in text  # the one-line code made the room
        await at_size(pilot, (120, 40))  # a taller terminal has room for the big letters again
        await until(pilot, lambda: big in shown(app) and status in shown(app), "the big code back at 120x40")
