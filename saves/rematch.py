"""Rematch: the same game, options and seats again, with a new seed and the next seat starting.

The rule is the same for every game: seats keep their places (so a Wizbits
seat keeps its deck, which the options tie to the seat), a new seed is drawn,
and the seat after the one that started the last game starts this one. The
game says who starts through :meth:`engine.GameRules.first_seat`; Wizbits
draws it from the seed, so the rematch tries seeds one after another from a
random one until that seat starts. Games where every seat starts together
(Wizards Cup's team picks, WitchDraft's picks) have no first seat, and the
random seed is taken as it comes. Everything else (Wizards Cup teams,
WitchDraft hands) is dealt afresh by the new seed, as for any new game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import GameSpec
from saves.records import SeatInfo
from saves.series import series_of
from saves.session import LiveSession, status_of, winners_of

MAX_SEED = 2**31
"""Seeds are drawn below this, as the new-game form draws them."""

SEED_TRIES = 256
"""How many seeds are tried for the next first seat (each misses with chance 1 - 1/seats)."""


@dataclass(frozen=True)
class RematchPlan:
    """What a rematch of one session starts.

    Attributes:
        game_id: The same game.
        options: The same resolved options.
        seed: The new seed.
        seats: The same seats, in the same order.
        first: The seat that starts (None: the game has no first seat).
        series: The id of the series' first session.
    """

    game_id: str
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatInfo, ...]
    first: int | None
    series: int


def next_first(spec: GameSpec, opening: Any, seats: int) -> int | None:
    """The seat that starts a rematch of the game whose opening state is ``opening`` (None: no first seat)."""
    first = spec.rules.first_seat(opening)
    return None if first is None else (first + 1) % seats


def rematch_seed(spec: GameSpec, options: dict[str, Any], names: Sequence[str], want: int | None,
                 rng: random.Random, rules_version: int | None = None) -> tuple[int, int | None]:
    """A new seed under which seat ``want`` starts (any new seed when ``want`` is None), and who starts under it.

    Seeds are tried upward from a random one; after :data:`SEED_TRIES` misses
    (with two seats, a chance of 2**-256) the last one is kept.
    """
    start = rng.randrange(MAX_SEED)
    seed, first = start, None
    for step in range(SEED_TRIES if want is not None else 1):
        seed = (start + step) % MAX_SEED
        if want is None:
            break
        first = spec.rules.first_seat(spec.new_state(options, seed, len(names), list(names), rules_version))
        if first == want:
            break
    return seed, first


def plan_rematch(live: LiveSession, rng: random.Random | None = None) -> RematchPlan:
    """The rematch of ``live``'s game (see the module's rule); nothing is stored."""
    rng = rng or random.SystemRandom()
    seats = live.seats
    want = next_first(live.spec, live.history()[0].state, len(seats))
    seed, first = rematch_seed(live.spec, live.options, [seat.name for seat in seats], want, rng)
    return RematchPlan(live.spec.game_id, dict(live.options), seed, seats, first,
                       series_of(live.store, live.session_id))


def start_rematch(live: LiveSession, owner: str | None = None, rng: random.Random | None = None) -> LiveSession:
    """Store and return the rematch of ``live``'s finished game, in the same series.

    The finished game's winners are written first if it finished before Coven
    kept them, so the series counts it.

    Raises:
        ValueError: the game is not over.
        StoreError: it could not be stored.
    """
    result = live.result
    if result is None:
        raise ValueError("A game can be played again only once it is over.")
    live.store.update_status(live.session_id, "finished", live.progress,
                             status_of(live.rules, live.state, live.seats)[2], winners_of(live.rules, live.state))
    plan = plan_rematch(live, rng)
    return LiveSession.create(live.store, plan.game_id, plan.options, plan.seed, plan.seats, owner=owner,
                              series=plan.series)


__all__ = ["MAX_SEED", "SEED_TRIES", "RematchPlan", "next_first", "plan_rematch", "rematch_seed", "start_rematch"]
