"""The table keeper's own process: ``python -m tui.keeper.run``, started by ``coven serve`` and ``coven web``.

It opens the save folder's database itself (the server that holds the host key never does), keeps a presence
claim of its own for its whole life (so a keeper killed mid-pass lets go of every helm at once, as a player's
Coven that dies does), tends every turn-based table once at start and then every :func:`period` seconds,
and writes one line to stderr per table it moved on, which the server copies into its log. SIGTERM ends it
between two tables; on Linux the kernel sends that SIGTERM when the server dies, even by SIGKILL, so a keeper
never outlives its server (it runs in a session of its own, out of reach of the server's terminal).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading
from types import FrameType

PERIOD_SECONDS = 60.0
"""How often the keeper looks at every turn-based table (time per move is counted in days)."""

PERIOD_ENV = "COVEN_KEEPER_SECONDS"
"""Replaces :data:`PERIOD_SECONDS` (tests shorten it); a value that is not a number from 0.05 to 86400 is ignored."""

SENDER_WAIT_SECONDS = 30.0
"""How long a one-off pass (``coven tables keep``) waits for its notices to go before it exits."""

PARENT_ENV = "COVEN_KEEPER_PARENT"
"""The server's process id, which the server passes: the keeper ends once that process is no longer its parent."""

_PR_SET_PDEATHSIG = 1
"""prctl(2): the signal this process gets when its parent dies."""

log = logging.getLogger("coven.keeper")


def period() -> float:
    """The keeper's period in seconds: :data:`PERIOD_ENV` when it holds a sane number, else :data:`PERIOD_SECONDS`."""
    text = os.environ.get(PERIOD_ENV, "")
    try:
        seconds = float(text)
    except ValueError:
        return PERIOD_SECONDS
    return seconds if 0.05 <= seconds <= 86400 else PERIOD_SECONDS


def _server_pid() -> int:
    """The server's process id: :data:`PARENT_ENV` when it holds one, else the parent's at start."""
    text = os.environ.get(PARENT_ENV, "")
    return int(text) if text.isascii() and text.isdigit() and 0 < len(text) <= 7 else os.getppid()


def die_with_server(server_pid: int) -> bool:
    """Ask the kernel for SIGTERM when the parent dies (Linux); False when ``server_pid`` is no longer the parent.

    The check comes after the request, as in :mod:`tui.server.warm`: a server that died before the request took
    effect left this process to another parent, and would never be signalled for.
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    return os.getppid() == server_pid


def main() -> int:
    """Tend the folder's turn-based tables every :func:`period` seconds until SIGTERM; the exit code."""
    from saves import Presence, SessionStore, StoreError
    from saves.tables import TableStore
    from tui.keeper.tend import keep_tables

    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(message)s")
    stop = threading.Event()

    def stopping(number: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    if not die_with_server(_server_pid()):  # after the handlers: the server's death ends it between two tables
        log.error("the table keeper's server is gone; it stops")
        return 1
    every = period()
    try:
        store = SessionStore()
    except StoreError as error:
        log.error("the table keeper cannot open the save folder: %s", error)
        return 1
    with store, Presence() as presence:
        tables = TableStore(store, presence)
        log.info("the table keeper looks at turn-based tables every %g s", every)
        while not stop.is_set():
            try:
                for tended in keep_tables(tables, stop.is_set):
                    if tended.touched:
                        log.info("%s", tended.line())
            except StoreError as error:  # the whole folder is unreadable now: try again next time
                log.warning("the table keeper's pass failed: %s", error)
            stop.wait(every)
    from tui.notify import seat_asked

    seat_asked.SENDER.wait_idle(SENDER_WAIT_SECONDS / 6)  # a notice on its way is not cut off by a restart
    return 0


if __name__ == "__main__":
    sys.exit(main())
