"""``coven web --ssh-port``: both doors in one process, so browser and SSH sessions count toward one cap."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aiohttp
import asyncssh
import pytest

from tests.helpers.ssh_client import SSHPlayer, wait_until
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
