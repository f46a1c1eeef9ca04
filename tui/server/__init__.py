"""``coven serve``: host Coven over SSH, one Coven process per player, forked from a warm parent.

:func:`run_serve` is the whole command; the parts live in small modules:
:mod:`~tui.server.config` (flags), :mod:`~tui.server.setup` (the start-up steps ``coven web`` shares),
:mod:`~tui.server.hostkey`,
:mod:`~tui.server.accounts`, :mod:`~tui.server.limits`,
:mod:`~tui.server.pty_bridge`, :mod:`~tui.server.warm` (the warm parent players are
forked from) and :mod:`~tui.server.warm_link` (the server's end of it), :mod:`~tui.server.keeper_link` (the table keeper,
which moves turn-based tables on while nobody is connected),
:mod:`~tui.server.paste` (the input cap that spares
paste markers), :mod:`~tui.server.connection`, :mod:`~tui.server.closing` (refusals
the client gets to read) and :mod:`~tui.server.server`.
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

from tui.server.config import (
    ServeConfig,
    ServeError,
    ServeUsageError,
    add_serve_parser,
    config_from_args,
    password_file_path,
)

__all__ = ["ServeConfig", "ServeError", "ServeUsageError", "add_serve_parser", "run_serve"]


def _address(host: str, port: int) -> str:
    """``host:port`` as a person writes it, an IPv6 host in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def run_serve(args: argparse.Namespace) -> int:
    """Run ``coven serve`` (or ``--add-user``) and return the exit code.

    Raises:
        ServeUsageError: a flag is wrong (exit code 2).
        ServeError: the server cannot start (exit code 1).
    """
    import asyncio  # here, not at the top: every `coven` command imports this package for its flags

    from saves.paths import data_dir, make_private

    # Absolute, because the children run in another working directory.
    directory = data_dir().resolve()
    # Whatever the server or a player's Coven writes is the serving account's alone.
    os.umask(os.umask(0o077) | 0o077)
    tightened = make_private(directory)  # said here once, rather than to the first player to connect
    if tightened:
        print(tightened)
    config = config_from_args(args, directory)
    if args.add_user is not None:
        from tui.server.accounts import add_user

        path = password_file_path(args.password_file, directory)
        replaced = add_user(path, args.add_user)
        print(f"{'Replaced' if replaced else 'Added'} account {args.add_user} in {path}.")
        return 0
    return asyncio.run(_serve(config, directory))


async def _serve(config: ServeConfig, directory: Path) -> int:
    """Listen until Ctrl+C or a hang-up signal, then hang every player up; return the exit code."""
    import asyncio
    import signal

    from tui.server import hostkey
    from tui.server.keeper_link import start_keeper
    from tui.server.server import ServerState, start_server, stop_server
    from tui.server.setup import prepare_ssh, setup_logging, start_warm_parent

    key, keys = prepare_ssh(config, directory)
    setup_logging(directory)
    state = ServerState(config, directory, authorized_keys=keys, warm=await start_warm_parent(config, directory))
    try:
        acceptor = await start_server(state, key)
    except OSError as error:
        if state.warm is not None:
            await state.warm.stop()
        raise ServeError(f"Cannot listen on {_address(config.host, config.port)} ({error.strerror or error}).") \
            from None
    # After the listener: start_server made the database ready, which the keeper opens.
    keeper = await start_keeper(directory, config.notify_url)
    where = _address(config.host, state.port)
    print(f"Coven is serving on {where}; host key fingerprint {hostkey.fingerprint(key)}")
    if config.all_interfaces:
        print(f"WARNING: listening on every network interface ({config.host}); anyone who can reach "
              f"port {state.port} on this machine can try to connect.")
    if config.auth == "none":
        print("WARNING: --auth none: anyone who can reach this port can play, without a password. "
              "Use it on trusted networks only.")
    if config.notify_url is not None:
        # The host only: a URL's path or query (an ntfy topic) is as good as a password to its owner.
        print(f"Notices while away go to {urlsplit(config.notify_url).hostname} (signed-in players may set "
              "their own URL in Settings).")
    print(f"Players connect with: {state.connect_hint()}  (first time: check the fingerprint above)")
    print(f"listening on {where} (Ctrl+C stops the server)", flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(number, stop.set)
    try:
        await stop.wait()
    finally:
        logging.getLogger("coven.serve").info("stopping: hanging up %d connection(s)", len(state.connections))
        await stop_server(state, acceptor)
        await keeper.stop()
        if state.warm is not None:
            await state.warm.stop()
        print("Coven stopped serving.", flush=True)
    return 0
