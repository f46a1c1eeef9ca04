"""A shared table's game ended: rate it (once, whichever process is first) and tell the player where they stand."""

from __future__ import annotations

from saves import SessionStore, StoreError
from saves.ratings import rate_finished, ratings, was_rated


def rate_and_tell(store: SessionStore, session_id: int, game_id: str, game_title: str,
                  player: str | None) -> str | None:
    """Rate the finished game ``session_id`` if it is a rated game; the line to show its seated ``player``, or None.

    Every process at the table calls this when it sees the end; only the first one changes the ratings
    (:func:`saves.ratings.rate_finished`), and each seated signed-in player reads their own new rating.
    ``player``: the signed-in account of a seated player at this process (None: a spectator, a visit, a
    local player), who is told their rating.
    """
    try:
        rate_finished(store, session_id)
        if player is None or not was_rated(store, session_id):
            return None
        mine = ratings(store, game_id, account=player).ratings
    except StoreError as error:
        return f"This game's ratings could not be saved: {error}"
    if not mine:
        return None
    games = f"{mine[0].games} rated game{'s' if mine[0].games != 1 else ''}"
    return f"Rated game: your {game_title} rating is now {mine[0].ordinal:.1f} ({games})."
