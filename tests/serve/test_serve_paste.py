"""A raw (unbracketed) paste of a megabyte: a few hundred keys reach the player's Coven, which answers soon."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from tests.helpers.ssh_client import ServeProcess, SSHPlayer
from tui.server.paste import KEY_BURST, KEY_RATE

MIB = 1024 * 1024
_DROPPED = re.compile(r"user=ana input faster than anyone types; (\d+) bytes dropped, (\d+) passed")


def test_a_raw_megabyte_paste_queues_one_key_burst_and_the_next_key_is_answered(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            ana = await SSHPlayer.connect(server.port, "ana")
            await ana.wait_for("C O V E N")
            ana.send(b"z" * MIB)
            # The line comes once the burst has been quiet for a second: the paste is over.
            deadline = time.monotonic() + 60
            while _DROPPED.search(server.log) is None:
                assert time.monotonic() < deadline, f"no line about the dropped paste; log:\n{server.log}"
                await asyncio.sleep(0.1)
            await ana.wait_for(lambda text: "Pasted text too long" in text)  # the player is told too, once
            ana.press("s")
            # A generous bound: the old 16 KiB of keys took minutes to work through on a busy machine.
            await ana.wait_for("Saved sessions", timeout=30)
            await ana.close()

        asyncio.run(scenario())
        log = server.log
    lines = _DROPPED.findall(log)
    assert len(lines) == 1, log  # one line for the burst
    dropped, passed = map(int, lines[0])
    assert passed <= KEY_BURST + KEY_RATE  # a key burst, and at most a second's refill while it arrived
    assert dropped >= MIB - passed - KEY_BURST
