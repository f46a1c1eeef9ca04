"""The Wizards Cup coach's numbers: checked against slow round-by-round counts, and never leaking."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
import typing
from collections.abc import Sequence

import pytest

from engine.core.contract import Event
from engine.wizards_cup.bots import BOTS, simulate_round
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.coach import Chances, CoachError, LineupAdvice, advise_lineup
from engine.wizards_cup.coach_review import review_rounds
from engine.wizards_cup.state import Phase, WizardsCupView
from tests.helpers.import_hygiene import modules_after_import
from tests.helpers.wizards_cup_helpers import RULES, SPEC, lineup_state

ANA = ["pyre-lord", "echo-warden", "mist-warden", "tide-caller", "moss-hermit", "lantern-knight"]
BO = ["ember-adept", "hollow-sage", "thornmother", "brine-witch", "cinder-duelist", "night-whisper"]
BO_OTHER = ["ember-adept", "hollow-sage", "thornmother", "brine-witch", "grave-lurker", "sunforged-saint"]


def cup_value(mine: int, theirs: int, tiebreak: float) -> float:
    """Written apart from the engine's: my Cup chance minus theirs, every later round even, 5% both out."""
    if mine <= 0 and theirs <= 0:
        return tiebreak
    if mine <= 0 or theirs <= 0:
        return 1.0 if mine <= 0 else -1.0
    return (0.475 * cup_value(mine - 1, theirs, tiebreak) + 0.475 * cup_value(mine, theirs - 1, tiebreak)
            + 0.05 * cup_value(mine - 1, theirs - 1, tiebreak))


def slow_payoff(mine: Sequence[str], theirs: Sequence[str], outcome: int, tokens: tuple[int, int]) -> float:
    """The worth of one round's outcome (+1 won, 0 both out, -1 lost) in a game to 2 tokens."""
    totals = sum(CARDS[c].value for c in mine), sum(CARDS[c].value for c in theirs)
    tiebreak = 0.0 if totals[0] == totals[1] else (1.0 if totals[0] < totals[1] else -1.0)
    need = 2 - tokens[0], 2 - tokens[1]
    after = {1: (need[0] - 1, need[1]), 0: (need[0] - 1, need[1] - 1), -1: (need[0], need[1] - 1)}[outcome]
    return cup_value(*after, tiebreak)


Plays = Sequence[tuple[Sequence[str], float, Sequence[tuple[tuple[str, ...], float]]]]


def slow_chances(mine: Sequence[str], order: tuple[str, ...], plays: Plays) -> Chances:
    """One lineup against weighted teams, each playing weighted lineups, one simulated round at a time."""
    shares = {1: 0.0, 0: 0.0, -1: 0.0}
    value = 0.0
    waiting = next(c for c in mine if c not in order)
    for team, weight, lineups in plays:
        for their_order, chance in lineups:
            theirs_waiting = next(c for c in team if c not in their_order)
            outcome = simulate_round((order, waiting), (their_order, theirs_waiting))
            shares[outcome] += weight * chance
            value += weight * chance * slow_payoff(mine, team, outcome, (0, 0))
    return Chances(shares[1], shares[0], shares[-1], value)


def best_answers(mine: Sequence[str], order: tuple[str, ...], teams: list[tuple[Sequence[str], float]]) -> Chances:
    """Each team's best answer to ``order``, found by playing all 720 of its lineups round by round."""
    plays: list[tuple[Sequence[str], float, Sequence[tuple[tuple[str, ...], float]]]] = []
    waiting = next(c for c in mine if c not in order)
    for team, weight in teams:
        def worth(their: tuple[str, ...], team: Sequence[str] = team) -> float:
            outcome = simulate_round((order, waiting), (their, next(c for c in team if c not in their)))
            return slow_payoff(mine, team, outcome, (0, 0))
        best = min(itertools.permutations(team, 5), key=worth)
        plays.append((team, weight, [(best, 1.0)]))
    return slow_chances(mine, order, plays)


