"""A round as a matrix game: every lineup of one team against every lineup of the other.

A lineup is five of the six team wizards in order; the sixth waits. Given
both lineups the round plays itself, so a pair of teams defines a 720x720
table of round results. Building it one round at a time would call
:func:`engine.wizards_cup.duel.resolve_duel` millions of times, so this module
splits a duel side into a small *context* (the wizard, and only those facts
its powers can read: freshness, the Waiting Card's element, the top of the
discard pile, the pile's size), resolves each pair of contexts once with the
engine's own :func:`resolve_duel`, and then plays all 518,400 rounds at once
as numpy table look-ups.

numpy is imported here, so this module is imported only when a Hard bot or
the solver first runs, never when the game is registered.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import threading
import zlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from engine.core.game_caches import forget_with_games
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE, TEAM_SIZE, WIZARDS, Check, Wizard
from engine.wizards_cup.duel import Side, powers_in_force, resolve_duel

IntArray = NDArray[np.int32]
ResultArray = NDArray[np.int8]

ORDERS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(TEAM_SIZE), LINEUP_SIZE))
"""The 720 lineups as positions in a team: five duelling in order; the missing one waits."""

WAITING: tuple[int, ...] = tuple(next(i for i in range(TEAM_SIZE) if i not in order) for order in ORDERS)


def _duel_cap() -> int:
    """The smallest duel number from which no power can tell later duels apart."""
    cap = 1
    for wizard in WIZARDS:
        for condition in (wizard.power.conditions if wizard.power else ()):
            if condition.check is Check.DUEL_AT_MOST:
                cap = max(cap, condition.number + 1)
            elif condition.check is Check.DUEL_AT_LEAST:
                cap = max(cap, condition.number)
    return cap


def _pile_cap() -> int:
    """The smallest discard-pile size from which no power can tell bigger piles apart."""
    numbers = [c.number for w in WIZARDS if w.power for c in w.power.conditions if c.check is Check.DISCARDS_AT_LEAST]
    return max(numbers, default=0)


DUEL_CAP = _duel_cap()
PILE_CAP = _pile_cap()

# A round in progress, for one pair of lineups: how many wizards each side has lost (0-5, 5 = out of
# wizards), whether each side's duelling wizard is fresh, and the duel number capped at DUEL_CAP.
_SIDE_STATES = (LINEUP_SIZE + 1) * 2
_STATES = _SIDE_STATES * _SIDE_STATES * DUEL_CAP


def _state(lost: tuple[int, int], fresh: tuple[int, int], duel: int) -> int:
    return ((lost[0] * 2 + fresh[0]) * _SIDE_STATES + lost[1] * 2 + fresh[1]) * DUEL_CAP + min(duel, DUEL_CAP) - 1


def _unpack(state: int) -> tuple[int, int, int, int, int]:
    rest, duel = divmod(state, DUEL_CAP)
    side_a, side_b = divmod(rest, _SIDE_STATES)
    return side_a // 2, side_a % 2, side_b // 2, side_b % 2, duel + 1


START = _state((0, 0), (1, 1), 1)
MAX_DUELS = 2 * LINEUP_SIZE - 1
"""Every duel discards at least one wizard, and the round ends when a side has lost all five."""

A_WINS, B_WINS, BOTH_OUT = 0, 1, 2


def _transitions() -> tuple[IntArray, ResultArray]:
    """For each state and duel outcome, the next state; and each final state's round result."""
    following = np.zeros(_STATES * 3, dtype=np.int32)
    results = np.zeros(_STATES, dtype=np.int8)
    for state in range(_STATES):
        lost_a, fresh_a, lost_b, fresh_b, duel = _unpack(state)
        over = lost_a == LINEUP_SIZE or lost_b == LINEUP_SIZE
        results[state] = 0 if not over or lost_a == lost_b else (1 if lost_b == LINEUP_SIZE else -1)
        for outcome in (A_WINS, B_WINS, BOTH_OUT):
            if over:
                following[state * 3 + outcome] = state
                continue
            out_a, out_b = outcome != A_WINS, outcome != B_WINS
            following[state * 3 + outcome] = _state(
                (lost_a + out_a, lost_b + out_b), (int(out_a), int(out_b)), duel + 1)
    return following, results


