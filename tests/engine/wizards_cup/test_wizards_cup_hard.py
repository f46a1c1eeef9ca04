"""The Hard Wizards Cup bot: legal, seeded and reasoning only from its view (its strength is `coven ladder wizards-cup`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.wizards_cup.actions import Action, ChooseTeam, KeepTeam, SetLineup, Swap
from engine.wizards_cup.bots import BOTS
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.hard import game_value, hard_bot, opponent_teams, round_payoffs
from engine.wizards_cup.state import Phase
from tests.helpers.wizards_cup_helpers import RULES, SPEC, lineup_state

ANA = ["pyre-lord", "echo-warden", "mist-warden", "tide-caller", "moss-hermit", "lantern-knight"]
BO = ["ember-adept", "hollow-sage", "thornmother", "brine-witch", "cinder-duelist", "night-whisper"]


def test_hard_is_offered_after_the_existing_levels() -> None:
    assert list(BOTS) == ["easy", "normal", "hard"]
    assert SPEC.bot_levels[-1] == "hard"


def test_each_decision_is_legal_and_the_same_for_the_same_seed() -> None:
    state = SPEC.new_state({}, 3, 2)
    team = hard_bot(RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(8))
    assert isinstance(team, ChooseTeam) and team in RULES.legal_actions(state, 0)
    assert team == hard_bot(RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(8))

    state = lineup_state(ANA, BO)
    legal = RULES.legal_actions(state, 0)
    lineup = hard_bot(RULES.view(state, 0), legal, random.Random(4))
    assert isinstance(lineup, SetLineup) and lineup in legal
    assert lineup == hard_bot(RULES.view(state, 0), legal, random.Random(4))

    state.phase = Phase.SWAP
    legal = RULES.legal_actions(state, 1)
    swap = hard_bot(RULES.view(state, 1), legal, random.Random(2))
    assert isinstance(swap, (Swap, KeepTeam)) and swap in legal


def test_opponent_teams_keep_the_displayed_card_and_what_was_seen() -> None:
    state = lineup_state(ANA, BO)
    state.players[1].seen = ["hollow-sage", "thornmother", "brine-witch"]
    samples = opponent_teams(RULES.view(state, 0), random.Random(1), 12)
    assert abs(sum(weight for _, weight in samples) - 1) < 1e-9
    for team, _ in samples:
        assert len(set(team)) == 6 and team[0] == "ember-adept"
        assert {"hollow-sage", "thornmother", "brine-witch"} <= set(team)
    assert len(samples) > 1  # the two unseen wizards are guessed, not known


def test_the_payoff_values_the_round_for_the_game_with_the_lowest_total_tiebreak() -> None:
    state = lineup_state(ANA, BO, tokens=(1, 1))  # both one token from the Cup
    lose, both, win = round_payoffs(RULES.view(state, 0), tuple(ANA), tuple(BO))
    assert (lose, win) == (-1.0, 1.0)
    ana_total, bo_total = (sum(CARDS[card].value for card in team) for team in (ANA, BO))
    assert both == (1.0 if ana_total < bo_total else -1.0)
    assert round_payoffs(RULES.view(state, 1), tuple(BO), tuple(ANA))[1] == -both
    opening = round_payoffs(RULES.view(lineup_state(ANA, BO), 0), tuple(ANA), tuple(BO))
    assert -1 < opening[0] < opening[1] < opening[2] < 1  # a round at 0-0 is worth less than the Cup
    assert game_value(1, 2, 0.0) > game_value(1, 1, 0.0) == 0.0 > game_value(2, 1, 0.0)


def test_unseen_wizards_are_guessed_by_how_often_strong_players_take_them() -> None:
    from collections import Counter

    from engine.wizards_cup.hard import _likely_picks
    from engine.wizards_cup.pick_rates import PICK_RATES

    cards = sorted(PICK_RATES)
    rng = random.Random(5)
    counts: Counter[str] = Counter()
    for _ in range(2000):
        drawn = _likely_picks(cards, 4, rng)
        assert len(drawn) == 4 and len(set(drawn)) == 4 and set(drawn) <= set(cards)
        counts.update(drawn)
    assert PICK_RATES["echo-warden"] > 0.9 and PICK_RATES["tide-caller"] < 0.05
    assert counts["echo-warden"] > 5 * counts["tide-caller"]
    assert counts["tide-caller"] > 0  # unlikely, never ruled out
    assert all(rate >= 0 for rate in PICK_RATES.values())
    with pytest.raises(ValueError, match="cannot draw 3 of 2"):
        _likely_picks(["tide-caller", "moss-hermit"], 3, rng)
    with pytest.raises(ValueError, match="cannot draw -1"):
        _likely_picks(cards, -1, rng)
    # The same generator state draws the same cards: seeded games replay.
    assert _likely_picks(cards, 5, random.Random(9)) == _likely_picks(cards, 5, random.Random(9))


def test_normals_team_candidates_include_the_five_strongest_wizards(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.wizards_cup.bots as bots
    from engine.wizards_cup.cards import WIZARDS

    offered: list[list[Action]] = []

    def first(candidates: Sequence[Action], *_: object, **__: object) -> Action:
        offered.append(list(candidates))
        return candidates[0]

    monkeypatch.setattr(bots, "_pick_best", first)
    state = SPEC.new_state({}, 3, 2)
    view = RULES.view(state, 0)
    BOTS["normal"](view, RULES.legal_actions(state, 0), random.Random(1))
    displayed = view.players[0].displayed
    by_value = [w.card_id for w in sorted(WIZARDS, key=lambda w: -w.value) if w.card_id != displayed]
    assert any(isinstance(c, ChooseTeam) and set(c.cards) == set(by_value[:5]) for c in offered[0])


def test_the_pick_rate_measure_prints_a_table_for_the_data_module(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.wizards_cup.cards import WIZARDS
    from tui.cli.bench.wizards_cup_picks import main

    assert main(["1", "500"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "PICK_RATES: dict[str, float] = {" and lines[-1] == "}"
    rows = [line.strip().rstrip(",").split(": ") for line in lines[1:-1]]
    assert sorted(name.strip('"') for name, _ in rows) == sorted(w.card_id for w in WIZARDS)
    rates = [float(rate) for _, rate in rows]
    assert rates == sorted(rates, reverse=True) and all(0 <= rate <= 1 for rate in rates)
    assert sum(rate > 0 for rate in rates) >= 5  # each seat took five
