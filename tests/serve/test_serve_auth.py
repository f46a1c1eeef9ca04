"""Accounts for ``coven serve``: ``--add-user`` with scrypt hashes, password and key logins."""

from __future__ import annotations

import asyncio
import base64
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest

from tests.helpers.shared_serve import between_tests, module_server
from tests.helpers.ssh_client import ROOT, ServeProcess, SSHPlayer, open_connection, wait_until
from tui.server.accounts import verify_password


def _add_user(*args: str, password: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", "serve", "--add-user", *args], input=password + "\n",
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=os.environ)


def _cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def test_add_user_writes_a_private_scrypt_line_and_the_password_logs_in(coven_data_dir: Path) -> None:
    done = _add_user("ana", password="first password")
    assert done.returncode == 0, done.stderr
    assert "Added account ana" in done.stdout
    assert _add_user("bea", password="bea's password").returncode == 0
    replaced = _add_user("ana", password="second password")
    assert "Replaced account ana" in replaced.stdout
    path = coven_data_dir / "passwords"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = path.read_text().splitlines()
    assert [line.partition(":")[0] for line in lines] == ["bea", "ana"]
    stored = lines[1].partition(":")[2]
    scheme, n, r, p, salt, digest = stored.split("$")
    assert (scheme, n, r, p) == ("scrypt", "16384", "8", "1")
    assert len(base64.b64decode(salt)) == 16 and len(base64.b64decode(digest)) == 32
    assert "password" not in path.read_text()
    assert verify_password("second password", stored) and not verify_password("first password", stored)

    with ServeProcess.start(coven_data_dir, "--auth", "password") as server:
        assert not any("WARNING: --auth none" in line for line in server.banner)

        async def scenario() -> None:
            player = await SSHPlayer.connect(server.port, "ana+abcd", password="second password")
            await player.wait_for(lambda text: "C O V E N" in text or "ABCD" in text)
            [pid] = server.children()
            command = _cmdline(pid)
            assert "--name=ana" in command and "--join=ABCD" in command
            assert "--signed-in" in command  # the password proved the account: its preferences are its own
            # Account names do not depend on case (as join codes do not): BEA is bea, kept as the file spells it.
            shouting = await SSHPlayer.connect(server.port, "BEA", password="bea's password")
            await shouting.wait_for("C O V E N")
            commands = [_cmdline(pid) for pid in server.children()]
            assert any("--name=BEA" in line and "--account=bea" in line for line in commands), commands
            await shouting.close()
            await player.close()
            with pytest.raises(asyncssh.PermissionDenied):
                await open_connection(server.port, "ana", password="first password")

        asyncio.run(scenario())
    assert "user=ana+abcd auth ok method=password" in server.log
    assert server.log.count("auth ok") == 2  # once a login, where the password is checked


@pytest.mark.parametrize("name", ["", "ana:x", "ana+ABCD", "a" * 33])
def test_add_user_refuses_a_bad_name(name: str) -> None:
    done = _add_user(name, password="long enough")
    assert done.returncode == 2 and "Account names are 1 to 32 letters" in done.stderr


def test_add_user_refuses_a_short_password() -> None:
    done = _add_user("ana", password="short")
    assert done.returncode == 2 and "at least 8 characters" in done.stderr


@dataclass
class _KeysServer:
    """A server for ``--auth keys`` and the keys its authorized_keys file lists."""

    server: ServeProcess
    friend: asyncssh.SSHKey
    ana: asyncssh.SSHKey
    bo: asyncssh.SSHKey


@pytest.fixture(scope="module")
def keys_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_KeysServer]:
    """One ``--auth keys`` server for the module's key tests (each uses keys of its own from the one file)."""
    friend, ana, bo = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    keys_file = tmp_path_factory.mktemp("keys") / "authorized_keys"
    keys_file.write_bytes(b"# friends of the table\n" + b"".join(key.export_public_key("openssh")
                                                                  for key in (friend, ana, bo)))
    for server in module_server(tmp_path_factory, "auth", "--auth", "keys", "--authorized-keys", str(keys_file)):
        yield _KeysServer(server, friend, ana, bo)


@pytest.fixture
def keys(keys_server: _KeysServer) -> _KeysServer:
    """The module's ``--auth keys`` server, once no player of an earlier test is left on it."""
    between_tests(keys_server.server)
    return keys_server


def test_authorized_keys_let_their_holders_in_and_log_other_keys(keys: _KeysServer) -> None:
    friend = keys.friend
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    server, start = keys.server, len(keys.server.log)

    async def scenario() -> None:
        player = await SSHPlayer.connect(server.port, "cy", client_keys=[friend])
        await player.wait_for("C O V E N")
        await player.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await open_connection(server.port, "cy", client_keys=[stranger])
        with pytest.raises(asyncssh.PermissionDenied):
            await open_connection(server.port, "cy")

    asyncio.run(scenario())
    refused = f"user=cy auth failed method=keys key={stranger.get_fingerprint('sha256')}"
    # The server logs a refusal as it closes the connection, which may be just after the client hears it.
    wait_until(lambda: refused in server.log[start:], "the stranger's refusal in the log", 60)
    log = server.log[start:]
    assert "user=cy auth ok method=keys" in log
    assert refused in log


def test_an_empty_authorized_keys_file_is_an_error(tmp_path: Path) -> None:
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_text("# nobody yet\n")
    done = subprocess.run([sys.executable, "-m", "tui.cli", "serve", "--auth", "keys", "--authorized-keys",
                           str(keys_file)], capture_output=True, text=True, timeout=60, cwd=ROOT, env=os.environ)
    assert done.returncode == 1 and f"The authorized keys file {keys_file} holds no keys." in done.stderr


def test_a_key_opens_its_own_account_whatever_name_is_typed(keys: _KeysServer) -> None:
    ana, bo, server = keys.ana, keys.bo, keys.server

    async def scenario() -> None:
        # Bo holds a key too, and types Ana's name: he must not open Ana's sessions and settings.
        players = [await SSHPlayer.connect(server.port, "ana", client_keys=[key]) for key in (ana, bo)]
        for player in players:
            await player.wait_for("C O V E N")
        accounts = {arg.removeprefix("--account=") for pid in server.children() for arg in _cmdline(pid)
                    if arg.startswith("--account=")}
        assert len(accounts) == 2 and "ana" not in accounts, accounts
        for player in players:
            await player.close()

    asyncio.run(scenario())
