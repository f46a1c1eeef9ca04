"""A seat kept by the browser door's page, on the player's Coven's side: saying its token, taking it back.

A refreshed browser page gets a new Coven, so that it may have its seat back without the token typed the
browser door (and only it: it sets :data:`KEEP_SEAT_VARIABLE`) hears each seat's code and token on the
status pipe of :mod:`tui.serve_status` (``seat CODE TOKEN``) and the page keeps them, sealed by the door, in its
session storage (:mod:`tui.web.kept_seat`). After a refresh the door hands them back (``reclaim CODE TOKEN``)
and the Coven takes the seat back exactly as with a typed token: the same checks of its form, and each wrong
token counted against this connection's tries. ``forget`` tells the door the page should drop what it keeps:
the player left the table, or the seat could not be taken back. Nothing here imports Textual.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import Protocol

from saves import StoreError
from saves.table_tokens import normalise_token
from saves.tables import StillConnectedError, TableStore, normalise_code
from tui.serve_status import serve_status


class Seating(Protocol):
    """What taking a seat back needs of :class:`tui.table_seating.TableSeating` (which imports this module)."""

    def store(self) -> TableStore | None:
        """The shared tables, or None when this Coven has none."""

    def enter_table(self, code: str, token: str) -> None:
        """Sit at table ``code`` with ``token``, as a typed token does."""

KEEP_SEAT_VARIABLE = "COVEN_SERVE_KEEP_SEAT"
"""Set to ``1`` by the browser door: say each seat's token on the status pipe (an SSH session never does)."""
SEAT = "seat"
"""The Coven says ``seat CODE TOKEN``: the page keeps that seat."""
RECLAIM = "reclaim"
"""The door says ``reclaim CODE TOKEN``: the page handed that seat back after a refresh."""
FORGET = "forget"
"""The Coven says ``forget``: the page drops the seat it keeps."""
HOLDER_GONE_SECONDS = 10.0
"""How long a seat still held by the page's previous Coven (being hung up as the page refreshed) is tried again."""
RETRY_SECONDS = 0.5


def seat_line(word: str, code: str, token: str) -> str:
    """The status line ``WORD CODE TOKEN`` (:data:`SEAT` or :data:`RECLAIM`)."""
    return f"{word} {code} {token}"


def read_seat_line(line: str, word: str) -> tuple[str, str] | None:
    """The join code and token of a ``WORD CODE TOKEN`` line, both checked as typed ones are; else None."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != word:
        return None
    code, token = normalise_code(parts[1]), normalise_token(parts[2])
    return (code, token) if code is not None and token is not None else None


@functools.cache
def keeping() -> bool:
    """Whether the browser door asked to hear seat tokens (and listens on the status pipe)."""
    return os.environ.get(KEEP_SEAT_VARIABLE) == "1" and serve_status().talking


def remember(code: str, token: str) -> None:
    """Tell the browser door that this player holds a seat at table ``code`` with ``token`` (else nothing)."""
    if keeping():
        serve_status().tell(seat_line(SEAT, code, token))


def forget() -> None:
    """Tell the browser door that its page should keep no seat any more (else nothing)."""
    if keeping():
        serve_status().tell(FORGET)


class SeatTakeBack:
    """Takes the seat back when the browser door hands its kept token over (once a connection)."""

    def __init__(self, seating: Seating, warn: Callable[[str], None],
                 later: Callable[[float, Callable[[], None]], object], clock: Callable[[], float] = time.monotonic,
                 ) -> None:
        """Work through ``seating``; ``warn`` tells the player, ``later(seconds, callback)`` waits."""
        self.seating = seating
        self.warn = warn
        self.later = later
        self.clock = clock
        self.handed = False

    def heard(self, line: str) -> None:
        """A line from the door: a ``reclaim CODE TOKEN`` (the first only) takes the seat back; others are ignored."""
        found = read_seat_line(line, RECLAIM)
        if found is None or self.handed or not keeping():
            return
        self.handed = True
        self._try(*found, self.clock() + HOLDER_GONE_SECONDS)

    def _try(self, code: str, token: str, until: float) -> None:
        """Reclaim the seat as a typed token would, waiting a little for the page's previous Coven to let go."""
        tables = self.seating.store()
        if tables is None:
            return
        try:
            tables.reclaim(code, token)
        except StillConnectedError as error:
            if self.clock() < until:
                self.later(RETRY_SECONDS, lambda: self._try(code, token, until))
                return
            self._failed(code, error)
            return
        except StoreError as error:
            self._failed(code, error)
            return
        self.seating.enter_table(code, token)

    def _failed(self, code: str, error: StoreError) -> None:
        """Say why the kept seat was not taken back, and have the page forget it."""
        forget()
        self.warn(f"Your seat at table {code} was not taken back: {error}")
