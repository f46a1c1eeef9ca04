"""Running series: the score of the games a rematch chain of the same seats has played.

A rematch stores the id of its series' first session (``sessions.series``)
and every finished game the seats that won it (``sessions.winners``), so the
score is one query over the series' finished sessions, never a replay. Seats
are matched by name and kind, whatever their order; a row that does not fit
(another game, other seats, unreadable winners) is left out of the count,
never trusted and never an error.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass

from engine.core.text import is_safe_text
from engine.core.words import plural
from saves.errors import StoreError
from saves.integrity import lenient_text
from saves.records import MAX_NAME_LENGTH
from saves.store import SessionStore

MAX_SERIES_GAMES = 10_000
"""The most sessions one series query reads (a hostile file could link millions)."""


@dataclass(frozen=True)
class SeriesScore:
    """The score of a series up to one of its sessions.

    Attributes:
        names: The seats' names, in the seat order of the session asked about.
        wins: Games each of them won, in the same order.
        draws: Games nobody won.
        games: Finished games counted (wins of shared victories count for each winner).
    """

    names: tuple[str, ...]
    wins: tuple[int, ...]
    draws: int
    games: int

    @property
    def text(self) -> str:
        """"Ana 2 – 1 Bo", "Ana 2 – 1 Bo, 1 draw", or "Ana 2 · Bo 1 · Cy 0" for more seats."""
        if len(self.names) == 2:
            head = f"{self.names[0]} {self.wins[0]} – {self.wins[1]} {self.names[1]}"
        else:
            head = " · ".join(f"{name} {wins}" for name, wins in zip(self.names, self.wins, strict=True))
        return f"{head}, {plural(self.draws, 'draw')}" if self.draws else head


def series_of(store: SessionStore, session_id: int) -> int:
    """The id of the series ``session_id`` belongs to: its first session's id (its own when no rematch led to it)."""
    try:
        with store._read() as conn:
            row = conn.execute("SELECT series FROM sessions WHERE id = ?", (session_id,)).fetchone()
    except (StoreError, sqlite3.Error):
        return session_id
    if row is None or type(row[0]) is not int or not 0 < row[0] <= session_id:
        return session_id
    return int(row[0])


def series_score(store: SessionStore, session_id: int) -> SeriesScore | None:
    """The series score up to and including ``session_id``, or None when there is none to tell.

    None: no such session, its seats repeat a name, or the database cannot be
    read. A series of one game is a score too (``games`` says how many).
    """
    try:
        with store._read() as conn, lenient_text(conn):
            return _score(conn, session_id)
    except (StoreError, sqlite3.Error, ValueError):
        return None


def _seat_key(name: object, kind: object) -> tuple[str, str] | None:
    if not isinstance(name, str) or not isinstance(kind, str) or not name.strip():
        return None
    if len(name) > MAX_NAME_LENGTH or not is_safe_text(name) or kind not in ("human", "bot"):
        return None
    return name, kind


def _seats(conn: sqlite3.Connection, session_id: int) -> list[tuple[str, str]] | None:
    rows = conn.execute(
        "SELECT seat, name, kind FROM seats NOT INDEXED WHERE session_id = ? ORDER BY seat", (session_id,)
    ).fetchall()
    keys = [_seat_key(name, kind) for _, name, kind in rows]
    if not keys or [seat for seat, _, _ in rows] != list(range(len(rows))):
        return None
    if any(key is None for key in keys) or len(set(keys)) != len(keys):
        return None
    return [key for key in keys if key is not None]


def _winners(text: object, seats: int) -> list[int] | None:
    if not isinstance(text, str) or len(text) > 200:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list) or len(value) > seats:
        return None
    if any(type(seat) is not int or not 0 <= seat < seats for seat in value) or len(set(value)) != len(value):
        return None
    return value


def _score(conn: sqlite3.Connection, session_id: int) -> SeriesScore | None:
    row = conn.execute("SELECT game_id, series FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        return None
    game_id, series = row
    root = series if type(series) is int and 0 < series <= session_id else session_id
    reference = _seats(conn, session_id)
    if reference is None:
        return None
    wanted = Counter(reference)
    wins = [0] * len(reference)
    draws = games = 0
    found = conn.execute(
        "SELECT id, game_id, status, winners FROM sessions NOT INDEXED"
        " WHERE (id = ? OR series = ?) AND id <= ? ORDER BY id LIMIT ?",
        (root, root, session_id, MAX_SERIES_GAMES),
    ).fetchall()
    for other, other_game, status, winners_text in found:
        if type(other) is not int or other_game != game_id or status != "finished":
            continue
        seats = _seats(conn, other)
        if seats is None or Counter(seats) != wanted:
            continue
        winners = _winners(winners_text, len(seats))
        if winners is None:
            continue
        games += 1
        if not winners:
            draws += 1
        for seat in winners:
            wins[reference.index(seats[seat])] += 1
    return SeriesScore(tuple(name for name, _ in reference), tuple(wins), draws, games)


__all__ = ["MAX_SERIES_GAMES", "SeriesScore", "series_of", "series_score"]
