"""Ratings for people: which finished table games are rated, applying each once, and reading the lists.

A game is rated when its table was marked rated by the host and every seat was taken by a different signed-in
account (a password or key account under ``coven serve``; never a visit, a local unsigned player or a bot).
A seat that began as a bot makes the game unrated. A player who left and did not come back loses: a seat
whose player left by choice before the game's last move and was not back at the end, or one handed to a
bot after its player dropped, ranks last (see :func:`saves.rating_rule.game_ranks`); the others rank by
the game's result. Leaving after the last move (going home) is no forfeit.

Every process at a table sees the end and calls :func:`rate_finished`; the ``rated_games`` row written in
the same transaction as the new ratings makes only the first call change anything. Rows come from a
database other processes (or damage) wrote, so each rating row is checked, and one that cannot be read is
counted and left out, never shown.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from engine import get_game
from engine.core import UnknownGameError
from engine.core.text import UnsafeTextError, check_name
from saves import rating_rule
from saves.integrity import lenient_text
from saves.rating_rule import Skill
from saves.store import SessionStore

MAX_ACCOUNT_LENGTH = 64
"""The longest account name a rating row may hold to be shown."""


@dataclass(frozen=True)
class Rating:
    """One account's rating at one game.

    Attributes:
        account: The signed-in account (plain text: never read as markup).
        game_id: The game it is for.
        skill: Its mean and uncertainty.
        games: How many rated games it counts.
        updated: When it last changed, UTC ISO-8601.
    """

    account: str
    game_id: str
    skill: Skill
    games: int
    updated: str

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` players are listed by."""
        return self.skill.ordinal


@dataclass(frozen=True)
class RatingList:
    """Ratings read for a list, best first, and how many stored rows could not be read.

    Attributes:
        ratings: Readable ratings, by conservative estimate (best first).
        damaged: Rows left out because they were damaged.
    """

    ratings: list[Rating]
    damaged: int = 0


@dataclass(frozen=True)
class RatedGame:
    """What rating one finished game changed.

    Attributes:
        session_id: The rated session.
        game_id: Its game.
        before: Each player's rating before, by account, in seat order.
        after: Each player's rating after, by account, in seat order.
        ranks: Each player's rank (1 best), by account.
    """

    session_id: int
    game_id: str
    before: dict[str, Skill]
    after: dict[str, Skill]
    ranks: dict[str, int]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _plan(conn: sqlite3.Connection, session_id: int) -> tuple[str, list[str], list[int]] | None:
    """The game, its players' accounts in seat order and their ranks, when the session is a rated game."""
    row = conn.execute(
        "SELECT t.id, t.game_id, t.rated, s.status, s.winners, s.updated FROM tables t JOIN sessions s ON s.id = t.session_id"
        " WHERE t.session_id = ?",
        (session_id,),
    ).fetchone()
    if row is None:
        return None
    table_id, game_id, rated, status, winners_text, ended_text = row
    ended = _time(ended_text)
    if rated != 1 or status != "finished" or not isinstance(winners_text, str) or ended is None:
        return None
    try:
        winners = json.loads(winners_text)
    except ValueError:
        return None
    if not isinstance(winners, list) or any(type(seat) is not int for seat in winners):
        return None
    seats = conn.execute(
        "SELECT seat, role, account, claim, chose_to_leave, dropped_at FROM table_seats WHERE table_id = ?"
        " ORDER BY seat",
        (table_id,),
    ).fetchall()
    accounts: list[str] = []
    lost: set[int] = set()
    for index, (seat, role, account, claim, chose_to_leave, dropped_text) in enumerate(seats):
        if seat != index or not isinstance(account, str) or not account:
            return None  # a planned bot, a visit, a local unsigned player, or a damaged row: not rated
        if role == "bot":
            lost.add(index)  # its signed-in player dropped and the host handed the seat to a bot
        elif claim is None and chose_to_leave == 1:
            # Left by choice and not back: lost, unless the leaving came after the last move (going home).
            left = _time(dropped_text)
            if left is None:
                return None
            if left < ended:
                lost.add(index)
        accounts.append(account)
    if len(accounts) < 2 or len(set(accounts)) != len(accounts):
        return None  # one account in two seats is not a game between people
    return str(game_id), accounts, rating_rule.game_ranks(len(accounts), set(winners), lost)