def close(a: Chances, b: Chances) -> bool:
    return all(abs(getattr(a, f) - getattr(b, f)) < 1e-9 for f in ("win", "both", "lose", "value"))


def model_plays(advice: LineupAdvice) -> Plays:
    from engine.wizards_cup.round_matrix import lineup

    return [(m.team, m.weight, [(lineup(m.team, number)[0], w) for number, w in m.lineups]) for m in advice.model]


@pytest.mark.parametrize("seen", [BO[1:], BO[1:3]], ids=["known team", "hidden team"])
def test_the_lineups_chances_match_a_slow_count_round_by_round(seen: list[str]) -> None:
    state = lineup_state(ANA, BO)
    state.players[1].seen = list(seen)
    order = ("moss-hermit", "pyre-lord", "tide-caller", "echo-warden", "lantern-knight")
    advice = advise_lineup(RULES.view(state, 0), order, seed=3)
    assert advice.known == (len(seen) == 5) and advice.waiting == "mist-warden" and advice.opponent == "Bo"
    assert abs(sum(m.weight for m in advice.model) - 1) < 1e-9
    assert close(advice.yours, slow_chances(ANA, order, model_plays(advice)))
    assert close(advice.guessed, best_answers(ANA, order, [(m.team, m.weight) for m in advice.model]))
    # Any single lineup can be answered; Hard's mixture guarantees at least what this one does when guessed.
    assert advice.mix_guessed.value >= advice.guessed.value - 0.01
    assert advice.mix_guessed.value <= advice.mix.value + 1e-9
    weights = [s.weight for s in advice.top]
    assert len(advice.top) == 3 and weights == sorted(weights, reverse=True) and 0 < sum(weights) <= 1
    assert len({(s.order, s.waiting) for s in advice.top}) == 3


def test_with_the_team_known_the_mixture_is_the_equilibrium() -> None:
    state = lineup_state(ANA, BO)
    state.players[1].seen = list(BO[1:])
    advice = advise_lineup(RULES.view(state, 0), tuple(ANA[:5]))
    # Against its own equilibrium's opponent, the mixture is worth what no best answer can take from it.
    assert abs(advice.mix.value - advice.mix_guessed.value) <= 0.01
    assert advice.guessed.lose > 0.99  # a known team always has an answer to a known order


def test_the_coach_takes_a_view_and_two_states_with_one_view_get_the_same_advice() -> None:
    assert typing.get_type_hints(advise_lineup)["view"] is WizardsCupView
    first = lineup_state(ANA, BO)
    second = lineup_state(ANA, BO_OTHER)  # the same displayed card, two other hidden wizards
    for state in (first, second):
        state.players[1].seen = ["hollow-sage", "thornmother"]
    second.players[1].pending = {"type": "lineup", "order": BO_OTHER[1:]}  # and a secret lineup already set
    second.players[1].lineup = list(BO_OTHER[:5])
    views = RULES.view(first, 0), RULES.view(second, 0)
    assert dataclasses.replace(views[1], players=(views[1].players[0], dataclasses.replace(
        views[1].players[1], ready=False))) == views[0]
    first.players[1].pending = {"type": "lineup", "order": BO[1:]}
    assert RULES.view(first, 0) == RULES.view(second, 0)
    order = tuple(ANA[1:])
    assert advise_lineup(RULES.view(first, 0), order, 5) == advise_lineup(RULES.view(second, 0), order, 5)


def test_what_the_coach_refuses() -> None:
    state = lineup_state(ANA, BO)
    with pytest.raises(CoachError, match="own lineup"):
        advise_lineup(RULES.view(state, None), tuple(ANA[:5]))
    with pytest.raises(CoachError, match="five different wizards"):
        advise_lineup(RULES.view(state, 0), (ANA[0], ANA[0], ANA[1], ANA[2], ANA[3]))
    with pytest.raises(CoachError, match="five different wizards"):
        advise_lineup(RULES.view(state, 0), tuple(BO[:5]))
    with pytest.raises(CoachError, match="once it is over"):
        review_rounds(RULES.view(state, 0), [])


