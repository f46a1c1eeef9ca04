"""Starting ``coven web`` for a test, with accounts, and talking to it without a browser (aiohttp's client)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers.ssh_client import ROOT, ServeProcess

PASSWORD = "correct horse battery"
CODE_LINE = re.compile(r"^\W*([A-Z]) ([A-Z]) ([A-Z]) ([A-Z])\W*$", re.MULTILINE)
"""A lobby's join code, drawn in big spaced letters."""
TOKEN = re.compile(r"Your seat token: ([A-Z0-9]{4}(?:-[A-Z0-9]{4})+)")
"""A seat token as the lobby shows it (on the screen's words joined by single spaces)."""


def add_account(data_dir: Path, name: str, password: str = PASSWORD) -> None:
    """Add ``name`` to the data folder's password file, as a host would (``coven serve --add-user``)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "tui.cli", "serve", "--add-user", name], input=password + "\n",
                   text=True, check=True, cwd=ROOT, capture_output=True,
                   env=dict(os.environ, COVEN_DATA_DIR=str(data_dir)))


def start_web(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> ServeProcess:
    """``coven web --port 0 ARGS`` on loopback, started fresh (no warm parent: a test needs a player or two)."""
    return ServeProcess.start(data_dir, "--no-warm", *args, command="web", env=env)


def raw_get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` exactly as written (no client tidies ``..`` away): status, headers, body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()


def ssh_port_of(door: ServeProcess) -> int:
    """The SSH door's port that ``coven web --ssh-port 0`` printed."""
    told = re.search(r"ssh -t -p (\d+)", "\n".join(door.banner))
    assert told is not None, door.banner
    return int(told.group(1))
