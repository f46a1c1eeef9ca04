"""What ``coven serve`` refuses, each with a one-line reason and without falling over."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from tests.helpers.ssh_client import ROOT, ServeProcess, SSHPlayer, open_connection, wait_until
from tui.server.hostkey import load_or_create_host_key


def test_commands_subsystems_plain_shells_and_forwarding_are_refused(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir) as server:
        async def scenario() -> None:
            conn = await open_connection(server.port)
            done = await conn.run("cat /etc/passwd", check=False)
            assert done.exit_status == 1 and done.stdout == ""
            assert done.stderr == f"Coven runs no commands; connect with: ssh -t -p {server.port} 127.0.0.1\r\n"
            conn.close()

            conn = await open_connection(server.port)
            sftp = await conn.create_process(subsystem="sftp")
            result = await sftp.wait()
            assert result.exit_status == 1
            assert str(result.stderr).startswith("Coven offers no sftp; connect with: ssh -t")
            conn.close()

            conn = await open_connection(server.port)
            with pytest.raises(asyncssh.Error):
                await conn.start_sftp_client()
            conn.close()

            conn = await open_connection(server.port)
            shell = await conn.run(check=False)  # a shell request without a PTY
            assert shell.exit_status == 1
            assert shell.stderr.startswith("Coven needs a terminal: connect with ssh -t")
            with pytest.raises(asyncssh.ChannelOpenError, match="does not forward"):
                await conn.open_connection("127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelOpenError, match="one session per connection"):
                await conn.run(check=False)
            conn.close()

        asyncio.run(scenario())
        log = server.log
    for reason in ("refused: Coven runs no commands", "refused: Coven offers no sftp",
                   "refused: Coven needs a terminal", "refused: port (127.0.0.1:22) forwarding",
                   "refused: remote port forwarding", "refused: a second session"):
        assert reason in log
    assert not server.children()


def test_beyond_max_sessions_a_newcomer_hears_the_table_is_full(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--max-sessions", "2") as server:
        async def scenario() -> None:
            first = await SSHPlayer.connect(server.port, "ana")
            second = await SSHPlayer.connect(server.port, "bea")
            await first.wait_for("C O V E N")
            full = r"The table is full \(at most 2 at once\); try again later."
            with pytest.raises(asyncssh.DisconnectError, match=full):
                await SSHPlayer.connect(server.port, "cy")
            await second.close()
            third = await SSHPlayer.connect(server.port, "cy")  # a place came free
            await third.wait_for("C O V E N")
            await first.close()
            await third.close()

        asyncio.run(scenario())
    assert "user=cy refused: The table is full" in server.log


def test_a_burst_of_attempts_from_one_address_is_slowed_down(coven_data_dir: Path) -> None:
    with ServeProcess.start(coven_data_dir, "--rate-burst", "2", "--rate-refill-seconds", "60") as server:
        async def scenario() -> None:
            for _ in range(2):
                conn = await open_connection(server.port)
                conn.close()
                await conn.wait_closed()
            with pytest.raises(asyncssh.DisconnectError,
                               match="Too many connection attempts from 127.0.0.1; wait a little."):
                await open_connection(server.port)

        asyncio.run(scenario())
    assert "refused: Too many connection attempts from 127.0.0.1" in server.log


def test_a_wrong_password_is_refused_and_logged(coven_data_dir: Path) -> None:
    _add_user(coven_data_dir, "ana", "correct horse")
    with ServeProcess.start(coven_data_dir, "--auth", "password") as server:
        async def scenario() -> None:
            with pytest.raises(asyncssh.PermissionDenied):
                await open_connection(server.port, "ana", password="wrong horse")
            with pytest.raises(asyncssh.PermissionDenied):
                await open_connection(server.port, "nobody", password="correct horse")

        asyncio.run(scenario())
        # The server logs a refusal as it closes the connection, which may be just after the client hears it.
        for line in ("user=ana 1 failed password attempt(s) from 127.0.0.1",
                     "user=nobody 1 failed password attempt(s) from 127.0.0.1 (2 lately from 127.0.0.1)"):
            wait_until(lambda line=line: line in server.log, repr(line), 60)
        log = server.log
    assert "horse" not in log


def _serve(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", "serve", *args], input=stdin, capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=os.environ)


def _add_user(data_dir: Path, name: str, password: str) -> None:
    done = _serve("--add-user", name, stdin=password + "\n")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--idle-timeout", "soon"], 2, "--idle-timeout takes a duration such as 90s, 30m or 1h"),
    (["--port", "99999"], 2, "--port must be between 0 and 65535"),
    (["--auth", "maybe"], 2, "--auth takes none, password or keys"),
    (["--auth", "keys"], 2, "--auth keys needs --authorized-keys FILE"),
    (["--max-sessions", "0"], 2, "--max-sessions must be at least 1"),
    (["--login-grace", "soon"], 2, "--login-grace takes a duration such as 90s, 30m or 1h"),
    (["--max-auth-tries", "0"], 2, "--max-auth-tries must be between 1 and 100"),
    (["--auth", "password", "--password-file", "/nonexistent/pw"], 1,
     "The password file /nonexistent/pw does not exist"),
    (["--auth", "keys", "--authorized-keys", "/nonexistent/keys"], 1,
     "The authorized keys file /nonexistent/keys does not exist"),
])
def test_bad_flags_and_files_are_one_line_errors(args: list[str], code: int, message: str) -> None:
    done = _serve(*args)
    assert done.returncode == code
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_host_key_others_can_read_is_refused(coven_data_dir: Path) -> None:
    # The key as a first start writes it (0600, by the server's own code: a whole server is not needed for that).
    coven_data_dir.mkdir(parents=True)
    load_or_create_host_key(coven_data_dir)
    assert (coven_data_dir / "ssh_host_ed25519_key").stat().st_mode & 0o777 == 0o600
    (coven_data_dir / "ssh_host_ed25519_key").chmod(0o644)
    done = _serve()
    assert done.returncode == 1
    assert "is open to other users (mode 0644); run `chmod 600" in done.stderr
    assert done.stderr.count("\n") == 1
