"""coven serve makes a new session database before it listens: the first players open it, not create it."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncssh

from saves import SeatInfo, SessionStore, db_path
from saves.paths import DB_FILENAME
from saves.schema import SCHEMA_VERSION
from tests.helpers.damage_helpers import damage_an_index_page
from tests.helpers.ssh_client import ServeProcess, SSHPlayer
from tests.helpers.web_door import start_web
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


def test_a_database_from_a_newer_coven_is_left_for_each_players_coven(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    with sqlite3.connect(path) as conn:  # from a newer Coven: a player's Coven refuses it and says why
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    assert prepare_database(tmp_path) is False
    assert path.read_bytes() == before
    # Nothing moved aside or added beside it, but the lock file every Coven that opens the database keeps.
    assert sorted(item.name for item in tmp_path.iterdir()) == [DB_FILENAME, f"{DB_FILENAME}.lock"]


def test_damage_only_a_read_of_every_page_finds_is_moved_aside_by_the_server_before_anyone_plays(
        coven_data_dir: Path) -> None:
    with SessionStore() as store:
        store.create_session("count-to-ten", {}, 1, [SeatInfo("Ana"), SeatInfo("Bot", "bot", "easy")])
    damage_an_index_page(db_path())
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for(lambda text: "C O V E N" in text and "New game" in text)
            player.press("s")  # her Coven opened the fresh database the server started
            await player.wait_for("No saved sessions of yours yet")
            await player.close()

        asyncio.run(scenario())
        log = server.log
    assert "the session database was damaged: it was moved to" in log
    moved = [item for item in coven_data_dir.iterdir() if item.name.startswith(DB_FILENAME) and
             item.name not in (DB_FILENAME, f"{DB_FILENAME}-wal", f"{DB_FILENAME}-shm", f"{DB_FILENAME}.lock")]
    assert moved, sorted(item.name for item in coven_data_dir.iterdir())


def test_an_existing_sound_database_is_checked_and_kept(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        session_id = store.create_session("count-to-ten", {}, 1, [SeatInfo("Ana"), SeatInfo("Bot", "bot", "easy")])
    assert prepare_database(coven_data_dir) is False
    with SessionStore() as store:
        assert store.moved_to is None and [summary.session_id for summary in store.list_sessions()] == [session_id]


def test_damage_in_a_database_another_coven_holds_is_left_in_place_and_logged(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        store.create_session("count-to-ten", {}, 1, [SeatInfo("Ana"), SeatInfo("Bot", "bot", "easy")])
    damage_an_index_page(db_path())
    # A player's own Coven beside the server holds the file: it is never moved from under that Coven's feet.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom saves import SessionStore\nstore = SessionStore(every_page=False)\n"
                               "print('open', flush=True)\nsys.stdin.read()\nstore.close()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with ServeProcess.start(coven_data_dir) as server:
            async def scenario() -> None:
                player = await SSHPlayer.connect(server.port, "ana")
                await player.wait_for(lambda text: "C O V E N" in text and "New game" in text)
                await player.close()

            asyncio.run(scenario())
            log = server.log
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(30)
    assert "the session database could not be checked" in log, log
    assert not [item for item in coven_data_dir.iterdir() if ".corrupt-" in item.name]


def test_coven_web_also_moves_such_damage_aside_as_it_starts(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        store.create_session("count-to-ten", {}, 1, [SeatInfo("Ana"), SeatInfo("Bot", "bot", "easy")])
    damage_an_index_page(db_path())
    with start_web(coven_data_dir) as door:  # it listens only after the check: the log line is already there
        log = door.log
    assert "the session database was damaged: it was moved to" in log, log
    assert [item for item in coven_data_dir.iterdir() if ".corrupt-" in item.name]
    with SessionStore() as store:  # the fresh one its players open
        assert store.moved_to is None and store.list_sessions() == []