def test_importing_the_coach_loads_no_numpy() -> None:
    loaded = modules_after_import("engine.wizards_cup.coach_review")
    assert "engine.wizards_cup.coach" in loaded and "numpy" not in loaded


@functools.lru_cache(maxsize=2)
def played_game(seed: int) -> tuple[WizardsCupView, list[Event], list[int]]:
    """A game between Normal bots to its end: the final spectator view, every event, and the rounds' numbers."""
    state = SPEC.new_state({}, seed, 2, ["Ana", "Bo"])
    events: list[Event] = []
    rng = random.Random(seed)
    while RULES.result(state) is None:
        seats = RULES.to_act(state)
        seat = seats[0] if seats else None
        action = (BOTS["normal"](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
                  if seat is not None else RULES.table_action(state))
        assert action is not None
        state, new = RULES.apply(state, seat, action)
        events += new
    rounds = [int(e.data["round"]) for e in events if e.kind == "round_end"]
    return RULES.view(state, None), events, rounds


def test_the_review_judges_the_last_round_in_full_against_a_slow_count() -> None:
    view, events, rounds = played_game(5)
    reviews = review_rounds(view, events)
    assert [r.round for r in reviews] == rounds
    last = reviews[-1]
    assert all(side.whole and side.waiting for side in last.sides) and last.why == ""
    assert last.equilibrium is not None and len(last.suggested[0]) == len(last.suggested[1]) == 3
    for seat in (0, 1):
        assert view.players[seat].lineup == last.sides[seat].revealed
        gave = last.gave_up[seat]
        assert gave is not None and gave >= 0
    # The first side's lineup against the second's actual lineup, one round simulated: what really happened.
    won = simulate_round((last.sides[0].revealed, str(last.sides[0].waiting)),
                         (last.sides[1].revealed, str(last.sides[1].waiting)))
    assert set(last.winners) == ({0} if won == 1 else {1} if won == -1 else {0, 1})


def test_the_review_uses_only_what_the_game_showed() -> None:
    view, events, _ = played_game(5)
    ana, bo = view.players
    # A made-up two-round record: in round 1 Ana showed five wizards without her displayed card (so it
    # waited), and Bo only three, then swapped, so his round-1 team was never shown.
    shown = [c for c in ana.team or () if c != ana.displayed]
    made_up = [Event("round_start", "", {"round": 1})]
    made_up += [Event("reveal", "", {"seat": 0, "card": card}) for card in shown]
    made_up += [Event("reveal", "", {"seat": 1, "card": card}) for card in (bo.team or ())[:3]]
    made_up += [Event("round_end", "", {"round": 1, "winners": [1]}), Event("swap", "", {"seat": 0, "swapped": True}),
                Event("swap", "", {"seat": 1, "swapped": True}), Event("round_start", "", {"round": 2}),
                Event("round_end", "", {"round": 2, "winners": [1]})]
    first = review_rounds(view, made_up)[0]
    assert first.sides[0].team == (ana.displayed, *shown) and first.sides[0].waiting == ana.displayed
    assert first.sides[1].team is None and first.sides[1].waiting is None
    assert first.equilibrium is None and "Bo's team in this round was never shown" in first.why
    assert first.tokens == (0, 0) and review_rounds(view, made_up)[1].tokens == (0, 1)
    # Kept teams are the final team: the same record with Bo keeping his is reviewed in full.
    kept = [Event("swap", "", {"seat": 1, "swapped": False}) if e.kind == "swap" and e.data["seat"] == 1 else e
            for e in made_up]
    again = review_rounds(view, kept)[0]
    assert again.sides[1].team == bo.team and again.equilibrium is not None and again.gave_up[1] is not None
    assert again.sides[1].waiting is None  # only three of his five duelled
    assert view.phase is Phase.OVER
