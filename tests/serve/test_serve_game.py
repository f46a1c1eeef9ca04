"""Two players on real SSH connections host, join and play a whole Wizards Cup table.

Each player is an asyncssh client whose screen pyte renders. The test reads
the shared store only to know whose turn it is and what is secret; every
move is a key sent over a channel. At every look at a screen it checks that
no card the other seat keeps hidden is on it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from saves import SessionStore
from saves.presence import Presence
from saves.tables import TableStore
from tests.helpers.serve_game import choose_team, open_table, play_whole_game
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until


def test_two_ssh_players_play_a_whole_wizards_cup_table_and_a_dropped_one_comes_back_with_the_seat_token(
        tmp_path: Path) -> None:
    """One server for both tables: starting one costs more CPU than reaching a game on it."""
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        results = asyncio.run(play_table(server))
        assert results[0] and results[0] == results[1]  # both players read the same round results
        # A new table on the same server: Bea drops before choosing her team and reclaims her seat.
        asyncio.run(drop_and_reclaim(server))


async def play_table(server: ServeProcess) -> tuple[list[str], list[str]]:
    store = SessionStore()
    ana, bea, code, _ = await open_table(server)
    with Presence() as presence:
        session_id = TableStore(store, presence).find(code).session_id
    duels = await play_whole_game(store, session_id, ana, bea)
    await ana.close()
    await bea.close()
    store.close()
    wait_until(lambda: not server.children(), "both players' processes to end", 60)
    return duels[0], duels[1]


async def drop_and_reclaim(server: ServeProcess) -> None:
    ana, bea, code, token = await open_table(server)
    await bea.close()  # Bea's connection drops before she has chosen her team
    await ana.wait_for(lambda text: "Bea dropped" in " ".join(text.split()), timeout=60)
    await choose_team(ana)  # Ana chooses; the table waits for Bea
    await ana.wait_for("Waiting for Bea (dropped", timeout=60)  # "(dropped just now)", then the minutes

    stranger = await SSHPlayer.connect(server.port, f"cy+{code}")
    await stranger.wait_for("Reclaim my seat")
    assert "Take seat" not in stranger.text()  # Bea's seat is kept for her token
    await stranger.close()

    bea = await SSHPlayer.connect(server.port, f"bea+{code}")
    await bea.wait_for("Reclaim my seat")
    bea.press("enter")
    await bea.wait_for("Your seat token (shown when you sat down)")
    bea.send(token.lower())
    bea.press("enter")
    await bea.wait_for(f"Table {code} · Wizards Cup", timeout=20)
    await ana.wait_for(lambda text: "Bea is back" in " ".join(text.split()), timeout=60)
    await bea.wait_for(lambda text: "Pick" in text and "Confirm" in text)
    await choose_team(bea)  # she plays on from where she left
    await ana.wait_for("Waiting Card", timeout=20)  # both teams in: Ana sets her lineup
    await bea.wait_for("Waiting Card", timeout=20)
    store = SessionStore()
    with Presence() as presence:
        info = TableStore(store, presence).find(code)
    store.close()
    assert info.seats[1].name == "Bea" and info.seats[1].claim is not None
    await ana.close()
    await bea.close()
    wait_until(lambda: not server.children(), "every player's process to end", 60)
