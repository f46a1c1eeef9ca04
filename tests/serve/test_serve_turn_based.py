"""Over real SSH: Ana hosts a turn-based table, Bea joins, they move and hang up, and Ana signs in again
later to read "Your move at 1 table", open it from her list, move and leave."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from saves.preferences import set_preference
from saves.presence import Presence
from saves.tables import TableStore
from tests.helpers.serve_game import choose_team, open_table
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tui.screens.host_table import HOST_KEY
from tui.server.accounts import add_user

PASSWORDS = ("ana's password", "bea's password")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_turn_based_table_waits_for_a_player_who_signs_in_again_and_moves() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    for name, password in zip(("ana", "bea"), PASSWORDS, strict=True):
        add_user(data_dir / "passwords", name, io.StringIO(password + "\n"))
    with SessionStore() as store:
        # Ana hosted a 1-day table before: her host form remembers the pace, so ctrl+s opens one like it.
        set_preference(store, "ana", HOST_KEY, {"spectators": False, "coach": False, "listed": False, "pace": 1,
                                                "timeout_bot": "easy"})
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, "--auth", "password", env=env) as server:
        asyncio.run(play_over_days(server))


def _live(store: SessionStore, session_id: int) -> LiveSession:
    return LiveSession.load(store, session_id)


async def play_over_days(server: ServeProcess) -> None:
    store = SessionStore()
    ana, bea, code, _ = await open_table(server, PASSWORDS, turn_based=True)
    with Presence() as presence:
        info = TableStore(store, presence).find(code)
    assert (info.turn_based, info.pace_days, info.timeout_bot) == (True, 1, "easy")
    session_id = info.session_id
    assert session_id is not None
    await choose_team(ana)  # Ana's move: her secret team
    await asyncio.to_thread(wait_until, lambda: 0 not in _live(store, session_id).to_act, "Ana's team", 60)
    await ana.close()  # she hangs up; the table lives on
    await asyncio.to_thread(wait_until, lambda: len(server.children()) == 1, "Ana's process to end", 60)
    await choose_team(bea)
    await asyncio.to_thread(
        wait_until, lambda: _live(store, session_id).state.phase is Phase.LINEUP and
        0 in _live(store, session_id).to_act, "both teams chosen and Ana asked for her lineup", 60)
    await bea.close()  # nobody is connected now
    await asyncio.to_thread(wait_until, lambda: not server.children(), "both players' processes to end", 60)
    with Presence() as presence:
        assert TableStore(store, presence).find(code).status == "playing"

    back = await SSHPlayer.connect(server.port, "ana", password=PASSWORDS[0])  # later: Ana signs in again
    await back.wait_for(lambda text: "Your move at 1 table" in flat(text), timeout=30)
    back.press("y")
    await back.wait_for(lambda text: f"Table {code}, Wizards Cup, 1 day per move: your move" in flat(text))
    back.press("enter")
    await back.wait_for("Waiting Card", timeout=30)  # her lineup to choose, no token asked
    moves = len(_live(store, session_id).log)
    back.press("c")
    await asyncio.to_thread(
        wait_until, lambda: len(_live(store, session_id).log) > moves and 0 not in _live(store, session_id).to_act,
        "Ana's lineup stored", 60)
    back.press("escape")
    await back.wait_for(lambda text: "No table awaits your move" in flat(text), timeout=30)
    await back.close()
    store.close()
    await asyncio.to_thread(wait_until, lambda: not server.children(), "Ana's process to end", 60)
