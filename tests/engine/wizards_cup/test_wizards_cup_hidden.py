"""Hidden information stays out of views, and bots decide from their view alone."""

from __future__ import annotations

import dataclasses
import inspect
import random

from engine.wizards_cup.bots import BOTS
from engine.wizards_cup.state import WizardsCupState
from tests.helpers.wizards_cup_helpers import RULES, SPEC, lineup_state

ANA = ["sunforged-saint", "pyre-lord", "mist-warden", "deepwater-regent", "echo-warden", "moss-hermit"]
BO_A = ["lantern-knight", "deepwater-regent", "cinder-duelist", "night-whisper", "tide-caller", "hollow-sage"]
BO_B = ["lantern-knight", "deepwater-regent", "ember-adept", "starless-oracle", "grave-lurker", "thornmother"]


def with_lineups(bo_team: list[str], bo_order: list[str]) -> WizardsCupState:
    state = lineup_state(ANA, bo_team)
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": ANA[1:]})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": bo_order})
    return state


def test_opponent_team_lineup_and_waiting_card_are_absent() -> None:
    state = with_lineups(BO_A, BO_A[1:])
    view = RULES.view(state, 0)
    bo = view.players[1]
    assert (bo.team, bo.deck, bo.waiting, bo.pending) == (None, None, None, None)
    assert bo.deck_count == 5
    ana = view.players[0]
    assert ana.team == tuple(ANA) and ana.waiting == "sunforged-saint" and ana.deck == tuple(ANA[1:])
    spectator = RULES.view(state, None)
    assert all(p.team is None and p.deck is None and p.waiting is None for p in spectator.players)


def test_views_do_not_depend_on_what_the_opponent_hides() -> None:
    # Same first wizard, different rest of team, order and Waiting Card.
    first = with_lineups(BO_A, ["deepwater-regent", "cinder-duelist", "night-whisper", "tide-caller", "hollow-sage"])
    second = with_lineups(BO_B, ["deepwater-regent", "thornmother", "grave-lurker", "ember-adept", "lantern-knight"])
    assert RULES.view(first, 0) == RULES.view(second, 0)
    first, _ = RULES.apply(first, None, {"type": "duel"})
    second, _ = RULES.apply(second, None, {"type": "duel"})
    assert dataclasses.asdict(RULES.view(first, 0)) == dataclasses.asdict(RULES.view(second, 0))
    assert RULES.view(first, 1) != RULES.view(second, 1)


def test_a_pending_secret_choice_is_hidden_until_both_decide() -> None:
    state = SPEC.new_state({}, 9, 2, ["Ana", "Bo"])
    picks = RULES.legal_actions(state, 1)[100]
    after, events = RULES.apply(state, 1, RULES.action_to_json(picks))
    assert RULES.view(after, 0) == dataclasses.replace(RULES.view(state, 0), players=(
        RULES.view(state, 0).players[0], dataclasses.replace(RULES.view(state, 0).players[1], ready=True)))
    assert all("cards" not in e.data for e in events)
    assert RULES.view(after, 1).players[1].pending == RULES.action_to_json(picks)


def test_bots_take_only_a_view_legal_actions_and_a_generator() -> None:
    for bot in BOTS.values():
        assert list(inspect.signature(bot).parameters) == ["view", "legal", "rng"]


def test_bots_choose_the_same_when_only_hidden_information_differs() -> None:
    base = lineup_state(ANA, BO_A)
    other = lineup_state(ANA, BO_B)
    for level, bot in BOTS.items():
        view = RULES.view(base, 0)
        assert view == RULES.view(other, 0)
        first = bot(view, RULES.legal_actions(base, 0), random.Random(5))
        second = bot(RULES.view(other, 0), RULES.legal_actions(other, 0), random.Random(5))
        assert first == second, level


def test_teams_are_shown_to_everyone_once_the_game_is_over() -> None:
    from tests.helpers.wizards_cup_rules import ANA_LINEUP, BO_LINEUP, play_round, set_lineups

    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP], tokens=(1, 1))
    state, _, _ = play_round(set_lineups(state, ANA_LINEUP, BO_LINEUP))
    assert RULES.result(state) is not None
    for seat in (0, 1, None):
        view = RULES.view(state, seat)
        assert [p.team for p in view.players] == [tuple(p.team) for p in state.players]
