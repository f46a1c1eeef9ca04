"""Rated shared tables for the ratings tests: two signed-in processes at count-to-ten, played out to a chosen end."""

from __future__ import annotations

from saves import LiveSession, SeatPlan, TableStore
from tests.helpers.fake_game import Add
from tests.helpers.table_helpers import PLAN, Opener


def rated_table(open_tables: Opener, accounts: tuple[str | None, str | None] = ("ana", "bea"), *,
                rated: bool = True, plan: list[SeatPlan] = PLAN) -> tuple[TableStore, TableStore, str, int]:
    """A started table: the host (account ``accounts[0]``) in seat 1, Bea (``accounts[1]``) in seat 2."""
    host, bea = open_tables(), open_tables()
    host.account, bea.account = accounts
    code = host.host("count-to-ten", {}, 7, plan, host_name="Ana", rated=rated).info.code
    bea.take_seat(code, 1, "Bea")
    return host, bea, code, host.start(code)


def play_out(host: TableStore, session_id: int, winner: int, bea: TableStore | None = None) -> tuple[int, ...]:
    """Play the game to its end, ``winner``'s seat racing ahead (adding 2, the other seat 1); the winners.

    ``bea``: Bea's process while she still plays seat 2; without it the host plays every seat (a bot's).
    """
    hosts = LiveSession.load(host.store, session_id, claim=host.claim)
    beas = None if bea is None else LiveSession.load(bea.store, session_id, claim=bea.claim)
    while not hosts.finished:
        if hosts.table_action is not None:
            hosts.play_table()
        else:
            (seat,) = hosts.to_act
            live = beas if seat == 1 and beas is not None else hosts
            live.sync()
            live.apply(seat, Add(2 if seat == winner else 1))
        hosts.sync()
    result = hosts.result
    assert result is not None
    return tuple(result.winners)
