"""A screen's tie to a shared table: which seats this process holds, and news from the others.

Other processes append their own seats' actions to the shared session store.
This process learns of them by polling SQLite's ``PRAGMA data_version`` (a
read of one counter on its own connection, which changes only when another
connection commits), five times a second, so news is on screen well within
300 ms. Presence (who dropped) is checked every two seconds, because it costs a
read of the table and a file-lock probe per holder.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from saves import SessionStore, StoreError
from saves.tables import TableInfo, TableStore

POLL_SECONDS = 0.2
"""How often a table screen asks the store whether another process committed."""

PRESENCE_EVERY = 10  # two seconds
"""Polls between two checks for players who dropped."""


@dataclass
class TableLink:
    """One process's hold on one table.

    Attributes:
        tables: The table store (with this process's presence claim).
        code: The table's join code.
        token: The token this process's player was given (None for spectators).
        spectator: True when watching without a seat.
        info: The table as last read.
        muted: Names (case-folded) whose chat lines this player does not want to see.
        from_lobby: This process's lobby saw the game start (its game screen tells away players they are asked).
    """

    tables: TableStore
    code: str
    token: str | None
    spectator: bool = False
    info: TableInfo | None = None
    muted: set[str] = field(default_factory=set)
    from_lobby: bool = False
    _version: int | None = field(default=None, repr=False)
    _polls: int = field(default=0, repr=False)

    @property
    def store(self) -> SessionStore:
        """The shared session store."""
        return self.tables.store

    @property
    def claim(self) -> str:
        """This process's claim."""
        return self.tables.claim

    def refresh(self) -> TableInfo:
        """Re-read the table, noticing players who dropped.

        Raises:
            TableNotFoundError: the table closed or its game ended.
        """
        self.info = self.tables.refresh(self.code)
        return self.info

    def current(self) -> TableInfo:
        """The table as last read (reading it the first time)."""
        return self.info if self.info is not None else self.refresh()

    @property
    def my_seats(self) -> list[int]:
        """The seats this process holds."""
        return [] if self.spectator else self.current().seats_of(self.claim)

    @property
    def is_host(self) -> bool:
        """True when this process holds the host's role."""
        return not self.spectator and self.current().host_claim == self.claim

    def changed(self) -> bool:
        """Poll once: True when another process committed since the last poll.

        Every :data:`PRESENCE_EVERY` polls it also reports True, so dropped
        players are noticed even when nothing else happens.
        """
        self._polls += 1
        try:
            version = self.store.data_version()
        except StoreError:
            return False
        moved = version != self._version
        self._version = version
        return moved or self._polls % PRESENCE_EVERY == 0
