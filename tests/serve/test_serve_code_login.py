"""``ssh CODE@host`` under ``--auth none``: the code opens the table, and is nobody's name or account.

One real SSH client; the table is hosted from the test's own process, as another Coven would host it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from saves import SessionStore, db_path
from saves.presence import Presence
from saves.tables import SeatPlan, TableStore
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_player_who_logs_in_with_the_code_is_asked_for_a_name(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server, SessionStore() as store, Presence() as presence:
        hal = TableStore(store, presence)
        plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
        code = hal.host("wizards-cup", {}, 3, plan, host_name="Hal").info.code

        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, code)  # `ssh KXMP@host`
            screen = await player.wait_for("Take seat 2")
            assert code.capitalize() not in screen  # the code is not offered as the player's name
            player.press("enter", "enter")  # from the empty name field to the seats, and take one: refused
            await player.wait_for(lambda text: "Type your name first" in flat(text))
            assert hal.find(code).open_seats() == [1]
            player.send("Cy")  # the name field has the keyboard again
            player.press("enter", "enter")
            await player.wait_for(lambda text: "Waiting for Hal to start" in flat(text))
            assert hal.find(code).seats[1].name == "Cy"
            player.press("escape")  # leave the seat: back at the menu, the player is still Cy, not "Player"
            await player.wait_for(lambda text: "Leave table" not in text and "Sessions" in text)  # the menu
            player.send("j")
            await player.wait_for(lambda text: any("Your name" in line and " Cy " in f"{line} "
                                                   for line in text.splitlines()))
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)
    conn = sqlite3.connect(db_path())
    try:  # the visit kept nothing under the code's name
        assert conn.execute("SELECT count(*) FROM preferences WHERE account = ?", (code,)).fetchone() == (0,)
    finally:
        conn.close()
