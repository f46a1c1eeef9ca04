"""``coven serve`` under load, idle players, and the server stopping or dying: no child outlives it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

import pytest

from tests.helpers.ssh_client import ROOT, ServeProcess, SSHPlayer, coven_processes, wait_until

PLAYERS = 16
MENU_WAIT = 120.0
"""A bound for a busy machine, not a target: `coven bench serve` measures connect-to-menu times."""


# The sixteen players come first on the module's shared server (tests/serve/conftest.py): with the default
# burst of 20 connections an address may make, the three players of the later tests still fit.


def test_sixteen_players_reach_the_menu_at_once_and_leave_no_process(served: ServeProcess) -> None:
    server, start = served, len(served.log)

    async def scenario() -> list[float]:
        started = time.monotonic()

        async def connect_and_wait(number: int) -> tuple[SSHPlayer, float]:
            player = await SSHPlayer.connect(server.port, f"player{number}")
            await player.wait_for("C O V E N", timeout=MENU_WAIT)
            return player, time.monotonic() - started

        results = await asyncio.gather(*(connect_and_wait(number) for number in range(PLAYERS)))
        players = [player for player, _ in results]
        assert len(server.children()) == PLAYERS
        await asyncio.gather(*(player.close() for player in players))
        return [took for _, took in results]

    times = asyncio.run(scenario())
    print(f"\n{PLAYERS} concurrent players reached the menu in {max(times):.1f} s "
          f"(first {min(times):.1f} s)")
    assert len(times) == PLAYERS
    wait_until(lambda: not server.children(), "every player's process to be reaped", 60)
    wait_until(lambda: server.log[start:].count("reaped") == PLAYERS, "a reaped line per player", 60)
    assert server.process.poll() is None


def test_an_idle_player_is_told_goodbye_and_disconnected(coven_data_dir: Path) -> None:
    # Long enough for the menu to show on a busy machine first.
    with ServeProcess.start(coven_data_dir, "--idle-timeout", "5s") as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            # The idle clock starts with the connection: on a slow start the goodbye may come before the menu.
            await player.wait_for(lambda text: "C O V E N" in text or "goodbye from Coven" in text, timeout=60)
            await player.wait_closed(timeout=30)
            assert "No key pressed for 5 seconds; goodbye from Coven." in player.text()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the idle player's process to be reaped", 60)
    assert "user=ana idle timeout" in server.log


def test_quitting_the_app_closes_the_connection_with_its_status(served: ServeProcess) -> None:
    server, start = served, len(served.log)

    async def scenario() -> None:
        player = await SSHPlayer.connect(server.port, "ana")
        await player.wait_for("C O V E N")
        player.send("q")
        assert await player.wait_closed(timeout=15) == 0

    asyncio.run(scenario())
    wait_until(lambda: not server.children(), "the player's process to end", 60)
    assert "user=ana coven exited with status 0" in server.log[start:]


async def _connect_players(port: int, count: int) -> list[SSHPlayer]:
    players = await asyncio.gather(*(SSHPlayer.connect(port, f"p{number}") for number in range(count)))
    await asyncio.gather(*(player.wait_for("C O V E N") for player in players))
    return list(players)


def test_stopping_the_server_hangs_up_and_reaps_every_player(coven_data_dir: Path) -> None:
    server = ServeProcess.start(coven_data_dir)
    try:
        async def scenario() -> None:
            players = await _connect_players(server.port, 3)
            assert len(server.children()) == 3
            server.process.send_signal(signal.SIGTERM)
            await asyncio.gather(*(player.wait_closed(timeout=15) for player in players))
            for player in players:  # every terminal was given back, with the goodbye on the main screen
                assert "The Coven server is stopping; goodbye." in player.text()
                assert not player.screen.cursor.hidden

        asyncio.run(scenario())
        assert server.process.wait(15) == 0
    finally:
        server.stop(signal.SIGKILL)
    assert not coven_processes(coven_data_dir)
    assert "stopping: hanging up 3 connection(s)" in server.log
    assert server.log.count("reaped") == 3


def test_killing_the_server_leaves_no_player_process(coven_data_dir: Path) -> None:
    server = ServeProcess.start(coven_data_dir)
    try:
        async def scenario() -> list[int]:
            players = await _connect_players(server.port, 3)
            children = server.children()
            assert len(children) == 3
            os.kill(server.pid, signal.SIGKILL)
            server.process.wait(60)
            for player in players:
                player.conn.abort()
            return children

        children = asyncio.run(scenario())
        warm_parents = [int(pid) for pid in re.findall(r"warm parent (\d+) ready", server.log)]
        assert warm_parents  # the players were forked warm, and their parent must end too

        def running(pid: int) -> bool:
            try:
                return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
            except OSError:
                return False

        # A generous bound: each orphan ends by itself once its terminal is gone, however busy the machine.
        # A process on its way out has no command line left, so coven_processes stops seeing it a little
        # before it is gone: the pids themselves are waited for as well.
        wait_until(lambda: not coven_processes(coven_data_dir) and not any(map(running, children + warm_parents)),
                   "the orphaned players and the warm parent to end", 60)
    finally:
        server.stop(signal.SIGKILL)


def test_a_huge_paste_is_cut_short_and_the_server_keeps_serving(served: ServeProcess) -> None:
    server, start = served, len(served.log)

    async def scenario() -> None:
        paster = await SSHPlayer.connect(server.port, "ana")
        await paster.wait_for("C O V E N")
        paster.send(b"z" * (4 * 1024 * 1024))
        started = time.monotonic()
        other = await SSHPlayer.connect(server.port, "bea")
        await other.wait_for("C O V E N", timeout=20)
        print(f"\nanother player reached the menu {time.monotonic() - started:.1f} s into a 4 MiB paste")
        # Only a few KiB of the paste reached the paster's Coven, so it answers soon; a key sent while the
        # rest is still being dropped is dropped with it, so it is pressed again, as a person would.
        for _ in range(30):
            paster.press("s")
            try:
                await paster.wait_for("Saved sessions", timeout=2)
                break
            except AssertionError:
                continue
        await paster.wait_for("Saved sessions", timeout=15)
        await asyncio.gather(paster.close(), other.close())

    asyncio.run(scenario())
    wait_until(lambda: not server.children(), "both players' processes to be reaped", 60)
    assert "127.0.0.1 user=ana input faster than anyone types;" in server.log[start:]


def test_a_relative_data_dir_is_shared_with_the_players(coven_data_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The children run in another working directory, so they must get the data dir as an absolute path.
    monkeypatch.chdir(ROOT)  # the server's working directory, which ServeProcess uses
    absolute = coven_data_dir.resolve()
    server = ServeProcess.start(Path(os.path.relpath(absolute, ROOT)))
    try:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for("C O V E N")
            assert len(coven_processes(absolute)) == 1
            server.process.send_signal(signal.SIGHUP)  # the host's terminal closed
            await player.wait_closed()

        asyncio.run(scenario())
        assert server.process.wait(15) == 0
    finally:
        server.stop(signal.SIGKILL)
    assert not coven_processes(absolute)
