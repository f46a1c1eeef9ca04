"""Over SSH the terminal's cursor sits on the focused item, so a screen reader on the player's side follows focus."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from tests.helpers.ssh_client import ServeProcess, SSHPlayer


def around_cursor(player: SSHPlayer) -> tuple[str, str]:
    """The player's screen row under the cursor: before it, and from it on."""
    cursor = player.screen.cursor
    row = player.screen.display[cursor.y]
    return row[:cursor.x], row[cursor.x:]


async def cursor_where(player: SSHPlayer, what: str, holds: Callable[[tuple[str, str]], bool]) -> None:
    """Wait until ``holds`` is true of :func:`around_cursor`; fail naming ``what`` and the cursor's row."""
    deadline = time.monotonic() + 60
    while not holds(around_cursor(player)):
        assert time.monotonic() < deadline, f"the cursor never reached {what}; its row: {around_cursor(player)!r}"
        await asyncio.sleep(0.05)


def test_the_cursor_follows_focus_over_ssh_onto_a_field_and_a_drop_down(coven_data_dir: Path) -> None:
    async def scenario(port: int) -> None:
        player = await SSHPlayer.connect(port, "ana", columns=110, rows=30)
        try:
            await player.wait_for("C O V E N")
            await cursor_where(player, "the menu", lambda at: at[1].startswith("New game"))
            player.send("n")
            await player.wait_for("Seat 1")
            # The first seat's name, focused as the form opens: the cursor is past "Ana" before any key.
            await cursor_where(player, "the name", lambda at: at[0].rstrip().endswith("Ana"))
            player.press("tab")
            await cursor_where(player, "the drop-down", lambda at: at[1].startswith("Human"))
        finally:
            await player.close()

    with ServeProcess.start(coven_data_dir, "--no-warm") as server:
        asyncio.run(scenario(server.port))
