"""Seat tokens: making them, reading what a player typed, and what a token gives back.

A token is the only thing that returns a dropped seat (or the host role) to
whoever holds it, so it must not be guessable: 16 characters from a
31-character alphabet (about 79 bits), shown in four groups of four. Tables
created by an older Coven keep their 8-character tokens (about 40 bits), which
still work; only the stored hash is compared, in constant time. How many wrong
tokens one connection may try is :class:`saves.tables.TableStore`'s business.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Callable

from saves.table_clock import take_back
from saves.table_records import (
    JOIN_CODE_ALPHABET,
    BadTokenError,
    StillConnectedError,
    TableInfo,
    parse_time,
)
from saves.table_rows import seat_label

TOKEN_ALPHABET = JOIN_CODE_ALPHABET + "23456789"
"""Seat-token characters: no I, L, O, 0 or 1, which read as one another."""

TOKEN_GROUP = 4
"""Characters per dash-separated group."""

TOKEN_LENGTH = 16
"""Characters in a new token: 31**16 is about 2**79."""

OLD_TOKEN_LENGTH = 8
"""Characters in tokens an older Coven handed out; tables it made may still hold their hashes."""

MAX_RECLAIM_TRIES = 5
"""Wrong tokens one connection (one Coven process) may try before its reclaims are refused."""

TOKEN_EXAMPLE = "XXXX-XXXX-XXXX-XXXX"

def _bare(text: str) -> str:
    # Dashes and spaces between groups are the player's; the stored hash never included them.
    return "".join(char for char in text.upper() if char != "-" and not char.isspace())


def _grouped(chars: str) -> str:
    return "-".join(chars[start:start + TOKEN_GROUP] for start in range(0, len(chars), TOKEN_GROUP))


def new_token() -> str:
    """A fresh random seat token such as ``"KX7P-M3QD-9RTW-H4NB"`` (about 79 bits)."""
    return _grouped("".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH)))


def normalise_token(text: str) -> str | None:
    """The token in ``text`` in its shown form (upper case, grouped), or None if it cannot be one.

    Letter case, surrounding spaces and the dashes or spaces between groups do
    not matter. Old 8-character tokens are accepted too.
    """
    if not isinstance(text, str) or len(text) > 4 * TOKEN_LENGTH:
        return None
    chars = _bare(text)
    if len(chars) not in (TOKEN_LENGTH, OLD_TOKEN_LENGTH) or any(char not in TOKEN_ALPHABET for char in chars):
        return None
    return _grouped(chars)


def check_token(text: str) -> str:
    """:func:`normalise_token`, or a one-line reason.

    Raises:
        BadTokenError: ``text`` is not shaped like a token (such a typo is not counted as a wrong guess).
    """
    token = normalise_token(text)
    if token is None:
        raise BadTokenError(
            f"A seat token looks like {TOKEN_EXAMPLE}: {TOKEN_LENGTH} letters and digits, no I, L, O, 0 or 1."
        )
    return token


def hash_token(token: str) -> str:
    """The stored form of a token; letter case, spaces and dashes do not matter.

    The same as an older Coven stored, so the tokens of its tables still match.
    """
    return hashlib.sha256(_bare(token).encode("utf-8")).hexdigest()


def token_matches(token_hash: str, stored: str | None) -> bool:
    """Compare two token hashes in constant time (None never matches)."""
    return stored is not None and hmac.compare_digest(token_hash, stored)


def reclaim_in(
    conn: sqlite3.Connection, info: TableInfo, wanted: str, claim: str, alive: Callable[[str], bool], now: str,
    account: str | None = None,
) -> list[int] | None:
    """Give ``claim`` what the token hash ``wanted`` stands for at ``info``, inside a write transaction.

    The seats taken back are ``account``'s from now on (the signed-in account coming back, or None): a rated
    game counts for whoever plays the seat, and a seat taken back by an unsigned player is not rated.

    Returns:
        The seats now held (for the host's token, the local seats, with any the clock handed to a bot when
        their time ran out: the host's token takes those back as a seat's token takes back its own), or None
        when the token matches nothing at this table.

    Raises:
        BadTokenError: the token's seat went to a bot.
        StillConnectedError: the seat's (or host's) holder is still connected.
    """
    host_hash = conn.execute("SELECT host_token_hash FROM tables WHERE id = ?", (info.table_id,)).fetchone()[0]
    hashes = dict(conn.execute("SELECT seat, token_hash FROM table_seats WHERE table_id = ?", (info.table_id,)))
    # Compare with every stored hash, so timing says nothing about which matched.
    is_host = token_matches(wanted, host_hash)
    matched = [seat for seat, stored in sorted(hashes.items()) if token_matches(wanted, stored)]
    if is_host:
        if info.host_claim not in (None, claim) and alive(info.host_claim or ""):
            raise StillConnectedError(f"The host of table {info.code} is still connected.")
        conn.execute("UPDATE tables SET host_claim = ?, updated = ? WHERE id = ?", (claim, now, info.table_id))
        timed_out = [] if info.clock is None else sorted(
            seat for seat, gone in info.clock.out.items() if gone.role == "local" and info.seats[seat].role == "bot")
        for seat in timed_out:  # the host's own seats, taken by the clock: theirs again, with a fresh minute
            take_back(conn, info, seat, claim, parse_time(now).timestamp(), now, by_token=True, account=account)
        conn.execute(
            "UPDATE table_seats SET claim = ?, dropped_at = NULL, chose_to_leave = 0, account = ?"
            " WHERE table_id = ? AND role = 'local'",
            (claim, account, info.table_id),
        )
        return sorted({seat.seat for seat in info.seats if seat.role == "local"} | set(timed_out))
    if not matched:
        return None
    target = info.seats[matched[0]]
    label = f"{seat_label(target.seat)} ({target.name})"
    if target.role == "bot" and info.clock is not None and target.seat in info.clock.out:
        # The clock handed the seat to a bot: its token takes it back on the player's next visit.
        take_back(conn, info, target.seat, claim, parse_time(now).timestamp(), now, by_token=True, account=account)
        return [target.seat]
    if target.role != "remote":
        raise BadTokenError(f"{label} at table {info.code} was handed to a bot.")
    if target.claim not in (None, claim) and alive(target.claim or ""):
        raise StillConnectedError(f"{label} is still connected.")
    conn.execute(
        "UPDATE table_seats SET claim = ?, dropped_at = NULL, chose_to_leave = 0, account = ?"
        " WHERE table_id = ? AND seat = ?",
        (claim, account, info.table_id, target.seat),
    )
    conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (now, info.table_id))
    return [target.seat]
