"""Queries over many sessions at once: the sessions list, Continue, and who may see what.

:class:`SessionListing` is a base of :class:`saves.store.SessionStore`, kept
apart so the store's own file stays readable in one sitting.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager

from saves.records import SeatInfo, SessionSummary, check_status

_VISIBLE = (
    "(? IS NULL OR s.owner = ? OR (s.status = 'finished'"
    " AND s.id IN (SELECT session_id FROM tables WHERE session_id IS NOT NULL)))"
)
"""SQL: session ``s`` may be seen by the owner bound twice (None sees all). A served account sees
its own sessions and every finished table's game, never another account's private games."""


class SessionListing:
    """The read-only queries over many sessions (see :class:`saves.store.SessionStore`)."""

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        """A read transaction on the store's connection (the store provides it)."""
        raise NotImplementedError

    def list_sessions(self, owner: str | None = None) -> list[SessionSummary]:
        """Every session (or only those ``owner`` may see), most recently played first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT s.id, s.game_id, s.status, s.progress, s.result, s.created, s.updated,"
                " (SELECT COUNT(*) FROM actions a WHERE a.session_id = s.id)"
                f" FROM sessions s WHERE {_VISIBLE} ORDER BY s.updated DESC, s.id DESC",
                (owner, owner),
            ).fetchall()
            seats: dict[int, list[SeatInfo]] = {}
            for session_id, name, kind, level in conn.execute(
                "SELECT session_id, name, kind, bot_level FROM seats ORDER BY session_id, seat"
            ):
                seats.setdefault(session_id, []).append(SeatInfo(name=name, kind=kind, bot_level=level))
        return [
            SessionSummary(
                session_id=session_id,
                game_id=game_id,
                seats=tuple(seats.get(session_id, ())),
                status=check_status(status),
                progress=progress,
                result=result,
                actions=int(count),
                created=created,
                updated=updated,
            )
            for session_id, game_id, status, progress, result, created, updated, count in rows
        ]

    def latest_unfinished(self, owner: str | None = None) -> int | None:
        """The id of the most recently played active session that no live table plays, or None.

        With ``owner``, only that account's own sessions count.
        """
        with self._read() as conn:
            # A live table's session is played through its table, never by Continue.
            row = conn.execute(
                "SELECT s.id FROM sessions s WHERE s.status = 'active' AND s.id NOT IN"
                " (SELECT session_id FROM tables WHERE status != 'closed' AND session_id IS NOT NULL)"
                " AND (? IS NULL OR s.owner = ?) ORDER BY s.updated DESC, s.id DESC LIMIT 1",
                (owner, owner),
            ).fetchone()
        return None if row is None else int(row[0])

    def visible_to(self, session_id: int, owner: str | None) -> bool:
        """True when ``owner`` (None: this machine's user, who sees all) may open ``session_id``."""
        with self._read() as conn:
            row = conn.execute(f"SELECT 1 FROM sessions s WHERE s.id = ? AND {_VISIBLE}",
                               (session_id, owner, owner)).fetchone()
        return row is not None

    def owned_by(self, session_id: int, owner: str | None) -> bool:
        """True when ``owner`` may delete ``session_id``: its own session (None, this machine, owns all)."""
        if owner is None:
            return True
        with self._read() as conn:
            row = conn.execute("SELECT 1 FROM sessions WHERE id = ? AND owner = ?", (session_id, owner)).fetchone()
        return row is not None
