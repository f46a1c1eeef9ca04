"""One session cap for both doors: `coven web --ssh-port` in one process, or `coven web` and `coven serve` side by side."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import aiohttp
import asyncssh
import pytest

from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tests.helpers.web_door import start_web


async def test_a_browser_session_and_an_ssh_session_share_one_cap(tmp_path: Path) -> None:
    with start_web(tmp_path, "--ssh-port", "0", "--max-sessions", "1") as door:
        told = re.search(r"ssh -t -p (\d+)", "\n".join(door.banner))
        assert told is not None, door.banner
        ssh_port = int(told.group(1))
        base = f"http://127.0.0.1:{door.port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await session.post(f"{base}/login", data={"name": "ana"}, headers={"Origin": base})
            async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                assert json.loads(await ws.receive_str(timeout=60))[0] == "size"  # the browser holds the place
                wait_until(lambda: len(door.children()) == 1, "the browser's Coven", 60)
                command = Path(f"/proc/{door.children()[0]}/cmdline").read_bytes().decode().split("\0")
                # A table hosted from this browser names the SSH door in its lobby's join line.
                assert f"--serve-port={ssh_port}" in command and "--serve-browser" not in command
                with pytest.raises(asyncssh.DisconnectError) as refused:
                    await SSHPlayer.connect(ssh_port, "bo")
                assert "The table is full (at most 1 at once)" in str(refused.value.reason)
            wait_until(lambda: not door.children(), "the browser's Coven to be hung up", 60)
            player = await SSHPlayer.connect(ssh_port, "bo")  # the place is free again: SSH takes it
            try:
                await player.wait_for("C O V E N")
                async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                    kind, reason = json.loads(await ws.receive_str(timeout=60))
                    assert kind == "refused" and reason.startswith("The table is full (at most 1 at once)")
            finally:
                await player.close()


async def test_an_idle_browser_seat_goes_to_an_ssh_newcomer_and_an_idle_ssh_seat_to_a_browser(tmp_path: Path) -> None:
    with start_web(tmp_path, "--ssh-port", "0", "--max-sessions", "1", "--idle-seat-grace", "1s") as door:
        told = re.search(r"ssh -t -p (\d+)", "\n".join(door.banner))
        assert told is not None, door.banner
        ssh_port = int(told.group(1))
        base = f"http://127.0.0.1:{door.port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await session.post(f"{base}/login", data={"name": "ana"}, headers={"Origin": base})
            async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                assert json.loads(await ws.receive_str(timeout=60))[0] == "size"
                bea = await _connect_until_admitted(ssh_port, "bea")  # Ana presses nothing: her place goes
                goodbye = await ws.receive(timeout=60)
                while goodbye.type == aiohttp.WSMsgType.BINARY:
                    goodbye = await ws.receive(timeout=60)
                kind, reason = json.loads(goodbye.data)
                assert kind == "refused" and "this page was idle for 1 second" in reason
            try:
                await bea.wait_for("C O V E N")
                # Bea presses nothing either: a browser newcomer gets her place the same way.
                deadline = time.monotonic() + 60
                while True:
                    async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                        kind, _ = json.loads(await ws.receive_str(timeout=60))
                        if kind == "size":
                            break
                    assert time.monotonic() < deadline, "Bea's idle seat never went to the browser"
                    await asyncio.sleep(0.2)
                await bea.wait_for("idle", timeout=60)
            finally:
                await bea.close()


async def _connect_until_admitted(port: int, name: str) -> SSHPlayer:
    """Connect ``name`` again and again while the table is full (until a seat counts as idle)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return await SSHPlayer.connect(port, name)
        except asyncssh.DisconnectError as error:
            assert "The table is full" in str(error.reason), error.reason
            assert time.monotonic() < deadline, "no idle seat was ever given up"
            await asyncio.sleep(0.2)


async def test_coven_web_and_coven_serve_side_by_side_share_one_cap(tmp_path: Path) -> None:
    """Two commands, two processes, one save folder: ``--max-sessions 1`` on both is one place for both doors."""
    cap = ("--max-sessions", "1")
    with ServeProcess.start(tmp_path, "--no-warm", *cap) as serve, start_web(tmp_path, *cap) as door:
        base = f"http://127.0.0.1:{door.port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            await session.post(f"{base}/login", data={"name": "ana"}, headers={"Origin": base})
            async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                assert json.loads(await ws.receive_str(timeout=60))[0] == "size"  # the browser holds the place
                with pytest.raises(asyncssh.DisconnectError) as refused:
                    await SSHPlayer.connect(serve.port, "bo")
                assert "The table is full (at most 1 at once)" in str(refused.value.reason)
            bo = await _connect_until_admitted(serve.port, "bo")  # the browser's place is given back
            try:
                await bo.wait_for("C O V E N")
                async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                    kind, reason = json.loads(await ws.receive_str(timeout=60))
                    assert kind == "refused" and reason.startswith("The table is full (at most 1 at once)")
            finally:
                await bo.close()
