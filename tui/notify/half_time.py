"""The half-time reminder as a notice: a turn-based seat's player, away, is told half their time is gone.

A sibling of :func:`tui.notify.seat_asked.tell_seat_asked`: the same URL, the same per-player rate limit,
and a notice holding the same four fields. It goes once per seat per move: the account keeps which asked
moments it was reminded of (a preference, so every process of the data folder sees it).
"""

from __future__ import annotations

from datetime import datetime

from saves import SessionStore, StoreError, TableInfo
from saves.preferences import get_preference, set_preference
from saves.presence import Presence
from saves.turn_based import SeatClock
from tui.notify import seat_asked
from tui.notify.notice import SeatNotice
from tui.notify.sender import NoticeSender

REMINDED_KEY = "notify.half_time"
"""The preference key of the moves an account was reminded of ("table/seat/asked since")."""

MAX_KEPT = 50
"""How many reminded moves an account keeps (the oldest are forgotten; their moves are long over)."""


def _reminded(store: SessionStore, account: str) -> list[str]:
    """The moves ``account`` was reminded of, as stored (anything else in the value is ignored)."""
    stored = get_preference(store, account, REMINDED_KEY)
    return [mark for mark in stored if isinstance(mark, str)] if isinstance(stored, list) else []


def tell_half_time(store: SessionStore, presence: Presence, info: TableInfo, clock: SeatClock, game: str,
                   deadline: datetime, *, sender: NoticeSender | None = None,
                   limit: seat_asked.NoticeLimit | None = None) -> bool:
    """Remind ``clock``'s seat that half its time is gone, once for this move, unless its player is connected.

    Returns:
        True when a notice was queued.
    """
    seat = clock.seat
    if not clock.reminded or clock.overdue or clock.account is None or not 0 <= seat < len(info.seats):
        return False
    if info.seats[seat].role == "bot" or seat_asked.seat_connected(info, seat, presence):
        return False
    mark = f"{info.table_id}/{seat}/{clock.since.isoformat()}"
    reminded = _reminded(store, clock.account)
    if mark in reminded:
        return False
    url = seat_asked.target_url(store, clock.account)
    if url is None or not (limit or seat_asked.LIMIT).allow(clock.account):
        return False
    try:  # marked before sending: a reminder that cannot be marked is not sent, so none goes twice
        set_preference(store, clock.account, REMINDED_KEY, [*reminded, mark][-MAX_KEPT:])
    except (ValueError, StoreError):
        return False
    notice = SeatNotice(info.code, game, info.seats[seat].name, deadline, reminder=True)
    return (sender or seat_asked.SENDER).send(url, notice)
