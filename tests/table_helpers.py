"""Helpers shared by the shared-table test files: one TableStore per simulated process, and a started table."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from engine import GameSpec
from saves import Presence, SeatPlan, SessionStore, TableStore

PLAN = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]

Opener = Callable[[], TableStore]


@pytest.fixture
def open_tables(fake_spec: GameSpec, tmp_path: Path) -> Iterator[Opener]:
    """Open a TableStore as another process would: its own connection and its own presence."""
    with ExitStack() as stack:

        def opener() -> TableStore:
            store = stack.enter_context(SessionStore())
            presence = stack.enter_context(Presence(tmp_path / "presence"))
            return TableStore(store, presence)

        yield opener


def host_table(tables: TableStore, plan: list[SeatPlan] = PLAN) -> tuple[str, str]:
    hosted = tables.host("count-to-ten", {}, 7, plan, host_name="Ana")
    return hosted.info.code, hosted.token


def started(open_tables: Opener) -> tuple[TableStore, TableStore, int]:
    """A started two-seat table: the host plays seat 0 locally, Bea seat 1 from another connection."""
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    return host, bea, host.start(code)
