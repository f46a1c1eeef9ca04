"""The one call a table makes when a seat is newly asked: tell its player, if they are not connected.

:func:`tell_seat_asked` works for a live table (a dropped player, no
deadline) and a turn-based one (its deadline). The notice goes to the
player's own URL (Settings, signed-in accounts only) or else to the server's
``coven serve --notify-url`` (passed to each player's Coven as
:data:`ENV_URL`); never when the player turned notices off, never to a bot,
and at most :data:`tui.notify.sender.MAX_NOTICES` an hour to one player.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from typing import Protocol

from saves import SessionStore, TableInfo
from saves.notice_counts import NoticeCounts
from saves.preferences import get_preference, is_visit, set_preference
from saves.presence import Presence
from saves.seat_accounts import seat_account
from tui.notify.notice import SeatNotice
from tui.notify.sender import MAX_NOTICES, WINDOW_SECONDS, NoticeSender, RateLimit
from tui.notify.url import ENV_URL, NotifyUrlError, check_notify_url
from tui.player_settings import read_settings

log = logging.getLogger("coven.notify")

URL_KEY = "notify.url"
"""The preference key of a player's own notice URL."""

SENDER = NoticeSender()
"""This process's sender (its thread starts with the first notice)."""


class NoticeLimit(Protocol):
    """Something that counts notices per player (:class:`SharedLimit`; a test's :class:`RateLimit`)."""

    def allow(self, player: str) -> bool:
        """Whether one more notice may go to ``player`` now; counts it if so."""
        ...


class SharedLimit:
    """The per-player limit counted across every process of the data folder, or in this one if that fails."""

    def __init__(self) -> None:
        """Count in the data folder's ``notices/``; this process's own count stands in when that fails."""
        self._shared = NoticeCounts(MAX_NOTICES, WINDOW_SECONDS)
        self._here = RateLimit()

    def allow(self, player: str) -> bool:
        """Whether one more notice may go to ``player`` now; counts it if so."""
        try:
            return self._shared.allow(player)
        except OSError as error:
            log.warning("notice counts cannot be shared (%s); counting in this process", error)
            return self._here.allow(player)


LIMIT: NoticeLimit = SharedLimit()
"""The count of notices per player."""


def server_url() -> str | None:
    """The server's notice URL, checked again (the environment is outside this process), or None."""
    text = os.environ.get(ENV_URL)
    if not text:
        return None
    try:
        return check_notify_url(text)
    except NotifyUrlError as error:
        log.warning("%s ignored: %s", ENV_URL, error)
        return None


def own_url(store: SessionStore | None, account: str | None) -> str | None:
    """``account``'s own notice URL as stored (checked again: the database is outside too), or None."""
    if store is None or account is None or is_visit(account):
        return None
    try:
        return check_notify_url(get_preference(store, account, URL_KEY))
    except NotifyUrlError:
        return None


def set_own_url(store: SessionStore, account: str, text: str) -> str | None:
    """Keep ``text`` as ``account``'s notice URL (blank: forget it and use the server's); the URL kept.

    Raises:
        NotifyUrlError: the URL is refused; nothing was kept.
        ValueError: ``account`` cannot keep preferences.
        StoreError: it could not be saved.
    """
    url = check_notify_url(text) if text.strip() else None
    set_preference(store, account, URL_KEY, url)
    return url


def target_url(store: SessionStore | None, account: str | None) -> str | None:
    """Where a notice for ``account``'s player goes: their own URL, else the server's; None when off."""
    if account is not None and not read_settings(store, account)["away_notices"]:
        return None
    return own_url(store, account) or server_url()


def seat_connected(info: TableInfo, seat: int, presence: Presence) -> bool:
    """Whether a live process plays ``seat`` now.

    Every seat's own claim says who sits in it, the host's local seats included. The table's host role is no
    guide: at a turn-based table it passes to whichever player's Coven (or table keeper) drives the table, while
    the host who owns the local seats may be away.
    """
    claim = info.seats[seat].claim
    return claim is not None and presence.alive(claim)


def tell_seat_asked(store: SessionStore, presence: Presence, info: TableInfo, seat: int, game: str,
                    deadline: datetime | None = None, *, sender: NoticeSender | None = None,
                    limit: NoticeLimit | None = None) -> bool:
    """Tell ``seat``'s player that table ``info`` asks them to choose, unless they are connected.

    Call it once per seat newly asked (never for the seat that just moved).
    Never waits: the notice is queued for :data:`SENDER`'s thread.

    Args:
        store: The session store (for the player's account and settings).
        presence: This process's presence, to tell a live holder of the seat from a gone one.
        info: The table, read after the action that asked the seat.
        seat: The seat asked.
        game: The game's title.
        deadline: When the seat's time runs out at a turn-based table; None at a live table.
        sender: Replaces :data:`SENDER` (tests).
        limit: Replaces :data:`LIMIT` (tests).

    Returns:
        True when a notice was queued.
    """
    if not 0 <= seat < len(info.seats) or info.seats[seat].role == "bot" or seat_connected(info, seat, presence):
        return False
    account = seat_account(store, info.table_id, seat)
    url = target_url(store, account)
    if url is None:
        return False
    # A signed-in player is one person wherever they sit; anyone else is known by their seat only.
    player = account if account is not None else f"{info.code}/{seat}"
    if not (limit or LIMIT).allow(player):
        log.info("notice for table %s seat %d held back: rate limit", info.code, seat + 1)
        return False
    notice = SeatNotice(info.code, game, info.seats[seat].name, deadline)
    return (sender or SENDER).send(url, notice)
