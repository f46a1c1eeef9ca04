"""Tables shared by several Coven processes through the session store.

A host opens a table with a join code; other processes (one per SSH
connection, usually) take its remote seats. Who holds what is a presence
claim (see :mod:`saves.presence`) written into the table's rows, and the
store refuses any action for a seat the acting connection does not hold.
Every change is one short write transaction of the shared
:class:`saves.store.SessionStore`, so two processes racing for a seat cannot
both win.
"""

from __future__ import annotations

from saves import table_tokens
from saves.presence import Presence
from saves.store import SessionStore
from saves.table_chat import ChatError, ChatLine, ChatThrottledError, TableChatting
from saves.table_records import (
    JOIN_CODE_ALPHABET,
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    Hosted,
    ReclaimLimitError,
    SeatClaimError,
    SeatPlan,
    SeatRole,
    SeatTakenError,
    TableError,
    TableInfo,
    TableNotFoundError,
    TableSeat,
    TableStatus,
    TableWatcher,
    normalise_code,
)
from saves.table_rows import LIVE, clean_name, read_table, seat_label
from saves.table_tokens import MAX_RECLAIM_TRIES, check_token, hash_token, reclaim_in

__all__ = [
    "JOIN_CODE_ALPHABET", "MAX_RECLAIM_TRIES", "RECLAIM_WINDOW_SECONDS", "BadTokenError", "Hosted",
    "ReclaimLimitError", "SeatClaimError", "SeatPlan", "SeatRole", "SeatTakenError", "TableError", "TableInfo",
    "TableNotFoundError", "TableSeat", "TableStatus", "TableStore", "TableWatcher", "normalise_code",
    "ChatError", "ChatLine", "ChatThrottledError",
]


