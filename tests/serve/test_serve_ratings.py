"""A whole rated game at a real served table: two password accounts play Wizards Cup; both ratings move, once."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from saves import SessionStore
from saves.presence import Presence
from saves.rating_rule import Skill
from saves.ratings import ratings
from saves.tables import TableStore
from tests.helpers.serve_game import open_table, play_whole_game
from tests.helpers.ssh_client import ServeProcess, wait_until
from tui.server.accounts import add_user

PASSWORDS = ("ana's password", "bea's password")


def test_two_signed_in_players_finish_a_rated_table_and_both_ratings_move() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    for name, password in zip(("ana", "bea"), PASSWORDS, strict=True):
        add_user(data_dir / "passwords", name, io.StringIO(password + "\n"))
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, "--auth", "password", env=env) as server:
        asyncio.run(play_rated(server))


async def play_rated(server: ServeProcess) -> None:
    store = SessionStore()
    ana, bea, code, _ = await open_table(server, PASSWORDS)  # the host form's Rating is on for Ana
    with Presence() as presence:
        info = TableStore(store, presence).find(code)
    assert info.rated and info.session_id is not None
    await play_whole_game(store, info.session_id, ana, bea)
    for player in (ana, bea):  # each is told their own new rating
        await player.wait_for(lambda text: "Rated game: your Wizards Cup" in " ".join(text.split()), timeout=30)
    rated = ratings(store, "wizards-cup")
    assert sorted(r.account for r in rated.ratings) == ["ana", "bea"] and rated.damaged == 0
    assert all(r.games == 1 and r.skill != Skill() for r in rated.ratings)  # both moved, and only once
    ana.press("escape")
    await ana.wait_for(lambda text: "Your rating: Wizards Cup" in " ".join(text.split()), timeout=30)
    await ana.close()
    await bea.close()
    store.close()
    wait_until(lambda: not server.children(), "both players' processes to end", 60)
