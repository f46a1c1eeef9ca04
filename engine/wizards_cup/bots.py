"""Wizards Cup bots. They see only their own seat's view and legal actions.

Normal samples opponent teams and lineups consistent with what it has seen
(the displayed card, wizards revealed in earlier duels) and picks the lineup,
team or swap that wins the most simulated rounds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.wizards_cup.actions import Action, ChooseTeam, KeepTeam, SetLineup, Swap
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE, WIZARDS
from engine.wizards_cup.duel import Side, resolve_duel
from engine.wizards_cup.state import Phase, WizardsCupView

Lineup = tuple[tuple[str, ...], str]
"""Five wizards in order, and the Waiting Card."""


def easy_bot(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly at random."""
    return rng.choice(list(legal))


def simulate_round(first: Lineup, second: Lineup) -> int:
    """Play a whole round between two lineups; +1 if first wins, -1 if second, 0 if both."""
    decks = [list(first[0]), list(second[0])]
    waiting = [CARDS[first[1]], CARDS[second[1]]]
    zones: list[str | None] = [None, None]
    discards: list[list[str]] = [[], []]
    duel = 0
    while True:
        duel += 1
        fresh = [zone is None for zone in zones]
        zones = [zone if zone is not None else deck.pop(0) for zone, deck in zip(zones, decks, strict=False)]
        sides = tuple(Side(CARDS[str(zones[i])], fresh[i], waiting[i], [CARDS[c] for c in discards[i]])
                      for i in (0, 1))
        winner = resolve_duel((sides[0], sides[1]), duel).winner
        for index in ((0, 1) if winner is None else (1 - winner,)):
            discards[index].append(str(zones[index]))
            zones[index] = None
        stuck = [zones[i] is None and not decks[i] for i in (0, 1)]
        if any(stuck):
            return 0 if all(stuck) else (1 if stuck[1] else -1)


def random_lineup(team: Sequence[str], rng: random.Random) -> Lineup:
    """A uniformly random lineup of a six-wizard team."""
    order = rng.sample(list(team), len(team))
    return tuple(order[:LINEUP_SIZE]), order[LINEUP_SIZE]


def sample_opponent_team(view: WizardsCupView, rng: random.Random) -> list[str]:
    """A team the opponent could hold, given everything this seat has seen."""
    assert view.seat is not None
    opponent = view.players[1 - view.seat]
    seen = [card for card in opponent.seen if card != opponent.displayed]
    known = rng.sample(seen, min(len(seen), LINEUP_SIZE))
    rest = [w.card_id for w in WIZARDS if w.card_id != opponent.displayed and w.card_id not in known]
    return [opponent.displayed, *known, *rng.sample(rest, LINEUP_SIZE - len(known))]


def _pick_best(
    candidates: Sequence[Action], score: Callable[[Action, int], float], rounds: tuple[int, int], keep: int
) -> Action:
    """Two-stage search: a quick score for all, a longer one for the best ``keep``."""
    quick = sorted(candidates, key=lambda action: -score(action, rounds[0]))
    finalists = quick[:keep]
    return max(finalists, key=lambda action: score(action, rounds[1]))


def normal_bot(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Choose the team, lineup or swap that wins most rounds against sampled opponents."""
    if not legal:
        raise ValueError("the bot has no legal action to choose from")
    me = view.me
    if me is None or view.phase not in (Phase.TEAM, Phase.LINEUP, Phase.SWAP):
        return legal[0]

    def team_of(action: Action) -> list[str]:
        assert me is not None
        if isinstance(action, ChooseTeam):
            return [me.displayed, *action.cards]
        team = list(me.team or ())
        if isinstance(action, Swap):
            team[team.index(action.out)] = action.take
        return team

    def team_score(action: Action, rounds: int) -> float:
        team = team_of(action)
        return sum(simulate_round(random_lineup(team, rng), random_lineup(sample_opponent_team(view, rng), rng))
                   for _ in range(rounds)) / rounds

    if view.phase is Phase.LINEUP:
        opponents = [random_lineup(sample_opponent_team(view, rng), rng) for _ in range(48)]

        def lineup_score(action: Action, rounds: int) -> float:
            assert isinstance(action, SetLineup) and me is not None and me.team is not None
            waiting = next(card for card in me.team if card not in action.order)
            # The quick pass uses the first opponents, the long pass all of them, so scores stay comparable.
            pool = opponents[:rounds]
            return sum(simulate_round((action.order, waiting), other) for other in pool) / len(pool)

        return _pick_best(legal, lineup_score, (8, 48), keep=24)

    if view.phase is Phase.TEAM:
        candidates = rng.sample(list(legal), min(60, len(legal)))
        strongest = sorted((w for w in WIZARDS if w.card_id != me.displayed), key=lambda w: -w.value)
        top = {w.card_id for w in strongest[:LINEUP_SIZE]}
        # Compared as sets: legal picks list their cards in the set's order, not by name.
        candidates += [action for action in legal if isinstance(action, ChooseTeam) and set(action.cards) == top][:1]
        return _pick_best(candidates, team_score, (16, 64), keep=8)

    swaps = [action for action in legal if isinstance(action, (Swap, KeepTeam))]
    return _pick_best(swaps, team_score, (16, 64), keep=8)


def hard_bot(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Play each round near the equilibrium of its matrix game (see :mod:`engine.wizards_cup.hard`)."""
    from engine.wizards_cup.hard import hard_bot as decide  # numpy loads on the first Hard decision only

    return decide(view, legal, rng)


BOTS: dict[str, Callable[[WizardsCupView, Sequence[Action], random.Random], Action]] = {
    "easy": easy_bot,
    "normal": normal_bot,
    "hard": hard_bot,
}
"""Bot levels, weakest first."""