NEXT, RESULT = _transitions()
_OVER = NEXT[0::3] == np.arange(_STATES)
"""States where the round is over (they lead back to themselves)."""


class _Contexts:
    """Duel contexts numbered as they are first met, and the duels between them, resolved once.

    One instance serves the whole process, and the coach and a Hard bot may think in two threads
    at once: a lock keeps a context's numbering and the growing duel table whole.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: dict[tuple[object, ...], int] = {}
        self.spots: dict[tuple[str, bool, str, str | None, int], int] = {}
        self.sides: list[Side] = []
        self.duels = np.full((64, 64, DUEL_CAP), -1, dtype=np.int8)

    def context(self, wizard: str, fresh: bool, waiting: str, top: str | None, pile: int) -> int:
        """The id of the context of a side, given what its powers could read."""
        spot = (wizard, fresh, waiting, top, pile)
        with self.lock:
            found = self.spots.get(spot)
            if found is None:
                found = self.spots[spot] = self._context(*spot)
            return found

    def _context(self, wizard: str, fresh: bool, waiting: str, top: str | None, pile: int) -> int:
        side = Side(CARDS[wizard], fresh, CARDS[waiting], [CARDS[top]] * pile if top else [])
        readings: list[object] = []
        in_force = powers_in_force(side)
        for _, power in in_force:
            for condition in power.conditions:
                if condition.check is Check.WAITING_ELEMENT:
                    readings.append(CARDS[waiting].element)
                elif condition.check is Check.DISCARDS_AT_LEAST:
                    readings.append(pile >= condition.number)
        key = (wizard, tuple(source.card_id for source, _ in in_force), tuple(readings))
        if key not in self.ids:
            self.ids[key] = len(self.sides)
            self.sides.append(side)
            if len(self.sides) > self.duels.shape[0]:
                grown = np.full((2 * len(self.sides),) * 2 + (DUEL_CAP,), -1, dtype=np.int8)
                grown[: self.duels.shape[0], : self.duels.shape[1]] = self.duels
                self.duels = grown
        return self.ids[key]

    def digest(self) -> str:
        """A fingerprint of the contexts as numbered: the wizard, its powers in force and what they read."""
        with self.lock:
            keys = sorted(self.ids.items(), key=lambda item: item[1])
        return hashlib.sha256(repr([key for key, _ in keys]).encode()).hexdigest()

    def take_resolved(self, digest: str, duel_cap: int, results: bytes) -> bool:
        """Fill the duel table from duels resolved ahead; False (nothing taken) unless they fit these contexts.

        Args:
            digest: :meth:`digest` of the contexts the results were resolved for.
            duel_cap: The :data:`DUEL_CAP` they were resolved with.
            results: Every duel, contexts by contexts by capped duel number, as int8 bytes.
        """
        known = len(self.sides)
        if duel_cap != DUEL_CAP or len(results) != known * known * DUEL_CAP or digest != self.digest():
            return False
        block = np.frombuffer(results, dtype=np.int8).reshape(known, known, DUEL_CAP)
        if not np.isin(block, (A_WINS, B_WINS, BOTH_OUT)).all():
            return False
        with self.lock:
            self.duels[:known, :known] = block
        return True

    def resolve_all(self) -> ResultArray:
        """Resolve every duel between two known contexts; the whole table."""
        every = np.arange(len(self.sides), dtype=np.int32)
        return self.table(every, every)

    def table(self, first: IntArray, second: IntArray) -> ResultArray:
        """Outcomes of every context in ``first`` against every one in ``second``, at each capped duel number."""
        with self.lock:
            block = self.duels[np.ix_(first, second)]
            for i, j, duel in zip(*np.nonzero(block < 0), strict=True):
                winner = resolve_duel((self.sides[first[i]], self.sides[second[j]]), int(duel) + 1).winner
                block[i, j, duel] = BOTH_OUT if winner is None else winner
                self.duels[first[i], second[j], duel] = block[i, j, duel]
            return block


_CONTEXTS = _Contexts()


_INDEX = {wizard.card_id: index for index, wizard in enumerate(WIZARDS)}
_NO_TOP = len(WIZARDS)


@lru_cache(maxsize=1)
def _all_spots() -> IntArray:
    """Global context ids of every spot a wizard can duel from: [wizard, fresh, waiting, top of pile, pile size].

    Built once (about 20,000 small look-ups), so a team's contexts are then a numpy gather. The duels
    between them come resolved ahead (:mod:`engine.wizards_cup.duel_results`) when they were resolved
    for these very contexts; otherwise each is resolved as a game first meets it.
    """
    grid = number_spots(_CONTEXTS)
    from engine.wizards_cup import duel_results

    _CONTEXTS.take_resolved(duel_results.CONTEXTS_DIGEST, duel_results.DUEL_CAP,
                            zlib.decompress(base64.b64decode("".join(duel_results.RESULTS))))
    return grid


def number_spots(contexts: _Contexts) -> IntArray:
    """Number every spot's context in ``contexts``, always in the same order; the grid of their ids."""
    grid = np.zeros((len(WIZARDS), 2, len(WIZARDS), _NO_TOP + 1, PILE_CAP + 1), dtype=np.int32)
    ids = [wizard.card_id for wizard in WIZARDS]
    for at, fresh, waits, top, pile in itertools.product(
            range(len(WIZARDS)), (0, 1), range(len(WIZARDS)), range(_NO_TOP + 1), range(PILE_CAP + 1)):
        if (top == _NO_TOP) != (pile == 0) or len({at, waits, top}) < 3:
            continue  # impossible spots keep context 0; no lineup reads them
        grid[at, fresh, waits, top, pile] = contexts.context(
            ids[at], bool(fresh), ids[waits], ids[top] if top < _NO_TOP else None, pile)
    return grid


