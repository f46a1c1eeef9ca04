"""Two SSH players finish a Wizards Cup table, one asks to play again, the other agrees: the same table plays on."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from saves import LiveSession, SessionStore
from saves.presence import Presence
from saves.series import series_of
from saves.tables import TableStore
from tests.helpers.serve_game import choose_team, open_table, play_by_keys
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until


def flat(player: SSHPlayer) -> str:
    return " ".join(player.text().split())


async def rematch_at_a_table(server: ServeProcess) -> None:
    store = SessionStore()
    ana, bea, code, _ = await open_table(server)
    with Presence() as presence:
        first = TableStore(store, presence).find(code).session_id
    assert first is not None
    live = await play_by_keys(store, first, {0: ana, 1: bea})
    for player in (ana, bea):  # past the last round's summary, to the final screen with its key
        await player.wait_for(lambda text: "enter: continue" in text or "Play again" in text, timeout=30)
        if "enter: continue" in player.text():
            player.press("enter")
        await player.wait_for(lambda text: "Play again" in text, timeout=30)

    bea.press("p")
    try:
        await ana.wait_for(lambda text: "Bea wants to play again." in " ".join(text.split()), timeout=30)
    except AssertionError:
        raise AssertionError(f"Ana was not asked; Bea sees:\n{bea.text()}") from None
    await ana.wait_for("y: play again · n: no", timeout=60)
    ana.press("y")
    for player in (ana, bea):  # the same table, its game screen again, teams to choose
        await player.wait_for(f"Table {code} · Wizards Cup", timeout=30)
        await player.wait_for(lambda text: "Choose your team" in text, timeout=30)
    with Presence() as presence:
        info = TableStore(store, presence).find(code)
    assert info.session_id is not None and info.session_id != first
    again = LiveSession.load(store, info.session_id)
    assert again.result is None and again.seed != live.seed and again.seats == live.seats
    assert series_of(store, info.session_id) == first
    assert [seat.name for seat in info.seats] == ["Ana", "Bea"] and all(seat.claim for seat in info.seats)
    await choose_team(bea)  # and it plays: Bea's team reaches the shared log from her seat
    wait_until(lambda: any(entry.seat == 1 for entry in LiveSession.load(store, info.session_id).log),
               "Bea's team in the rematch", 60)
    await ana.close()
    await bea.close()
    store.close()
    wait_until(lambda: not server.children(), "both players' processes to end", 60)


def test_two_ssh_players_play_again_at_the_same_table() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        asyncio.run(rematch_at_a_table(server))
