"""Helpers shared by the shared-table test files: one TableStore per simulated process, and a started table."""

from __future__ import annotations

from collections.abc import Callable

from saves import SeatPlan, TableStore

PLAN = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]

Opener = Callable[[], TableStore]


def host_table(tables: TableStore, plan: list[SeatPlan] = PLAN) -> tuple[str, str]:
    hosted = tables.host("count-to-ten", {}, 7, plan, host_name="Ana")
    return hosted.info.code, hosted.token


def started(open_tables: Opener) -> tuple[TableStore, TableStore, int]:
    """A started two-seat table: the host plays seat 0 locally, Bea seat 1 from another connection."""
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    return host, bea, host.start(code)
