"""The flags of ``coven web``: the same accounts and limits as ``coven serve``, on port 8000."""

from __future__ import annotations

import argparse
from pathlib import Path

from tui.server.config import (
    DEFAULT_LOGIN_GRACE,
    ServeConfig,
    ServeUsageError,
    add_door_flags,
    config_from_args,
)

DEFAULT_WEB_PORT = 8000
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")
"""Addresses only this machine can reach: no warning about TLS is needed there."""
EXPOSED_WARNING = (
    "WARNING: coven web speaks plain HTTP: passwords and every screen cross the network unencrypted, and the "
    "login cookie can be stolen on the way. Keep it on 127.0.0.1 and put it behind a reverse proxy that "
    "serves HTTPS (Caddy or nginx, say), passing WebSocket upgrades on /ws through to it.")
"""Printed when ``--host`` is not a loopback address."""


def add_web_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``web`` subcommand and its flags; values stay text until :func:`web_config`."""
    web = commands.add_parser(
        "web", help="open a browser door to Coven (http://127.0.0.1:8000)",
        description="Serve Coven to web browsers: a login page, then each visit gets its own Coven in a terminal "
                    "drawn by xterm.js, with the same accounts and limits as `coven serve`.")
    add_door_flags(web, port=DEFAULT_WEB_PORT, auth_modes="none (trusted networks only) or password")
    web.add_argument("--ssh-port", metavar="PORT",
                     help="also open the SSH door (as `coven serve`) on this port, in the same process: both doors "
                          "then share one session cap, and a table hosted from a browser shows its ssh join line")
    # What only the SSH door sets by flag; config_from_args reads them all.
    web.set_defaults(authorized_keys=None, login_grace=DEFAULT_LOGIN_GRACE, add_user=None)
    return web


def web_config(args: argparse.Namespace, data_dir: Path) -> tuple[ServeConfig, int | None]:
    """Check the flags of ``coven web``: the settings, and the SSH door's port (None: no SSH door).

    Raises:
        ServeUsageError: a flag is wrong, or ``--auth keys`` (a browser holds no SSH key).
    """
    if str(args.auth).strip().lower() == "keys":
        raise ServeUsageError("A browser holds no SSH key: coven web takes --auth none or --auth password "
                              "(accounts from `coven serve --add-user NAME`).")
    config = config_from_args(args, data_dir)
    if args.ssh_port is None:
        return config, None
    try:
        ssh_port = int(args.ssh_port)
    except ValueError:
        raise ServeUsageError(f"--ssh-port takes a whole number, not {args.ssh_port!r}.") from None
    if not 0 <= ssh_port <= 65535:
        raise ServeUsageError(f"--ssh-port must be between 0 and 65535, not {ssh_port}.")
    if ssh_port and ssh_port == config.port:
        raise ServeUsageError(f"--ssh-port and --port must differ, not both {ssh_port}.")
    return config, ssh_port


def is_exposed(host: str) -> bool:
    """Whether ``host`` lets other machines reach the door (anything but a loopback address)."""
    return host.strip().lower() not in LOOPBACK_HOSTS
