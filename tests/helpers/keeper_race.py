"""One racing process at a turn-based table nobody drives (spawned by the table keeper's race test).

``python -m tests.helpers.keeper_race keeper CODE`` makes one keeper pass (:func:`tui.keeper.tend.keep_tables`);
``python -m tests.helpers.keeper_race player CODE`` does what Bea's Coven does when she opens the table: her list
applies the time-out rule, she sits again (taking the helm if nobody holds it), and while she holds the helm
her screen plays the bots through :mod:`tui.table_turns` until she is asked. Two of Bea's Covens racing is Bea
in two terminals at once: the one that sits second is told her seat is played from another terminal, and plays
nothing. Each prints ``ready``, waits for a
line on stdin (so all go at once), then prints how many moves it played and exits 0.
"""

from __future__ import annotations

import sys

from saves import LiveSession, LogConflictError, Presence, SessionStore
from saves.table_records import SeatClaimError, TableError
from saves.tables import TableStore
from saves.turn_based import my_turn_tables, resume, take_helm
from tui.keeper.tend import keep_tables
from tui.table_turns import bot_choice, bot_for


def _player(tables: TableStore, code: str) -> int:
    tables.account = "bea"
    my_turn_tables(tables)  # the menu's list looks first, as Bea signs in
    try:
        resume(tables, code)
    except TableError:
        return 0  # her other racing Coven sits there now: this one is told so, and plays nothing
    if not take_helm(tables, code):
        return 0  # the keeper drives it now: her screen waits for its moves
    session_id = tables.find(code).session_id
    assert session_id is not None
    live = LiveSession.load(tables.store, session_id, claim=tables.claim)
    played = 0
    while live.result is None:
        bots = [seat for seat in live.to_act if live.seats[seat].is_bot]
        bot = bot_for(live, bots[0]) if bots else None
        if bot is None:
            break
        try:
            live.apply(bots[0], bot_choice(live, bots[0], bot))
        except LogConflictError:
            live.sync()
            continue
        except SeatClaimError:
            break
        played += 1
    return played


def main() -> None:
    """Race as a keeper or as Bea's Coven (see the module's text)."""
    role, code = sys.argv[1], sys.argv[2]
    with SessionStore(timeout=60) as store, Presence() as presence:
        tables = TableStore(store, presence)
        print("ready", flush=True)
        sys.stdin.readline()
        if role == "keeper":
            played = sum(tended.moves for tended in keep_tables(tables))
        else:
            played = _player(tables, code)
        print(played, flush=True)


if __name__ == "__main__":
    main()