@lru_cache(maxsize=256)
def _team_contexts(team: tuple[str, ...]) -> tuple[IntArray, IntArray]:
    """Per lineup and side state (lost*2 + fresh), the local context number; and local -> global ids."""
    members = np.array([_INDEX[card] for card in team], dtype=np.int32)
    orders = members[np.array(ORDERS, dtype=np.int32)]
    waiting = members[np.array(WAITING, dtype=np.int32)]
    spots = _all_spots()
    per_lineup = np.zeros((len(ORDERS), _SIDE_STATES), dtype=np.int32)
    for lost in range(LINEUP_SIZE):
        tops = orders[:, lost - 1] if lost else np.full(len(ORDERS), _NO_TOP, dtype=np.int32)
        for fresh in (0, 1):
            per_lineup[:, lost * 2 + fresh] = spots[orders[:, lost], fresh, waiting, tops, min(lost, PILE_CAP)]
    # The lost == 5 columns stay 0: such a side is out, and the round's state says so before any look-up.
    used, local = np.unique(per_lineup, return_inverse=True)
    return local.reshape(per_lineup.shape).astype(np.int32), used.astype(np.int32)


forget_with_games(_team_contexts.cache_clear)  # 256 teams hold 9 MB: a finished game's teams are not kept


def prepare() -> None:
    """Build the process-wide duel tables whole: every context and every duel between two of them.

    A game otherwise builds them as its bots first meet each context, in each process that plays.
    ``coven serve``'s warm parent calls this before it forks its players, so that every seat shares
    these tables (a few MB of small objects) instead of building its own copy in its first game.
    The tables hold the same entries either way, so no decision changes.
    """
    _all_spots()
    _CONTEXTS.resolve_all()  # nothing left to resolve when the shipped duels fit


def resolved_afresh() -> tuple[str, bytes]:
    """Every duel resolved now, in contexts of its own: their digest and the table's bytes.

    What :mod:`engine.wizards_cup.duel_results` ships; its test compares the two.
    """
    contexts = _Contexts()
    number_spots(contexts)
    return contexts.digest(), contexts.resolve_all().tobytes()


