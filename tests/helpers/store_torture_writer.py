"""A long-lived Coven that keeps writing, for the torture tests: ``python tests/helpers/store_torture_writer.py``.

It opens one store (``COVEN_DATA_DIR``) and plays games into it, move after
move, starting the next game when one ends. After each move the store has
committed it prints ``saved <session> <log length>``; a test that reads
those lines knows exactly what must survive a SIGKILL. A store that finds its
journal gone prints ``lost <reason>`` and stops, so the test sees the loss
instead of a silent success. It never ends on its own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from saves import LiveSession, SeatInfo, SessionStore, StoreError  # noqa: E402

PAUSE = 0.01
"""Seconds between moves, so the commands beside it get the CPU on a two-core machine."""

GAMES = ("witchdraft", "wizards-cup")


def main() -> int:
    """Write until killed; 1 once the store refuses a write."""
    store = SessionStore()
    number = 0
    while True:
        live = LiveSession.create(store, GAMES[number % len(GAMES)], None, 1000 + number,
                                  [SeatInfo("Ana"), SeatInfo("Bea")])
        number += 1
        print(f"started {live.session_id}", flush=True)
        while not live.finished:
            try:
                if live.table_action is not None:
                    live.play_table()
                else:
                    seat = live.to_act[0]
                    live.apply(seat, live.rules.legal_actions(live.state, seat)[0])
            except StoreError as error:
                print(f"lost {type(error).__name__}: {error}", flush=True)
                return 1
            print(f"saved {live.session_id} {len(live.log)}", flush=True)
            time.sleep(PAUSE)


if __name__ == "__main__":
    sys.exit(main())
