"""One ``coven serve`` shared by the tests of a module that start it with the same options.

Starting a server costs about a second and a half of CPU (the server and its warm parent import Coven).
Tests that need nothing fresh of it share one through a module-scoped fixture built on
:func:`module_server`; each uses its own players, reads the log from where it began
(``server.log[start:]``), and :func:`between_tests` waits until no player of an earlier test is left.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.helpers.ssh_client import ServeProcess, wait_until


def module_server(tmp_path_factory: pytest.TempPathFactory, name: str, *args: str) -> Iterator[ServeProcess]:
    """Start a server with ``args`` in a fresh data folder, yield it, and stop it afterwards."""
    environment = dict(os.environ)
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):  # as the coven_data_dir fixture sets them
        environment[variable] = "ana"
    with ServeProcess.start(tmp_path_factory.mktemp(name) / "coven-data", *args, env=environment) as server:
        yield server


def between_tests(server: ServeProcess) -> ServeProcess:
    """``server`` once no player of an earlier test is left on it; it must still be running."""
    wait_until(lambda: not server.children(), "an earlier test's players to be reaped", 60)
    assert server.process.poll() is None, server.log
    return server
