"""``coven web`` as a command: check the flags, listen, and stop cleanly on Ctrl+C or a hang-up."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from dataclasses import replace
from pathlib import Path

from tui.server.config import ServeConfig, ServeError
from tui.web.config import EXPOSED_WARNING, is_exposed, web_config


def run_web(args: argparse.Namespace) -> int:
    """Run ``coven web`` and return the exit code.

    Raises:
        ServeUsageError: a flag is wrong (exit code 2).
        ServeError: the door cannot open (exit code 1).
    """
    from saves.paths import data_dir, make_private

    directory = data_dir().resolve()
    os.umask(os.umask(0o077) | 0o077)  # what a player's Coven writes is the serving account's alone
    tightened = make_private(directory)
    if tightened:
        print(tightened)
    config, ssh_port = web_config(args, directory)
    return asyncio.run(_web(config, directory, ssh_port))


def _where(host: str, port: int) -> str:
    """The door's address for a browser, an IPv6 host in brackets."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


async def _web(config: ServeConfig, directory: Path, ssh_port: int | None) -> int:
    """Listen until Ctrl+C or a hang-up signal, then hang every player up; return the exit code.

    With ``ssh_port`` the SSH door listens too, on the same state: one session cap for both doors.
    """
    import asyncssh
    from aiohttp import web

    from tui.server.keeper_link import start_keeper
    from tui.server.server import ServerState, start_server, stop_server
    from tui.server.setup import check_password_file, prepare_ssh, setup_logging, start_warm_parent
    from tui.server.store_ready import prepare_database
    from tui.web.site import Door

    check_password_file(config)
    # The state's settings are the SSH door's (its port); the web door listens on config.port.
    state_config = replace(config, port=ssh_port) if ssh_port is not None else config
    host_key = prepare_ssh(state_config, directory)[0] if ssh_port is not None else None
    setup_logging(directory)
    prepare_database(directory)
    state = ServerState(state_config, directory, warm=await start_warm_parent(config, directory))
    door = Door(state)
    runner = web.AppRunner(door.application(), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, config.host or None, config.port)
    acceptor: asyncssh.SSHAcceptor | None = None
    try:
        await site.start()
        if host_key is not None:
            acceptor = await start_server(state, host_key)  # sets state.port, the port players' ssh lines name
    except OSError as error:
        await runner.cleanup()
        if state.warm is not None:
            await state.warm.stop()
        raise ServeError(f"Cannot listen on {config.host} ({error.strerror or error}).") from None
    keeper = await start_keeper(directory, config.notify_url)  # turn-based tables move on with nobody connected
    server = site._server  # aiohttp names no public way to the port that --port 0 picked
    sockets = getattr(server, "sockets", None) or ()
    web_port = int(sockets[0].getsockname()[1]) if sockets else config.port
    if acceptor is None:
        state.port, state.browser_only = web_port, True
    else:
        print(f"The SSH door is open too: players connect with {state.connect_hint()}")
    if is_exposed(config.host):
        print(EXPOSED_WARNING)
    if config.auth == "none":
        print("WARNING: --auth none: anyone who can reach this port can play, without a password. "
              "Use it on trusted networks only.")
    print(f"Coven's browser door is open at {_where(config.host, web_port)}")
    print(f"listening on {config.host}:{web_port} (Ctrl+C stops the door)", flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(number, stop.set)
    try:
        await stop.wait()
    finally:
        logging.getLogger("coven.serve").info("stopping the browser door")
        if acceptor is not None:
            await stop_server(state, acceptor)
        await door.close_all("Coven's browser door is closing; goodbye.")
        await runner.cleanup()  # closes every socket; each visit then hangs its Coven up
        for _ in range(3):
            pending = [task for task in state.hangups if not task.done()]
            if not pending:
                break
            await asyncio.gather(*pending, return_exceptions=True)
        await keeper.stop()
        if state.warm is not None:
            await state.warm.stop()
        print("Coven's browser door is closed.", flush=True)
    return 0
