"""The coach's review of a finished Wizards Cup game, round by round, from what the game made public.

What it may use (docs/bots.md, "The coach", says the same):

- the game's events, which every seat and spectator saw: the wizards each
  side revealed in each round's duels, in order; who won each round; and
  whether each side swapped a wizard or kept its team between rounds (never
  which wizard);
- the finished game's view, which shows each side's final team, and the last
  round's whole lineup and Waiting Card, as players turn their cards up at
  the end.

It never reads the action log (which holds every round's secret lineup and
every swap). So a side's team in an earlier round is known only if the side
kept its team at every swap since (it is the final team), or if all five of
its duellers were revealed without its displayed card, which can then only
have been waiting. A lineup whose last wizards never duelled is judged by the
best lineup that agrees with what was revealed, and the review says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core.contract import Event
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE
from engine.wizards_cup.coach import (
    Chances,
    CoachError,
    Suggestion,
    Team,
    chances_of,
    one_hot,
    top_lineups,
    with_tokens,
)
from engine.wizards_cup.state import Phase, WizardsCupView


@dataclass(frozen=True)
class SidePlay:
    """What one side is known to have played in a round.

    Attributes:
        name: The side's name.
        revealed: The wizards it sent into the Duel zone, in order.
        team: Its six wizards, or None when the game never showed them for this round.
        waiting: Its Waiting Card, or None when never shown.
    """

    name: str
    revealed: tuple[str, ...]
    team: Team | None
    waiting: str | None

    @property
    def whole(self) -> bool:
        """True when the whole lineup is known: the team, and every duelling wizard in order."""
        return self.team is not None and len(self.revealed) == LINEUP_SIZE


@dataclass(frozen=True)
class RoundReview:
    """The coach's word on one round (see :func:`review_rounds`).

    Attributes:
        round: The round's number.
        tokens: Each side's Cup Tokens before the round.
        winners: The seats that won it (both when both ran out together).
        sides: What each side played.
        suggested: Each side's most-played equilibrium lineups, or empty when a team is unknown.
        equilibrium: Seat 0's chances when both play the equilibrium (None: not reviewed).
        played: Each side's chances with its own lineup against the other's equilibrium mix.
        gave_up: Each side's game value given up against the equilibrium, in payoff units (a chance
            of winning the Cup is ``value / 2``), or None.
        why: Why the round could not be reviewed, or "".
    """

    round: int
    tokens: tuple[int, int]
    winners: tuple[int, ...]
    sides: tuple[SidePlay, SidePlay]
    suggested: tuple[tuple[Suggestion, ...], tuple[Suggestion, ...]] = ((), ())
    equilibrium: Chances | None = None
    played: tuple[Chances | None, Chances | None] = (None, None)
    gave_up: tuple[float | None, float | None] = (None, None)
    why: str = ""


@dataclass
class _Facts:
    number: int
    tokens: tuple[int, int]
    revealed: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    winners: tuple[int, ...] = ()


def _public_rounds(events: Sequence[Event]) -> tuple[list[_Facts], list[tuple[int, int, bool]]]:
    """The rounds as the events tell them, and each swap decision as (round it followed, seat, swapped)."""
    rounds: list[_Facts] = []
    swaps: list[tuple[int, int, bool]] = []
    tokens = [0, 0]
    current: _Facts | None = None
    for event in events:
        data = event.data
        if event.kind == "round_start" and isinstance(data.get("round"), int):
            current = _Facts(int(data["round"]), (tokens[0], tokens[1]))
        elif event.kind == "reveal" and current is not None and data.get("seat") in (0, 1) \
                and data.get("card") in CARDS:
            current.revealed[int(data["seat"])].append(str(data["card"]))
        elif event.kind == "round_end" and current is not None:
            winners = data.get("winners")
            current.winners = tuple(w for w in winners if w in (0, 1)) if isinstance(winners, list) else ()
            for seat in current.winners:
                tokens[seat] += 1
            rounds.append(current)
            current = None
        elif event.kind == "swap" and rounds and data.get("seat") in (0, 1):
            swaps.append((rounds[-1].number, int(data["seat"]), bool(data.get("swapped"))))
    return rounds, swaps


def _side(view: WizardsCupView, seat: int, facts: _Facts, last: bool, swapped_since: bool) -> SidePlay:
    player = view.players[seat]
    revealed = tuple(facts.revealed[seat])
    final = tuple(player.team) if player.team else None
    if last and final is not None and player.lineup and player.waiting:
        # The end of the game turns the last round's cards up: its whole order and Waiting Card.
        return SidePlay(player.name, tuple(player.lineup), final, player.waiting)
    team: Team | None = None
    if final is not None and not swapped_since:
        team = final
    elif len(revealed) == LINEUP_SIZE and player.displayed not in revealed:
        team = (player.displayed, *revealed)  # the displayed card is always in the team: it waited
    waiting = None
    if team is not None and len(revealed) == LINEUP_SIZE:
        waiting = next(card for card in team if card not in revealed)
    return SidePlay(player.name, revealed, team, waiting)


def review_rounds(view: WizardsCupView, events: Sequence[Event]) -> list[RoundReview]:
    """Every round of a finished game: what each side played, the equilibrium, and what each side gave up.

    Args:
        view: The finished game's view (any seat's or a spectator's: at the end they show the same teams).
        events: The game's events in order, as its log shows them.

    Raises:
        CoachError: the game is not over.
    """
    if view.phase is not Phase.OVER:
        raise CoachError("The coach reviews a game once it is over.")
    rounds, swaps = _public_rounds(events)
    reviews = []
    for index, facts in enumerate(rounds):
        last = index == len(rounds) - 1
        sides = tuple(_side(view, seat, facts, last, any(after >= facts.number and s == seat and swapped
                                                          for after, s, swapped in swaps))
                      for seat in (0, 1))
        plays = (sides[0], sides[1])
        if plays[0].team is None or plays[1].team is None:
            unknown = [side.name for side in plays if side.team is None]
            why = (f"{unknown[0]}'s team in this round was never shown." if len(unknown) == 1 else
                   f"Neither team in this round was shown ({unknown[0]} and {unknown[1]} swapped since).")
            reviews.append(RoundReview(facts.number, facts.tokens, facts.winners, plays, why=why))
            continue
        reviews.append(_solved(view, facts, plays))
    return reviews


def _consistent(team: Team, revealed: Sequence[str]) -> list[int]:
    """The lineup numbers of ``team`` that send ``revealed`` first, in that order."""
    from engine.wizards_cup.round_matrix import ORDERS

    places = [team.index(card) for card in revealed]
    return [number for number, order in enumerate(ORDERS) if list(order[: len(places)]) == places]


def _solved(view: WizardsCupView, facts: _Facts, sides: tuple[SidePlay, SidePlay]) -> RoundReview:
    import numpy as np

    from engine.wizards_cup import hard
    from engine.wizards_cup.round_matrix import round_results
    from engine.wizards_cup.solver import solve

    teams = (sides[0].team, sides[1].team)
    assert teams[0] is not None and teams[1] is not None
    scored = with_tokens(view, facts.tokens)
    results = round_results(teams[0], teams[1])
    payoffs = (hard.round_payoffs(scored, teams[0], teams[1], seat=0),
               hard.round_payoffs(scored, teams[1], teams[0], seat=1))
    tables = (results, -results.T)
    matrices = [np.array(p)[t.astype(np.intp) + 1] for p, t in zip(payoffs, tables, strict=True)]
    solution = solve([matrices[0]], target_gap=hard.LINEUP_GAP, max_iterations=2000)
    mixes = (solution.mine, solution.theirs[0])
    value = float(mixes[0] @ matrices[0] @ mixes[1])
    played: list[Chances | None] = []
    gave_up: list[float | None] = []
    for seat in (0, 1):
        team, other_mix = teams[seat], mixes[1 - seat]
        assert team is not None
        worth = matrices[seat] @ other_mix
        # Benefit of the doubt: the best lineup agreeing with what was revealed.
        best = max(_consistent(team, sides[seat].revealed), key=lambda number: float(worth[number]))
        played.append(chances_of(tables[seat], payoffs[seat], one_hot(len(worth), best), other_mix))
        own_value = value if seat == 0 else -value
        gave_up.append(max(0.0, own_value - float(worth[best])))
    return RoundReview(facts.number, facts.tokens, facts.winners, sides,
                       (top_lineups(teams[0], mixes[0]), top_lineups(teams[1], mixes[1])),
                       chances_of(results, payoffs[0], mixes[0], mixes[1]),
                       (played[0], played[1]), (gave_up[0], gave_up[1]))
