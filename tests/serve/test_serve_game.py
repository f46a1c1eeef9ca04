"""Two players on real SSH connections host, join and play a whole Wizards Cup table.

Each player is an asyncssh client whose screen pyte renders. The test reads
the shared store only to know whose turn it is and what is secret; every
move is a key sent over a channel. At every look at a screen it checks that
no card the other seat keeps hidden is on it.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from saves.presence import Presence
from saves.tables import TableStore
from tests.helpers.serve_game import GAME_SECONDS, RESEND_AFTER, checked_screen, choose_team, open_table
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until

_ROUND_TITLE = re.compile(r"Round \d+ · (?:\w+ wins|both win) the round and a Cup Token")


def test_two_ssh_players_host_join_and_play_a_whole_wizards_cup_table(tmp_path: Path) -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        results = asyncio.run(play_table(server))
    assert results[0] and results[0] == results[1]  # both players read the same round results


async def play_table(server: ServeProcess) -> tuple[list[str], list[str]]:
    store = SessionStore()
    ana, bea, code, _ = await open_table(server)
    with Presence() as presence:
        session_id = TableStore(store, presence).find(code).session_id
    players = {0: ana, 1: bea}
    sent: dict[int, tuple[int, float]] = {}
    deadline = time.monotonic() + GAME_SECONDS
    duels: dict[int, list[str]] = {0: [], 1: []}
    while time.monotonic() < deadline:
        live = LiveSession.load(store, session_id) if session_id is not None else None
        if live is not None and live.result is not None:
            break
        for seat, player in players.items():
            screen = await checked_screen(player, seat, store, session_id)
            if "enter: continue" in screen:  # a round's result
                title = _ROUND_TITLE.search(" ".join(screen.split()))
                assert title, screen
                duels[seat].append(title.group(0))
                player.press("enter")
                await player.wait_for(lambda text: "enter: continue" not in text, timeout=60)
                continue
            if live is None or seat not in live.to_act:
                continue
            last = sent.get(seat)
            if last is not None and last[0] == len(live.log) and time.monotonic() - last[1] < RESEND_AFTER:
                continue  # keys on their way; a key that reached a screen still settling is sent again
            phase = live.state.phase
            if phase is Phase.TEAM and "Confirm" in screen and "Pick" in screen:
                await choose_team(player)
            elif phase is Phase.LINEUP and "Waiting Card" in screen:
                player.press("c")
            elif phase is Phase.SWAP and "Keep team" in screen:
                player.press("k")
            else:
                continue
            sent[seat] = (len(live.log), time.monotonic())
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the game did not finish; Ana sees:\n{ana.text()}\nBea sees:\n{bea.text()}")

    assert live is not None and live.result is not None
    winner = live.seats[live.result.winners[0]].name if live.result.winners else None
    headline = f"{winner} wins the Wizards Cup!" if winner else "The Cup is shared"
    for seat, player in players.items():
        await player.wait_for(lambda text: "enter: continue" in text or headline in text, timeout=20)
        if "enter: continue" in player.text():  # the last round's result comes first
            title = _ROUND_TITLE.search(" ".join(player.text().split()))
            assert title, player.text()
            duels[seat].append(title.group(0))
            player.press("enter")
        await player.wait_for(headline, timeout=20)
        await checked_screen(player, seat, store, session_id)
    assert {entry.seat for entry in live.log} == {0, 1, None}
    await ana.close()
    await bea.close()
    store.close()
    wait_until(lambda: not server.children(), "both players' processes to end", 60)
    return duels[0], duels[1]


def test_a_dropped_ssh_player_comes_back_with_the_seat_token_and_plays_on() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        asyncio.run(drop_and_reclaim(server))


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
