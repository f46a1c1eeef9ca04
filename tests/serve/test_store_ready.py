"""coven serve makes a new session database before it listens: the first players open it, not create it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncssh

from saves.paths import DB_FILENAME
from saves.schema import SCHEMA_VERSION
from tui.server.config import ServeConfig
from tui.server.server import ServerState, start_server, stop_server
from tui.server.store_ready import prepare_database


def _schema(path: Path) -> tuple[int, set[str]]:
    """The database's schema version and its tables."""
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        return version, {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_the_database_is_ready_before_the_server_listens(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    state = ServerState(ServeConfig(host="127.0.0.1", port=0, auth="none", warm=False), data_dir)

    async def start_and_stop() -> tuple[int, set[str]]:
        acceptor = await start_server(state, asyncssh.generate_private_key("ssh-ed25519"))
        try:
            return _schema(data_dir / DB_FILENAME)  # nobody has connected yet
        finally:
            await stop_server(state, acceptor)

    version, tables = asyncio.run(start_and_stop())
    assert version == SCHEMA_VERSION and "sessions" in tables


def test_an_existing_database_is_left_for_each_players_coven(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    with sqlite3.connect(path) as conn:  # from a newer Coven: a player's Coven refuses it and says why
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    assert prepare_database(tmp_path) is False
    assert path.read_bytes() == before
    assert sorted(item.name for item in tmp_path.iterdir()) == [DB_FILENAME]  # nothing moved aside or added
