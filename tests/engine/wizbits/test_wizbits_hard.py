"""Wizbits Hard: its samples agree with its view, and it decides from the view alone.

How much it beats Normal is a strength figure, measured by ``coven bench wizbits-hard``, not here.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine import TABLE, get_game
from engine.core.bot_budget import with_think_time
from engine.wizbits.bots import BOTS
from engine.wizbits.bots.determinize import deck_pool, determinize, seen_cards
from engine.wizbits.bots.hard import HardBot, candidate_actions, search
from engine.wizbits.bots.normal import normal_bot
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.state import WizbitsState
from engine.wizbits.views import WizbitsView

SPEC = get_game("wizbits")
RULES = SPEC.rules
SMALL = HardBot(playouts=12)
"""A small deterministic budget: enough to exercise the search, quick enough for the suite."""


def positions(seed: int, every: int = 7, limit: int = 400) -> Iterator[tuple[WizbitsState, int]]:
    """Positions of a seeded Normal-against-Normal game where a seat has a real choice, every ``every``-th."""
    state = SPEC.new_state({}, seed, 2)
    for step in range(limit):
        if RULES.result(state) is not None:
            return
        table = RULES.table_action(state)
        if table is not None:
            state, _ = RULES.apply(state, TABLE, table)
            continue
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        if len(legal) > 1 and step % every == 0:
            yield state, seat
        state, _ = RULES.apply(state, seat, normal_bot(RULES.view(state, seat), legal, random.Random(0)))


def _public(view: WizbitsView) -> dict[str, Any]:
    """A view as plain data, less whether each seat has divided (the opponent's split is asked again)."""
    data = dataclasses.asdict(view)
    data.pop("divided")
    return data


@pytest.mark.parametrize("seed", [3, 8])
def test_a_sample_shows_the_seat_exactly_its_view_and_hides_only_cards_that_could_be_there(seed: int) -> None:
    checked = 0
    for state, seat in positions(seed):
        view = RULES.view(state, seat)
        sample = determinize(view, random.Random(checked))
        assert _public(RULES.view(sample, seat)) == _public(view)
        assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)
        assert sample.players[seat].hand == state.players[seat].hand
        for index, (drawn, real) in enumerate(zip(sample.players, state.players, strict=True)):
            assert (len(drawn.hand), len(drawn.deck)) == (len(real.hand), len(real.deck))
            starter = next(s for s in STARTER_DECKS.values() if s.name == real.deck_name)
            hidden = Counter(sample.cards[iid] for iid in drawn.deck + (drawn.hand if index != seat else []))
            room = Counter(dict(starter.deck.counts))
            room.subtract(seen_cards(view, index))
            assert not hidden - room, f"seat {index} holds cards its deck list has no room for"
            assert all(sample.owners[iid] == index for iid in drawn.deck + drawn.hand)
        assert sample.seed != state.seed, "future chance is drawn afresh, never the game's own"
        checked += 1
    assert checked >= 5


def test_the_samples_differ_in_what_the_view_hides() -> None:
    state, seat = next((s, seat) for s, seat in positions(3) if len(s.players[1 - seat].hand) > 2)
    view = RULES.view(state, seat)
    hands = {tuple(determinize(view, random.Random(n)).players[1 - seat].hand) for n in range(6)}
    orders = {tuple(determinize(view, random.Random(n)).players[seat].deck) for n in range(6)}
    assert len(hands) > 1 and len(orders) > 1


def test_an_unknown_deck_list_is_drawn_from_the_starter_it_most_resembles() -> None:
    state, seat = next(positions(5))
    view = RULES.view(state, seat)
    other = 1 - seat
    players = list(view.players)
    players[other] = dataclasses.replace(players[other], deck_name="My own deck")
    renamed = dataclasses.replace(view, players=tuple(players))
    real = next(s for s in STARTER_DECKS.values() if s.name == view.players[other].deck_name)
    assert set(deck_pool(renamed, other)) <= {card_id for card_id, _ in real.deck.counts}
    sample = determinize(renamed, random.Random(1))
    assert len(sample.players[other].deck) == view.players[other].deck_count