def _time(text: object) -> datetime | None:
    """A stored UTC ISO-8601 time, or None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo is not None else None


def _skill(conn: sqlite3.Connection, account: str, game_id: str) -> tuple[Skill, int]:
    row = conn.execute("SELECT mu, sigma, games FROM ratings WHERE account = ? AND game_id = ?",
                       (account, game_id)).fetchone()  # fmt: skip
    if row is None:
        return Skill(), 0
    # A damaged rating starts afresh rather than poisoning the others'.
    return _numbers(*row) or (Skill(), 0)


def _numbers(mu: object, sigma: object, games: object) -> tuple[Skill, int] | None:
    """A stored rating's numbers, or None when they are not finite numbers with a positive sigma."""
    if not isinstance(mu, int | float) or not isinstance(sigma, int | float) or type(games) is not int:
        return None
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0 and games >= 0):
        return None
    return Skill(float(mu), float(sigma)), games


def rate_finished(store: SessionStore, session_id: int) -> RatedGame | None:
    """Rate the finished game ``session_id`` if it is a rated game not rated yet; safe to call from every process.

    Returns:
        What changed, or None: not a rated game, not finished, or already rated (by this or another process).
    """
    rating_rule.load()  # before the lock: the transaction stays short
    with store._write() as conn:
        if conn.execute("SELECT 1 FROM rated_games WHERE session_id = ?", (session_id,)).fetchone() is not None:
            return None
        plan = _plan(conn, session_id)
        if plan is None:
            return None
        game_id, accounts, ranks = plan
        known = [_skill(conn, account, game_id) for account in accounts]
        after = rating_rule.rate([[skill] for skill, _ in known], ranks)
        now = _now()
        conn.executemany(
            "INSERT INTO ratings (account, game_id, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (account, game_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, updated = excluded.updated",
            [(account, game_id, new.mu, new.sigma, games + 1, now)
             for account, (_, games), (new,) in zip(accounts, known, after, strict=True)],
        )  # fmt: skip
        conn.execute("INSERT INTO rated_games (session_id, rated, players) VALUES (?, ?, ?)",
                     (session_id, now, len(accounts)))  # fmt: skip
    return RatedGame(
        session_id=session_id,
        game_id=game_id,
        before={account: skill for account, (skill, _) in zip(accounts, known, strict=True)},
        after={account: new for account, (new,) in zip(accounts, after, strict=True)},
        ranks=dict(zip(accounts, ranks, strict=True)),
    )


def _read(row: tuple[object, ...]) -> Rating | None:
    account, game_id, mu, sigma, games, updated = row
    numbers = _numbers(mu, sigma, games)
    if not isinstance(game_id, str) or not isinstance(updated, str) or numbers is None:
        return None
    try:
        get_game(game_id)
        shown = check_name(account, "An account", max_length=MAX_ACCOUNT_LENGTH)
    except (UnknownGameError, UnsafeTextError):
        return None
    if shown != account:
        return None
    return Rating(shown, game_id, numbers[0], numbers[1], updated)


def ratings(store: SessionStore, game_id: str | None = None, *, account: str | None = None) -> RatingList:
    """Stored ratings, best conservative estimate first: of one game, or one account's, or all.

    Damaged rows (unreadable numbers or text, an unknown game, an account unsafe to show) are counted and
    left out.
    """
    where: list[str] = []
    params: list[str] = []
    if game_id is not None:
        where.append("game_id = ?")
        params.append(game_id)
    if account is not None:
        where.append("account = ?")
        params.append(account)
    condition = f" WHERE {' AND '.join(where)}" if where else ""
    with store._read() as conn, lenient_text(conn):
        rows = conn.execute(f"SELECT account, game_id, mu, sigma, games, updated FROM ratings{condition}",
                            params).fetchall()  # fmt: skip
    read = [_read(tuple(row)) for row in rows]
    kept = [rating for rating in read if rating is not None]
    kept.sort(key=lambda rating: (-rating.ordinal, -rating.games, rating.account, rating.game_id))
    return RatingList(kept, damaged=len(read) - len(kept))


def was_rated(store: SessionStore, session_id: int) -> bool:
    """Whether the finished game ``session_id`` has moved its players' ratings (by any process)."""
    with store._read() as conn:
        return conn.execute("SELECT 1 FROM rated_games WHERE session_id = ?", (session_id,)).fetchone() is not None
