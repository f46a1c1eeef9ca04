"""Warm players: each SSH player is forked from a warm parent that holds nothing of anyone's, and that can die."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tui.server.library_pages import can_map_ahead

MENU = "C O V E N"
NEW_GAME = "New game"
_READY = re.compile(r"warm parent (\d+) ready")


def _warm_parents(server: ServeProcess) -> list[int]:
    """Pids of the warm parents the server said were ready, oldest first."""
    return [int(pid) for pid in _READY.findall(server.log)]


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _writable_memory(pid: int) -> bytes:
    """Every private writable mapping of ``pid`` (its heap, arenas and stack), as one blob."""
    blob = bytearray()
    with open(f"/proc/{pid}/maps", encoding="ascii") as maps, open(f"/proc/{pid}/mem", "rb", 0) as memory:
        for line in maps:
            fields = line.split()
            if not fields[1].startswith("rw") or (len(fields) > 5 and fields[5].startswith("[v")):
                continue
            start, end = (int(part, 16) for part in fields[0].split("-"))
            try:
                memory.seek(start)
                blob += memory.read(end - start)
            except OSError:
                continue
    return bytes(blob)


def test_each_player_is_forked_warm_and_adopted_and_the_parent_keeps_nothing_of_them(served: ServeProcess) -> None:
    secret_name = "Qzxwarmvy"
    server, start = served, len(served.log)

    async def scenario() -> None:
        player = await SSHPlayer.connect(server.port, secret_name)
        await player.wait_for(MENU)
        [pid] = server.children()
        # A player forked warm is the server's own child (adopted), and its process shows its own command.
        assert _parent_of(pid) == server.pid
        assert f"pid={pid} warm" in server.log
        [warm] = _warm_parents(server)
        assert _parent_of(warm) == server.pid and warm != pid
        command = Path(f"/proc/{warm}/cmdline").read_bytes().split(b"\0")
        assert b"tui.server.warm" in command and b"play" not in command
        # It holds nothing secret: a socket to the server and nothing else open, no data files, one thread.
        opened = {os.readlink(f"/proc/{warm}/fd/{fd}") for fd in os.listdir(f"/proc/{warm}/fd")}
        server_log = os.readlink(f"/proc/{server.pid}/fd/2")  # its errors go where the server's go
        assert not any(str(server.data_dir) in target for target in opened - {server_log}), opened
        assert sum(target.startswith("socket:") for target in opened) == 1, opened
        assert len(os.listdir(f"/proc/{warm}/task")) == 1
        environment = Path(f"/proc/{warm}/environ").read_bytes()
        assert secret_name.encode() not in environment
        # Nor anything of the player it forked: the request was read in place and wiped.
        assert secret_name.encode() not in _writable_memory(warm)
        assert secret_name.lower().encode() not in _writable_memory(warm)
        player.send("n")
        await player.wait_for(NEW_GAME)
        await player.close()

    asyncio.run(scenario())
    wait_until(lambda: not server.children(), "the player's process to be reaped", 60)
    wait_until(lambda: re.search(r"child \d+ reaped", server.log[start:]) is not None, "the server to reap it", 60)


def test_a_dead_warm_parent_is_replaced_and_seated_players_play_on(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            ana = await SSHPlayer.connect(server.port, "ana")
            await ana.wait_for(MENU)
            [first] = _warm_parents(server)
            os.kill(first, signal.SIGKILL)
            wait_until(lambda: len(_warm_parents(server)) == 2, "a new warm parent", 60)
            assert "warm parent exited with status -9; starting a new one" in server.log
            # Ana's Coven never noticed.
            ana.send("n")
            await ana.wait_for(NEW_GAME)
            bob = await SSHPlayer.connect(server.port, "bob")
            await bob.wait_for(MENU)
            [bob_pid] = [pid for pid in server.children() if b"--name=bob" in Path(f"/proc/{pid}/cmdline").read_bytes()]
            assert f"pid={bob_pid} warm" in server.log
            await bob.close()
            await ana.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "both players' processes to be reaped", 60)


def test_a_warm_parent_that_keeps_dying_is_given_up_for_fresh_processes(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        wait_until(lambda: len(_warm_parents(server)) == 1, "the warm parent", 60)
        for killed in range(4):
            os.kill(_warm_parents(server)[-1], signal.SIGKILL)
            if killed < 3:
                wait_until(lambda n=killed: len(_warm_parents(server)) == n + 2, "a new warm parent", 60)
        wait_until(lambda: "players now start as fresh processes" in server.log, "the server to give up on it", 60)
        assert not any(_alive(pid) for pid in _warm_parents(server))

        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for(MENU)
            [pid] = server.children()
            assert f"pid={pid} fresh" in server.log
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)


def test_no_warm_starts_each_player_fresh(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--no-warm") as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for(MENU)
            [pid] = server.children()
            assert _parent_of(pid) == server.pid
            assert f"pid={pid} fresh" in server.log
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)
        assert not _warm_parents(server) and "--no-warm: every player starts as a fresh process" in server.log


def test_stopping_the_server_ends_the_warm_parent_too(coven_data_dir: Path) -> None:
    server = ServeProcess.start(coven_data_dir)
    try:
        wait_until(lambda: len(_warm_parents(server)) == 1, "the warm parent", 60)
        [warm] = _warm_parents(server)
    finally:
        assert server.stop() == 0
    wait_until(lambda: not _alive(warm), "the warm parent to end", 60)


def _merges_any_page(pid: int) -> bool:
    """Whether the kernel's same-page merging (KSM) may merge any of ``pid``'s pages (prctl PR_SET_MEMORY_MERGE)."""
    return "ksm_merge_any: yes" in Path(f"/proc/{pid}/ksm_stat").read_text()


def test_the_kernel_may_merge_a_warm_players_identical_pages_but_never_the_servers(served: ServeProcess) -> None:
    server = served

    async def scenario() -> None:
        player = await SSHPlayer.connect(server.port, "Merlin")
        await player.wait_for(MENU)
        [pid] = server.children()
        [warm] = _warm_parents(server)
        # The player inherits the warm parent's mark through fork; the server, which holds the host key, has none.
        assert _merges_any_page(warm) and _merges_any_page(pid)
        assert not _merges_any_page(server.pid)
        # The log says how much of the libraries the parent mapped ahead (tests/serve/test_library_pages.py), and
        # whether the host's KSM runs, which decides whether any page is merged.
        mapped = (r"[1-9][\d.]* MB of library pages mapped ahead" if can_map_ahead()
                  else r"no library page mapped ahead \(this kernel cannot")
        assert re.search(rf"warm parent \d+ ready .*; {mapped}.*; identical pages "
                         r"(merged by the host's KSM|mergeable, but the host's KSM is off)", server.log), server.log
        await player.close()

    asyncio.run(scenario())
    wait_until(lambda: not server.children(), "the player's process to be reaped", 60)