def test_the_views_new_public_fields_hold_nothing_secret() -> None:
    """Whatever is dealt to either hand or deck, the fields added for Hard read the same, in every view."""
    added = ("rules_version", "passes", "units_added", "quiet_elements", "waiting_payloads")
    added_perm = ("turn_steps", "lasting_steps", "turn_attributes", "lasting_attributes", "tough_used")
    checked = 0
    for seed in (2, 6):
        for state, _ in positions(seed, every=3):
            rng = random.Random(checked)
            varied: WizbitsState | None = state
            for hidden_seat in (0, 1):
                assert varied is not None
                varied = RULES.vary_secrets(varied, hidden_seat, rng)
            if varied is None:
                continue
            varied = copy.deepcopy(varied)
            varied.seed += 1
            secret = {iid for player in state.players for iid in player.deck + player.hand}
            for seat in (0, 1, None):
                first, second = RULES.view(state, seat), RULES.view(varied, seat)
                for name in added:
                    assert getattr(first, name) == getattr(second, name), name
                for mine, theirs in zip(first.players, second.players, strict=True):
                    for perm, other in zip(mine.in_play, theirs.in_play, strict=True):
                        assert [getattr(perm, n) for n in added_perm] == [getattr(other, n) for n in added_perm]
                for payload in first.waiting_payloads:
                    assert payload["iid"] not in secret
            checked += 1
    assert checked >= 10


def test_hard_decides_from_its_view_alone() -> None:
    """Two states that differ in all the seat cannot see (hand, decks, seed) give the same choice."""
    compared = 0
    for state, seat in (found for seed in (4, 1, 5, 6, 7) for found in positions(seed, every=9)):
        other = RULES.vary_secrets(state, 1 - seat, random.Random(compared))
        if other is None:
            continue
        random.Random(compared).shuffle(other.players[seat].deck)  # its own deck's order too
        other.seed, other.rolls = state.seed + 99, state.rolls + 7
        view, same = RULES.view(state, seat), RULES.view(other, seat)
        assert view == same
        legal = RULES.legal_actions(state, seat)
        assert SMALL(view, legal, random.Random(11)) == SMALL(same, legal, random.Random(11))
        compared += 1
        if compared == 4:
            break
    assert compared == 4


def test_a_single_legal_action_is_taken_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.wizbits.bots.hard

    def no_search(*args: object) -> None:
        raise AssertionError("searched a forced move")

    monkeypatch.setattr(engine.wizbits.bots.hard, "search", no_search)
    state, seat = next(positions(3))
    legal = RULES.legal_actions(state, seat)[:1]
    assert SMALL(RULES.view(state, seat), legal, random.Random(1)) == legal[0]


def test_hard_plays_only_legal_actions_in_random_games() -> None:
    for seed in (11, 12):
        state = SPEC.new_state({}, seed, 2)
        rng = random.Random(seed)
        for _ in range(300):
            if RULES.result(state) is not None:
                break
            table = RULES.table_action(state)
            if table is not None:
                state, _ = RULES.apply(state, TABLE, table)
                continue
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            if seat == seed % 2:
                view = RULES.view(state, seat)
                action = HardBot(playouts=6)(view, legal, random.Random(rng.random()))
                assert action in legal
                # Hard falls back on Normal's choice if a search fails: here every search must succeed.
                assert all(search(view, candidate_actions(view, legal), random.Random(1), 4, None))
            else:
                action = rng.choice(legal)
            state, _ = RULES.apply(state, seat, action)


def test_the_thinking_time_reaches_hard_and_leaves_other_bots_alone() -> None:
    assert BOTS["hard"] == HardBot() and HardBot().think_time is None, "the registered Hard plays by playouts"
    clocked = with_think_time(BOTS["hard"], 0.5)
    assert isinstance(clocked, HardBot) and clocked.think_time == 0.5 and clocked.playouts > HardBot().playouts
    assert with_think_time(normal_bot, 0.5) is normal_bot


def test_a_clocked_hard_stops_at_its_clock() -> None:
    """With no time at all, one round of samples is played and a legal action comes back."""
    state, seat = next(positions(8))
    legal = RULES.legal_actions(state, seat)
    assert HardBot().with_think_time(0.0)(RULES.view(state, seat), legal, random.Random(2)) in legal


@pytest.mark.usefixtures("wide_output")
def test_the_bench_prints_the_score_its_interval_and_decision_times(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli.bench.wizbits_hard import run

    assert run(games=4, seed=301, playouts=4) == 0
    out = capsys.readouterr().out
    assert "hard vs normal, 4 games from seed 301" in out and "95% interval" in out
    assert "p50" in out and "p95" in out
