"""Over real SSH: a player finds a listed table on the Open tables screen and joins it with enter."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from saves import SessionStore
from saves.presence import Presence
from saves.tables import SeatPlan, TableStore
from tests.helpers.ssh_client import ServeProcess, SSHPlayer


def flat(text: str) -> str:
    return " ".join(text.split())


def test_an_ssh_player_joins_a_listed_table_from_the_open_tables_screen() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    with SessionStore() as store, Presence() as presence, ServeProcess.start(data_dir) as server:
        hal = TableStore(store, presence)  # the host is this test's process, with its own claim
        plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
        hal.host("wizards-cup", {}, 5, plan, host_name="Uma")  # by code only: never listed
        code = hal.host("wizards-cup", {}, 5, plan, host_name="Hal", listed=True).info.code
        asyncio.run(join_from_the_list(server, hal, code))


async def join_from_the_list(server: ServeProcess, hal: TableStore, code: str) -> None:
    bea = await SSHPlayer.connect(server.port, "bea")
    await bea.wait_for("C O V E N")
    bea.press("t")
    await bea.wait_for(lambda text: "Wizards Cup" in text and "Hal" in text and "1 of 2" in text)
    assert "Uma" not in bea.text()
    bea.press("enter")
    await bea.wait_for(lambda text: "Waiting for Hal to start" in flat(text))
    seat = hal.find(code).seats[1]
    assert seat.name == "Bea" and seat.claim is not None
    assert hal.listed().tables == ()  # full now
    await bea.close()
