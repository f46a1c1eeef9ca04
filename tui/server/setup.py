"""The start-up steps both doors share: ``coven serve`` (:mod:`tui.server`) and ``coven web`` (:mod:`tui.web.run`).

Each door checks its flags, then calls these in this order: :func:`prepare_ssh` (the SSH door's host key and
auth files, before anything listens; the browser door alone calls :func:`check_password_file`),
:func:`setup_logging` and :func:`start_warm_parent`.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TYPE_CHECKING

from tui.server.config import ServeConfig, ServeError

if TYPE_CHECKING:
    from pathlib import Path

    import asyncssh

    from tui.server.warm_link import WarmParent

LOG_FILENAME = "serve.log"
"""The doors' log, in the data folder."""
_LOG_FORMAT = "%(asctime)s coven-serve %(levelname)s %(message)s"


def setup_logging(data_dir: Path) -> None:
    """Log ``coven.serve`` to stderr and to ``serve.log`` in ``data_dir`` (a file only the host may read)."""
    logger = logging.getLogger("coven.serve")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    formatter = logging.Formatter(_LOG_FORMAT)
    path = data_dir / LOG_FILENAME
    # The log names players and their addresses: private to the host from its first byte.
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    for handler in (logging.StreamHandler(sys.stderr),
                    logging.FileHandler(path, encoding="utf-8")):
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    # asyncssh narrates every packet exchange at INFO; our own lines say what matters.
    logging.getLogger("asyncssh").setLevel(logging.ERROR)


def check_password_file(config: ServeConfig) -> None:
    """Under ``--auth password``, refuse a password file that holds no accounts or that others may read.

    Raises:
        ServeError: the file is empty of accounts, or not private to the host.
    """
    from tui.server import accounts

    if config.auth == "password":
        assert config.password_file is not None
        if not accounts.read_password_file(config.password_file):
            raise ServeError(f"The password file {config.password_file} holds no accounts; "
                             f"add one with `coven serve --add-user NAME`.")
        accounts.check_password_file_private(config.password_file)


def prepare_ssh(config: ServeConfig, directory: Path) -> tuple[asyncssh.SSHKey, asyncssh.SSHAuthorizedKeys | None]:
    """Load the SSH door's host key (made on first use) and its auth files, before it listens.

    Returns:
        The host key, and the authorized keys under ``--auth keys`` (else None).

    Raises:
        ServeError: the password file holds no accounts or others may read it, or the keys file is unusable.
    """
    from tui.server import accounts, hostkey

    key, created = hostkey.load_or_create_host_key(directory)
    keys = None
    if config.auth == "password":
        check_password_file(config)
    elif config.auth == "keys":
        assert config.authorized_keys is not None
        keys = accounts.load_authorized_keys(config.authorized_keys)
    if created:
        print(f"Made a new host key in {directory / hostkey.HOST_KEY_FILENAME}.")
    return key, keys


async def start_warm_parent(config: ServeConfig, directory: Path) -> WarmParent | None:
    """Start the warm parent players are forked from; None with ``--no-warm`` or where it cannot run (logged)."""
    from tui.server.connection import SOURCE_ROOT
    from tui.server.warm_link import WarmParent, become_subreaper

    serve_log = logging.getLogger("coven.serve")
    if not config.warm:
        serve_log.info("--no-warm: every player starts as a fresh process")
        return None
    if not become_subreaper():
        serve_log.warning("no warm parent on this system (it needs Linux's pidfd and child subreapers); "
                          "every player starts as a fresh process")
        return None
    warm = WarmParent(directory, SOURCE_ROOT)
    try:
        await warm.start()
    except OSError as error:
        serve_log.warning("the warm parent could not start (%s); every player starts as a fresh process", error)
        return None
    return warm