_STATE_SIDE_A = np.array([_unpack(s)[0] * 2 + _unpack(s)[1] for s in range(_STATES)], dtype=np.int32)
_STATE_SIDE_B = np.array([_unpack(s)[2] * 2 + _unpack(s)[3] for s in range(_STATES)], dtype=np.int32)
_STATE_DUEL = np.array([min(_unpack(s)[4], DUEL_CAP) - 1 for s in range(_STATES)], dtype=np.int32)


def round_results(first: Sequence[str], second: Sequence[str],
                  rows: IntArray | None = None, columns: IntArray | None = None) -> ResultArray:
    """The result of every round between lineups of two teams: +1 first wins, -1 second, 0 both.

    Args:
        first: The first team, six card ids; lineup ``i`` is :data:`ORDERS` ``[i]`` of it.
        second: The second team.
        rows: Lineup numbers of the first team to play (default all 720).
        columns: Lineup numbers of the second team to play (default all 720).

    Returns:
        An int8 array of shape (len(rows), len(columns)).
    """
    lineups_a, global_a = _team_contexts(tuple(first))
    lineups_b, global_b = _team_contexts(tuple(second))
    duels = _CONTEXTS.table(global_a, global_b).astype(np.int32).ravel()
    if rows is not None:
        lineups_a = lineups_a[rows]
    if columns is not None:
        lineups_b = lineups_b[columns]
    # Per lineup and round state, the flat index of its half of the duel key.
    half_a = (lineups_a[:, _STATE_SIDE_A] * (len(global_b) * DUEL_CAP) + _STATE_DUEL).ravel()
    half_b = (lineups_b[:, _STATE_SIDE_B] * DUEL_CAP).ravel()
    count_a, count_b = len(lineups_a), len(lineups_b)
    base_a = np.repeat(np.arange(count_a, dtype=np.int32) * _STATES, count_b)
    base_b = np.tile(np.arange(count_b, dtype=np.int32) * _STATES, count_a)
    state = np.full(count_a * count_b, START, dtype=np.int32)
    final = np.empty_like(state)
    where = np.arange(len(state))
    for duel in range(1, MAX_DUELS + 1):
        key = half_a.take(base_a + state)
        key += half_b.take(base_b + state)
        state *= 3
        state += duels.take(key)
        state = NEXT.take(state)
        if duel >= LINEUP_SIZE:  # from here rounds end: set the finished aside, play on with the rest
            final[where] = state
            live = np.flatnonzero(~_OVER.take(state))
            where, state, base_a, base_b = where[live], state[live], base_a[live], base_b[live]
    return RESULT.take(final).reshape(count_a, count_b)


def lineup(team: Sequence[str], number: int) -> tuple[tuple[str, ...], str]:
    """Lineup ``number`` of ``team``: the five in duel order, and the Waiting Card."""
    return tuple(team[i] for i in ORDERS[number]), team[WAITING[number]]


def lineup_number(team: Sequence[str], order: Sequence[str]) -> int:
    """The number of the lineup that sends ``order`` into the Duel zone."""
    return ORDERS.index(tuple(list(team).index(card) for card in order))


def simulate_round(first: tuple[Sequence[str], str], second: tuple[Sequence[str], str]) -> int:
    """One round, one duel at a time through :func:`resolve_duel`: the straightforward loop the bench compares to.

    Returns +1 if the first lineup wins the round, -1 if the second does, 0 if both run out together.
    """
    decks = [list(first[0]), list(second[0])]
    waiting: list[Wizard] = [CARDS[first[1]], CARDS[second[1]]]
    zones: list[str | None] = [None, None]
    piles: list[list[Wizard]] = [[], []]
    duel = 0
    while True:
        duel += 1
        fresh = [zone is None for zone in zones]
        zones = [zone if zone is not None else deck.pop(0) for zone, deck in zip(zones, decks, strict=True)]
        sides = [Side(CARDS[str(zones[i])], fresh[i], waiting[i], list(piles[i])) for i in (0, 1)]
        winner = resolve_duel((sides[0], sides[1]), duel).winner
        for index in ((0, 1) if winner is None else (1 - winner,)):
            piles[index].append(CARDS[str(zones[index])])
            zones[index] = None
        out = [zones[i] is None and not decks[i] for i in (0, 1)]
        if any(out):
            return 0 if all(out) else (1 if out[1] else -1)