class TableStore(TableChatting):
    """The shared tables in a :class:`SessionStore`'s database, seen by one process.

    The host's commands come from :class:`~saves.table_hosting.TableHosting`, talking and
    watching from :class:`~saves.table_chat.TableChatting`; this adds what any
    player does: finding a table, taking and reclaiming seats, noticing who left.

    Attributes:
        store: The session store whose transactions every change uses.
        presence: This process's liveness marker; its claim is what this process holds.
        clock: Returns the current UTC time; tests replace it instead of waiting.
    """

    def __init__(self, store: SessionStore, presence: Presence) -> None:
        super().__init__(store, presence)
        self._wrong_tokens = 0

    # -- reading ---------------------------------------------------------------

    def find(self, code: str) -> TableInfo:
        """The live table (waiting, or playing an unfinished game) with join code ``code``.

        Raises:
            TableNotFoundError: no live table has the code.
        """
        with self.store._read() as conn:
            return self._live(conn, code)

    def is_live(self, code: str) -> bool:
        """True when a live table has join code ``code`` (any letter case, spaces around it allowed)."""
        try:
            self.find(code)
        except TableNotFoundError:
            return False
        return True

    def table_of_session(self, session_id: int) -> TableInfo | None:
        """The table (in any status) that plays session ``session_id``, or None."""
        with self.store._read() as conn:
            return read_table(conn, "t.session_id = ? ORDER BY t.id DESC", (session_id,))

    def my_tables(self) -> list[TableInfo]:
        """Live tables this process hosts or holds a seat at, newest first."""
        with self.store._read() as conn:
            ids = [
                int(row[0])
                for row in conn.execute(
                    f"SELECT t.id FROM tables t WHERE ({LIVE}) AND (t.host_claim = ? OR EXISTS"
                    " (SELECT 1 FROM table_seats ts WHERE ts.table_id = t.id AND ts.claim = ?)) ORDER BY t.id DESC",
                    (self.claim, self.claim),
                )
            ]
            tables = [read_table(conn, "t.id = ?", (table_id,)) for table_id in ids]
        return [info for info in tables if info is not None]

    # -- joining ---------------------------------------------------------------

    def take_seat(self, code: str, seat: int, name: str) -> str:
        """Sit in an open remote seat under ``name``.

        Returns:
            The seat's token, to show its player once; only its hash is kept.

        Raises:
            TableNotFoundError: no live table has the code.
            SeatTakenError: the seat is not open (someone took it first).
            TableError: no such seat, or an unusable name.
        """
        name = clean_name(name, "your name")
        token = table_tokens.new_token()  # looked up at call time, so tests can fix the token
        with self.store._write() as conn:
            info = self._live(conn, code)
            target = self._seat(info, seat)
            if target.role != "remote":
                raise SeatTakenError(f"{seat_label(seat)} is not open to players joining.")
            if target.claim is None and target.has_token:
                raise SeatTakenError(f"{seat_label(seat)} is kept for {target.name}, who may come back with a token.")
            if not target.is_open:
                raise SeatTakenError(f"{seat_label(seat)} was just taken by {target.name}.")
            # The WHERE repeats the checks so the row changes only if it is still open.
            cursor = conn.execute(
                "UPDATE table_seats SET name = ?, claim = ?, token_hash = ?, dropped_at = NULL"
                " WHERE table_id = ? AND seat = ? AND role = 'remote' AND claim IS NULL AND token_hash IS NULL",
                (name, self.claim, hash_token(token), info.table_id, seat),
            )
            if cursor.rowcount != 1:
                raise SeatTakenError(f"{seat_label(seat)} was just taken.")
            conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (self._now(), info.table_id))
        return token

    def reclaim(self, code: str, token: str) -> list[int]:
        """Take back a seat (or the host role) with its token after a drop.

        Each wrong token counts against this connection; after
        :data:`MAX_RECLAIM_TRIES` of them every further reclaim is refused, so
        tokens cannot be guessed. A typo that is not shaped like a token is not counted.

        Returns:
            The seats now held: the token's seat, or for the host's token the local seats.

        Raises:
            ReclaimLimitError: this connection already tried too many wrong tokens.
            TableNotFoundError: no live table has the code.
            BadTokenError: not a token, the token matches nothing here, or its seat went to a bot.
            TableError: the seat's (or host's) holder is still connected.
        """
        if self.reclaim_tries_left <= 0:
            raise ReclaimLimitError(
                f"{MAX_RECLAIM_TRIES} wrong seat tokens were tried from this connection, so it may not try more."
                " Check your token and connect again."
            )
        wanted = hash_token(check_token(token))
        with self.store._write() as conn:
            info = self._live(conn, code)
            seats = reclaim_in(conn, info, wanted, self.claim, self.presence.alive, self._now())
        if seats is None:
            self._wrong_tokens += 1
            left = self.reclaim_tries_left
            raise BadTokenError(
                f"That seat token does not match any seat at table {info.code}"
                f" ({left} {'try' if left == 1 else 'tries'} left from this connection)."
            )
        return seats

    @property
    def reclaim_tries_left(self) -> int:
        """How many more wrong tokens this connection may try (0: reclaims are refused)."""
        return max(0, MAX_RECLAIM_TRIES - self._wrong_tokens)

    # -- presence --------------------------------------------------------------

    def refresh(self, code: str) -> TableInfo:
        """Like :meth:`find`, after clearing every claim at the table whose process is gone.

        A cleared seat gets ``dropped_at`` = now. Nothing is written when every holder is alive.

        Raises:
            TableNotFoundError: no live table has the code.
        """
        info = self.find(code)
        claims = {seat.claim for seat in info.seats if seat.claim is not None}
        if info.host_claim is not None:
            claims.add(info.host_claim)
        claims.update(watcher.claim for watcher in info.watchers)
        gone = sorted(claim for claim in claims if not self.presence.alive(claim))
        if not gone:
            return info
        now = self._now()
        with self.store._write() as conn:
            for claim in gone:
                # Matching the claim again means a seat re-taken meanwhile is left alone.
                conn.execute(
                    "UPDATE tables SET host_claim = NULL, updated = ? WHERE id = ? AND host_claim = ?",
                    (now, info.table_id, claim),
                )
                conn.execute(
                    "UPDATE table_seats SET claim = NULL, dropped_at = ? WHERE table_id = ? AND claim = ?",
                    (now, info.table_id, claim),
                )
                conn.execute("DELETE FROM table_watchers WHERE table_id = ? AND claim = ?", (info.table_id, claim))
            return self._live(conn, code)

    def release_mine(self) -> None:
        """Let go of every seat and host role this process holds (a clean exit)."""
        now = self._now()
        with self.store._write() as conn:
            conn.execute("UPDATE tables SET host_claim = NULL, updated = ? WHERE host_claim = ?", (now, self.claim))
            conn.execute("UPDATE table_seats SET claim = NULL, dropped_at = ? WHERE claim = ?", (now, self.claim))
            conn.execute("DELETE FROM table_watchers WHERE claim = ?", (self.claim,))
