"""``coven serve`` over real SSH connections: the menu, resizing, the child's terminal, the host key."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until

TITLE = "C O V E N"


def _title_column(screen: str) -> int:
    for line in screen.splitlines():
        if TITLE in line:
            return line.index(TITLE)
    raise AssertionError(f"no title on the screen:\n{screen}")


def _environ(pid: int) -> dict[str, str]:
    pairs = (Path(f"/proc/{pid}/environ").read_bytes().decode().split("\0"))
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


def test_menu_over_ssh_resizes_with_the_window(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana", columns=80, rows=24,
                                             env={"COLORTERM": "truecolor", "COLUMNS": "999", "LINES": "99"})
            # A paint reaches the client in pieces: wait for the whole menu, not its first line.
            screen = await player.wait_for(lambda text: TITLE in text and "New game" in text and "Quit" in text)
            narrow = _title_column(screen)
            player.resize(120, 30)
            # The menu re-centres in the wider window: the title moves right by half the growth.
            screen = await player.wait_for(lambda text: TITLE in text and _title_column(text) >= narrow + 15)
            assert _title_column(screen) == narrow + 20
            assert len(player.screen.display) == 30
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)
        log = server.log
    assert "127.0.0.1 user=- connect" in log
    assert "user=ana auth ok method=none" in log
    assert "session start term=xterm-256color size=80x24" in log
    assert "disconnect after" in log
    assert (coven_data_dir / "serve.log").read_text().count("session start") == 1
    assert stat.S_IMODE((coven_data_dir / "serve.log").stat().st_mode) == 0o600


def test_child_gets_a_clean_environment_and_the_pty_as_its_terminal(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, env={**os.environ, "COVEN_AUTO_DELAY": "0.1",
                                                 "SECRET_OF_THE_HOST": "x"}) as server:
        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "bea+ABCD", term="xterm-kitty",
                                             env={"NO_COLOR": "1", "COLUMNS": "999", "LINES": "99"})
            await player.wait_for(lambda text: "C O V E N" in text or "ABCD" in text)
            [pid] = server.children()
            env = _environ(pid)
            assert env["TERM"] == "xterm-kitty"
            assert env["NO_COLOR"] == "1"
            assert env["LANG"] == "C.UTF-8"
            assert env["COVEN_DATA_DIR"] == str(coven_data_dir)
            assert env["COVEN_AUTO_DELAY"] == "0.1"
            assert not {"COLUMNS", "LINES", "SECRET_OF_THE_HOST"} & env.keys()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            assert "--name=bea" in command and "--join=ABCD" in command
            # Its own session, led by itself, with the pty as controlling terminal.
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            session, tty = int(fields[3]), int(fields[4])
            assert session == pid and tty != 0
            await player.close()

        asyncio.run(scenario())
        wait_until(lambda: not server.children(), "the player's process to be reaped", 60)


def test_host_key_is_private_kept_across_restarts_and_the_client_sees_the_same(coven_data_dir: Path) -> None:
    fingerprints = []

    async def seen_by_a_client(port: int) -> str:
        player = await SSHPlayer.connect(port)
        try:
            return player.conn.get_server_host_key().get_fingerprint("sha256")  # type: ignore[union-attr]
        finally:
            await player.close()

    for start in range(2):
        with ServeProcess.start(coven_data_dir) as server:
            banner = "\n".join(server.banner)
            printed = server.banner[-5:]
            if start == 1:  # the restarted server, whose key was read back from the file
                seen = asyncio.run(seen_by_a_client(server.port))
                assert any(seen in line for line in printed)
        [line] = [line for line in banner.splitlines() if "host key fingerprint" in line]
        assert f"127.0.0.1:{server.port}" in line
        fingerprints.append(line.rpartition("fingerprint ")[2])
        key = coven_data_dir / "ssh_host_ed25519_key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert fingerprints[0].startswith("SHA256:")
    assert fingerprints[0] == fingerprints[1]
    assert "WARNING: --auth none" in banner
