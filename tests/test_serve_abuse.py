"""``coven serve`` against hostile clients: each attack of issue 11 on a real server over 127.0.0.1."""

from __future__ import annotations

# --- secrets at rest ---
# A served session's secrets stay private on disk, and seat tokens cannot be guessed over SSH.
# (Imports are aliased so this part never shadows a name of the tests above.)

import asyncio as _asyncio
import os as _os
import stat as _stat
from pathlib import Path as _Path

from saves import Presence as _Presence
from saves import SessionStore as _SessionStore
from saves.table_tokens import new_token as _new_token
from saves.tables import MAX_RECLAIM_TRIES as _MAX_RECLAIM_TRIES
from saves.tables import SeatPlan as _SeatPlan
from saves.tables import TableStore as _TableStore
from ssh_client import ServeProcess as _ServeProcess
from ssh_client import SSHPlayer as _SSHPlayer
from ssh_client import wait_until as _wait_until


def _mode(path: _Path) -> int:
    return _stat.S_IMODE(path.lstat().st_mode)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_data_folder_and_the_database_are_private_while_and_after_serving(coven_data_dir: _Path) -> None:
    coven_data_dir.mkdir(parents=True, exist_ok=True)
    _os.chmod(coven_data_dir, 0o755)  # as an older Coven, or a umask of 022, left it
    with _ServeProcess.start(coven_data_dir) as server:
        assert any("now private to you" in line for line in server.banner), server.banner
        database = coven_data_dir / "coven.sqlite3"
        private = [database, _Path(f"{database}-wal"), _Path(f"{database}-shm"),
                   coven_data_dir / "serve.log", coven_data_dir / "ssh_host_ed25519_key"]

        async def host_a_table() -> None:
            ana = await _SSHPlayer.connect(server.port, "ana")
            await ana.wait_for("C O V E N")
            ana.press("h")
            await ana.wait_for("Host a table")
            await ana.wait_for("Ana")
            ana.press("\x13")  # ctrl+s: open the table, which takes a presence lock and writes its rows
            await ana.wait_for("Waiting for 1 more player")
            _wait_until(lambda: all(path.exists() for path in private), "the database's -wal and -shm", 20)
            locks = list((coven_data_dir / "presence").glob("*.lock"))
            assert locks
            [child] = server.children()
            umask = [line for line in _Path(f"/proc/{child}/status").read_text().splitlines()
                     if line.startswith("Umask:")]
            assert umask == ["Umask:\t0077"], umask  # and so is whatever else it writes
            # While a live table's secrets are in them, nobody but the host's account may read them.
            assert _mode(coven_data_dir) == 0o700
            assert _mode(coven_data_dir / "presence") == 0o700
            for path in [*private, *locks]:
                assert _mode(path) == 0o600, (path, oct(_mode(path)))
            await ana.close()

        _asyncio.run(host_a_table())
        _wait_until(lambda: not server.children(), "Ana's process to end", 15)
    assert _mode(coven_data_dir) == 0o700
    for path in coven_data_dir.glob("coven.sqlite3*"):
        assert _mode(path) == 0o600, path


def test_reclaiming_over_ssh_stops_after_too_many_wrong_tokens(coven_data_dir: _Path) -> None:
    """A stranger guessing Bea's token gets five tries per connection; Bea's own token still works."""
    store = _SessionStore()
    host_presence, bea_presence = _Presence(), _Presence()
    host = _TableStore(store, host_presence)
    plan = [_SeatPlan("local", "Hal"), _SeatPlan("remote", "Seat 2")]
    code = host.host("wizards-cup", {}, 5, plan, host_name="Hal").info.code
    token = _TableStore(store, bea_presence).take_seat(code, 1, "Bea")
    host.start(code)
    bea_presence.close()  # Bea's connection drops: her seat is kept for her token
    assert host.refresh(code).seats[1].claim is None
    try:
        with _ServeProcess.start(coven_data_dir) as server:
            async def guess_then_return() -> None:
                stranger = await _SSHPlayer.connect(server.port, f"cy+{code}")
                await stranger.wait_for("Reclaim my seat")
                for tries in range(_MAX_RECLAIM_TRIES):
                    stranger.press("enter")  # the only choice: reclaim
                    await stranger.wait_for("Your seat token (shown when you sat down)")
                    stranger.send(_new_token())
                    stranger.press("enter")
                    left = _MAX_RECLAIM_TRIES - tries - 1
                    await stranger.wait_for(lambda text, left=left: (
                        f"({left} {'try' if left == 1 else 'tries'} left from this connection)" in _flat(text)))
                stranger.press("enter")
                screen = await stranger.wait_for(lambda text: (
                    f"{_MAX_RECLAIM_TRIES} wrong seat tokens were tried from this connection" in _flat(text)))
                assert "Your seat token (shown when you sat down)" not in screen  # not even asked any more
                assert host.refresh(code).seats[1].claim is None
                await stranger.close()

                bea = await _SSHPlayer.connect(server.port, f"bea+{code}")  # a new connection, the right token
                await bea.wait_for("Reclaim my seat")
                bea.press("enter")
                await bea.wait_for("Your seat token (shown when you sat down)")
                bea.send(f"  {token.replace('-', '').lower()}  ")
                bea.press("enter")
                await bea.wait_for(f"Table {code} · Wizards Cup", timeout=30)
                assert host.refresh(code).seats[1].claim is not None
                await bea.close()

            _asyncio.run(guess_then_return())
            _wait_until(lambda: not server.children(), "the players' processes to end", 15)
    finally:
        host_presence.close()
        store.close()
