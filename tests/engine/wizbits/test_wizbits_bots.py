"""Wizbits bots: Normal beats Easy, every choice is legal, and only the bot's own view is used."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

import pytest

from engine import TABLE, get_game
from engine.core.rng import seeded_rng
from engine.wizbits.actions import Attack, Pass
from engine.wizbits.bots import BOTS
from engine.wizbits.bots.heuristics import chance_at_most, global_fail, race
from engine.wizbits.bots.normal import easy_bot, normal_bot
from engine.wizbits.dice import MainPoints
from engine.wizbits.state import WizbitsState

SPEC = get_game("wizbits")
RULES = SPEC.rules
DECKS = ("ember-dawn", "tidal-dusk")
MATCH_GAMES = 200


@dataclass
class Game:
    """One finished bot game and who played it."""

    levels: tuple[str, str]
    winners: tuple[int, ...]
    reason: str
    decisions: int


def play(seed: int, levels: tuple[str, str], deck: str | None) -> Game:
    """Play a game through the engine, checking every bot choice against the legal actions.

    Both seats play ``deck``, or each seat its default deck when it is None.
    """
    state = SPEC.new_state({} if deck is None else {"deck_1": deck, "deck_2": deck}, seed, 2)
    decisions = 0
    while RULES.result(state) is None:
        step = RULES.table_action(state)
        if step is not None:
            state, _ = RULES.apply(state, TABLE, step)
            continue
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        action = BOTS[levels[seat]](RULES.view(state, seat), legal, seeded_rng(seed, "test-bot", decisions))
        assert action in legal, f"{levels[seat]} chose {action!r}, which is not legal"
        state, _ = RULES.apply(state, seat, action)
        decisions += 1
    result = RULES.result(state)
    assert result is not None
    return Game(levels, result.winners, result.reason, decisions)


@pytest.fixture(scope="module")
def match() -> list[Game]:
    """200 seeded games of Normal against Easy.

    Both seats play the same deck, so only the bots differ: game g gives
    Normal seat g mod 2 and both players deck (g // 2) mod 2, so Normal plays
    each seat with each deck 50 times. The seed picks the first player.
    """
    games = []
    for seed in range(MATCH_GAMES):
        levels = ("normal", "easy") if seed % 2 == 0 else ("easy", "normal")
        games.append(play(seed, levels, DECKS[(seed // 2) % 2]))
    return games


def _normal_won(game: Game) -> bool:
    return len(game.winners) == 1 and game.levels[game.winners[0]] == "normal"


def test_normal_beats_easy_in_70_percent_of_200_games(match: list[Game]) -> None:
    wins = sum(_normal_won(game) for game in match)
    assert len(match) == MATCH_GAMES
    assert wins >= 0.7 * MATCH_GAMES, f"Normal won only {wins} of {MATCH_GAMES}"


def _easy_won(game: Game) -> bool:
    return len(game.winners) == 1 and game.levels[game.winners[0]] == "easy"


def test_normal_wins_from_both_seats_and_with_both_decks(match: list[Game]) -> None:
    # The Ember Dawn mirror is the closest: both sides ping and burn, and many games end in a turn-1 or 2 battle
    # that Easy forces on a lone Main. Normal still wins clearly more than it loses there.
    for seat, deck in itertools.product(range(2), range(2)):
        chosen = [game for seed, game in enumerate(match) if seed % 2 == seat and (seed // 2) % 2 == deck]
        wins, losses = sum(map(_normal_won, chosen)), sum(map(_easy_won, chosen))
        assert wins >= 1.5 * losses and wins >= 0.4 * len(chosen), (seat, DECKS[deck], wins, losses)


@pytest.fixture(scope="module")
def default_match() -> list[Game]:
    """200 seeded games of Normal against Easy with the default decks: Ember Dawn in seat 1, Tidal Dusk in seat 2.

    Normal takes seat g mod 2, so it plays each deck 100 times.
    """
    return [play(seed, ("normal", "easy") if seed % 2 == 0 else ("easy", "normal"), None) for seed in range(MATCH_GAMES)]


def test_normal_beats_easy_in_70_percent_of_200_games_with_the_default_decks(default_match: list[Game]) -> None:
    # The bar is 70%; Normal won 151 of these 200 games when this test was written.
    wins = sum(_normal_won(game) for game in default_match)
    assert wins >= 0.70 * MATCH_GAMES, f"Normal won only {wins} of {MATCH_GAMES}"
    for seat in range(2):  # with either deck, against the other
        chosen = default_match[seat::2]
        assert sum(map(_normal_won, chosen)) > 0.6 * len(chosen), seat


def test_normal_never_runs_its_own_deck_out(match: list[Game]) -> None:
    # Paying from the deck mills it; Normal keeps enough for its next Reconcile.
    for game in match:
        if game.winners and game.levels[game.winners[0]] == "easy":
            assert "empty deck" not in game.reason


def test_bots_only_choose_legal_actions_in_both_mirrors() -> None:
    # ``play`` asserts every choice is a member of the legal list.
    decisions = 0
    for seed, deck in itertools.product(range(3), DECKS):
        decisions += play(500 + seed, ("normal", "normal"), deck).decisions
        decisions += play(600 + seed, ("easy", "normal"), deck).decisions
    assert decisions > 100


def _states(seed: int, count: int) -> list[WizbitsState]:
    """Seat-to-act states from a Normal-vs-Easy game, for probing decisions."""
    found = []
    state = SPEC.new_state({}, seed, 2)
    step = 0
    while RULES.result(state) is None and len(found) < count:
        table = RULES.table_action(state)
        if table is not None:
            state, _ = RULES.apply(state, TABLE, table)
            continue
        seat = RULES.to_act(state)[0]
        found.append(copy.deepcopy(state))
        legal = RULES.legal_actions(state, seat)
        bot = normal_bot if seat == 0 else easy_bot
        state, _ = RULES.apply(state, seat, bot(RULES.view(state, seat), legal, seeded_rng(seed, step)))
        step += 1
    return found


def _hide_differently(state: WizbitsState, seat: int) -> WizbitsState:
    """The same game as ``seat`` sees it, with the opponent's hand and both decks' order changed."""
    other = copy.deepcopy(state)
    opponent = other.players[1 - seat]
    pool = opponent.hand + opponent.deck
    seeded_rng(7, "hide").shuffle(pool)
    opponent.hand, opponent.deck = pool[:len(opponent.hand)], pool[len(opponent.hand):]
    own = other.players[seat]
    own.deck = list(reversed(own.deck))
    return other


def test_normal_decides_from_its_view_only() -> None:
    changed = 0
    for state in _states(seed=11, count=120):
        seat = RULES.to_act(state)[0]
        other = _hide_differently(state, seat)
        changed += other.players[1 - seat].hand != state.players[1 - seat].hand
        view, other_view = RULES.view(state, seat), RULES.view(other, seat)
        assert view == other_view  # hidden information never reaches the view
        assert view.players[1 - seat].hand is None
        legal = RULES.legal_actions(state, seat)
        choice = normal_bot(view, legal, seeded_rng(1))
        assert choice == normal_bot(other_view, RULES.legal_actions(other, seat), seeded_rng(1))
    assert changed > 0  # the probe really changed a hidden hand


def test_check_odds_are_exact() -> None:
    for dice, number in [((6,), 3), ((8, 6, 10), 8), ((6, 8, 10), 9), ((4, 2, 2), 5), ((20,), 25)]:
        rolls = list(itertools.product(*(range(1, sides + 1) for sides in dice)))
        expected = sum(sum(roll) <= number for roll in rolls) / len(rolls)
        assert chance_at_most(dice, number) == pytest.approx(expected)
    points = MainPoints(8, 6, 10, 8)
    assert global_fail(points, 3) > global_fail(points) > global_fail(points, -2)
    assert global_fail(MainPoints(7, 6, 10, 8)) == global_fail(MainPoints(6, 6, 10, 8))  # d7 rounds down to d6


def test_race_favours_whoever_is_likelier_to_survive() -> None:
    healthy, doomed = MainPoints(8, 6, 10, 8), MainPoints(8, 6, 10, 40)
    assert race(0, {0: healthy, 1: doomed}, [1, 0, 0, 1]) > 0.9
    assert race(0, {0: doomed, 1: healthy}, [1, 0, 0, 1]) < -0.5
    # A check made right now (a battle's) comes before any Test.
    assert race(0, {0: doomed, 1: healthy}, [0, 1], front={1: 1.0}) == pytest.approx(1.0)
    # Both failing in the same battle is a draw, worth nothing to either.
    assert race(0, {0: healthy, 1: healthy}, [0, 1], front={0: 1.0, 1: 1.0}) == pytest.approx(0.0)


def test_normal_passes_when_the_opponent_main_is_already_doomed() -> None:
    # Spending the deck buys nothing once the opposing Main cannot survive its next Test.
    for state in _states(seed=3, count=400):
        seat = RULES.to_act(state)[0]
        if seat != 0 or state.phase not in ("elements", "non_elements"):
            continue
        doomed = copy.deepcopy(state)
        opposing_main = doomed.players[1].main
        perm = doomed.permanent(opposing_main)
        assert perm is not None
        perm.damage += 40
        legal = RULES.legal_actions(doomed, seat)
        if len(legal) > 1:
            assert normal_bot(RULES.view(doomed, seat), legal, seeded_rng(0)) == Pass()
            return
    pytest.fail("no Play Phase decision with a choice was found")


def test_normal_forces_a_hurt_lone_main_into_battle_and_keeps_its_own_home() -> None:
    # Whether blocked or not, the opposing Main must battle and check now, before Normal's Second Test.
    checked = 0
    for seed in range(12):
        for state in _states(seed, 600):
            if state.phase != "attack" or RULES.to_act(state)[0] != 0:
                continue
            mine = state.players[0]
            if not any(state.card(p.iid).is_character and not p.seceded and p.iid != mine.main for p in mine.in_play):
                continue
            hurt = copy.deepcopy(state)
            their_main = hurt.players[1].main
            hurt.players[1].in_play = [p for p in hurt.players[1].in_play if p.iid == their_main]
            perm = hurt.permanent(their_main)
            assert perm is not None
            perm.damage += 12
            own = hurt.permanent(mine.main)
            assert own is not None
            own.damage += 6  # Normal's own Second Test is a real risk too, so waiting is not free
            choice = normal_bot(RULES.view(hurt, 0), RULES.legal_actions(hurt, 0), seeded_rng(0))
            assert isinstance(choice, Attack) and choice.attackers
            assert mine.main not in choice.attackers
            checked += 1
            break
    assert checked >= 3
