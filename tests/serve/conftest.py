"""Fixtures of the SSH server's tests: one default ``coven serve`` a module, for the tests that need nothing fresh."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.shared_serve import between_tests, module_server
from tests.helpers.ssh_client import ServeProcess


@pytest.fixture(scope="module")
def default_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One server with the default options, shared by the tests of one module that neither stop nor change it."""
    yield from module_server(tmp_path_factory, request.module.__name__.rpartition(".")[2])


@pytest.fixture
def served(default_server: ServeProcess) -> ServeProcess:
    """The module's default server, once no player of an earlier test is left on it."""
    return between_tests(default_server)
