"""Wizards Cup as a whole game: rounds, Cup Tokens, the tiebreak and illegal actions."""

from __future__ import annotations

import pytest

from engine import IllegalActionError, MalformedActionError, state_digest
from engine.wizards_cup.actions import ChooseTeam, KeepTeam, PlayDuel, SetLineup, Swap
from engine.wizards_cup.state import Phase, WizardsCupState
from tests.helpers.wizards_cup_helpers import RULES, SPEC, lineup_state
from tests.helpers.wizards_cup_rules import ANA_LINEUP, BO_LINEUP, play_round, set_lineups


def test_known_answer_counts_of_legal_actions() -> None:
    state = SPEC.new_state({}, 1, 2)
    assert len(RULES.legal_actions(state, 0)) == 6188  # C(17, 5)
    assert RULES.legal_actions(state, None) == []
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP])
    assert len(RULES.legal_actions(state, 1)) == 720  # 6 * 5!
    state = set_lineups(state, ANA_LINEUP, BO_LINEUP)
    assert RULES.to_act(state) == () and RULES.legal_actions(state, None) == [PlayDuel()]
    state, _, _ = play_round(state)
    assert state.phase is Phase.SWAP
    assert len(RULES.legal_actions(state, 0)) == 61  # keep, or 5 swappable x 12 unused


def test_a_whole_round_with_expected_winners_and_token() -> None:
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP])
    state = set_lineups(state, ANA_LINEUP, BO_LINEUP)
    assert state.players[0].waiting == "sunforged-saint" and state.players[1].waiting == "lantern-knight"
    state, duels, ends = play_round(state)
    assert [d["winner"] for d in duels] == [1, 0, 1, 0, 1, 0, 0, None]
    assert [d["step"] for d in duels] == ["element"] * 5 + ["value", "value", "power"]
    assert [p.tokens for p in state.players] == [1, 0]
    assert state.round_winners == [0]
    assert "Bo has no wizard left" in ends[0].text  # type: ignore[attr-defined]
    assert state.players[0].deck == ["moss-hermit"]  # the round ended with Ana's last wizard unplayed


def test_duel_event_sentence_names_wizards_owners_and_reason() -> None:
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP])
    state = set_lineups(state, ["mist-warden", "pyre-lord", "deepwater-regent", "echo-warden", "moss-hermit"],
                        ["cinder-duelist", "deepwater-regent", "night-whisper", "tide-caller", "hollow-sage"])
    state, events = RULES.apply(state, None, {"type": "duel"})
    assert events[-1].text == "Cinder Duelist (Bo) beats Mist Warden (Ana): Fire beats Nature."


def test_both_stuck_at_once_both_take_a_token_then_swap_phase() -> None:
    team = ["sunforged-saint", *ANA_LINEUP]
    state = set_lineups(lineup_state(team, list(team)), ANA_LINEUP, ANA_LINEUP)
    state, duels, _ = play_round(state)
    assert [d["winner"] for d in duels] == [None] * 5
    assert [p.tokens for p in state.players] == [1, 1] and state.round_winners == [0, 1]
    assert state.phase is Phase.SWAP and RULES.to_act(state) == (0, 1)


def test_both_reaching_two_the_lower_team_total_wins() -> None:
    ana = ["dawn-acolyte", *ANA_LINEUP]  # waiting value 1
    bo = ["sunforged-saint", *ANA_LINEUP]  # waiting value 18
    state = set_lineups(lineup_state(ana, bo, tokens=(1, 1)), ANA_LINEUP, ANA_LINEUP)
    state, _, ends = play_round(state)
    result = RULES.result(state)
    assert result is not None and result.winners == (0,)
    assert "lower total" in result.reason and state.phase is Phase.OVER
    assert RULES.to_act(state) == () and RULES.table_action(state) is None


def test_both_reaching_two_with_equal_totals_is_a_draw() -> None:
    team = ["sunforged-saint", *ANA_LINEUP]
    state = set_lineups(lineup_state(team, list(team), tokens=(1, 1)), ANA_LINEUP, ANA_LINEUP)
    state, _, _ = play_round(state)
    result = RULES.result(state)
    assert result is not None and result.is_draw and "draw" in result.reason


def test_second_token_alone_wins_the_game() -> None:
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP], tokens=(1, 1))
    state = set_lineups(state, ANA_LINEUP, BO_LINEUP)
    state, _, _ = play_round(state)
    result = RULES.result(state)
    assert result is not None and result.winners == (0,)
    with pytest.raises(IllegalActionError, match="over"):
        RULES.apply(state, 0, {"type": "keep"})


def test_swap_changes_the_team_and_starts_the_next_round() -> None:
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP])
    state, _, _ = play_round(set_lineups(state, ANA_LINEUP, BO_LINEUP))
    state, events = RULES.apply(state, 0, {"type": "swap", "out": "moss-hermit", "in": "ember-adept"})
    assert state.players[0].team == ["sunforged-saint", *ANA_LINEUP]  # secret until both decide
    state, events = RULES.apply(state, 1, {"type": "keep"})
    assert "ember-adept" in state.players[0].team and "moss-hermit" not in state.players[0].team
    assert state.phase is Phase.LINEUP and state.round == 2
    assert [e.text for e in events if e.kind == "swap"] == ["Ana swapped one wizard.", "Bo kept the same team."]
    assert all(p.discard == [] and p.zone is None for p in state.players)


ILLEGAL = [
    ("team", {"type": "team", "cards": ["pyre-lord"]}, "exactly 5"),
    ("team", {"type": "team", "cards": ["pyre-lord"] * 5}, "chosen twice"),
    ("team", {"type": "team", "cards": ["pyre-lord", "nobody", "a", "b", "c"]}, "not a Wizards Cup wizard"),
    ("team", {"type": "lineup", "order": []}, "choose 5 wizards"),
    ("lineup", {"type": "lineup", "order": ["pyre-lord", "mist-warden", "deepwater-regent", "echo-warden",
                                            "ember-adept"]}, "not in your team"),
    ("swap", {"type": "swap", "out": "sunforged-saint", "in": "ember-adept"}, "can't be swapped out"),
    ("swap", {"type": "swap", "out": "pyre-lord", "in": "mist-warden"}, "already in your team"),
    ("swap", {"type": "swap", "out": "ember-adept", "in": "hollow-sage"}, "not in your team"),
]


def state_in(phase: str) -> WizardsCupState:
    if phase == "team":
        return SPEC.new_state({}, 11, 2)
    state = lineup_state(["sunforged-saint", *ANA_LINEUP], ["lantern-knight", *BO_LINEUP])
    if phase == "swap":
        state, _, _ = play_round(set_lineups(state, ANA_LINEUP, BO_LINEUP))
    return state


@pytest.mark.parametrize("phase,data,reason", ILLEGAL)
def test_illegal_actions_are_rejected_with_reasons_and_change_nothing(phase: str, data: dict[str, object],
                                                                       reason: str) -> None:
    state = state_in(phase)
    before = state_digest(RULES, state)
    with pytest.raises(IllegalActionError) as caught:
        RULES.apply(state, 0, data)
    assert reason in caught.value.reason
    assert state_digest(RULES, state) == before


def test_displayed_card_cannot_be_picked_again() -> None:
    state = SPEC.new_state({}, 3, 2)
    displayed = state.players[0].displayed
    others = [c for c in ("pyre-lord", "mist-warden", "echo-warden", "hollow-sage", "tide-caller") if c != displayed]
    with pytest.raises(IllegalActionError, match="displayed card"):
        RULES.apply(state, 0, {"type": "team", "cards": [displayed, *others[:4]]})


@pytest.mark.parametrize("data,reason", [
    ({"type": "fly"}, "unknown action type"),
    ("duel", "JSON object"),
    ({"type": "team", "cards": "pyre-lord"}, "list of card ids"),
    ({"type": "duel", "extra": 1}, "unexpected field"),
    ({"type": "swap", "out": 3, "in": "x"}, "card id"),
])
def test_malformed_actions_are_rejected(data: object, reason: str) -> None:
    with pytest.raises(MalformedActionError, match=reason):
        RULES.parse_action(data)


def test_acting_out_of_turn_is_rejected() -> None:
    state = state_in("lineup")
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": ANA_LINEUP})
    with pytest.raises(IllegalActionError, match="not to act"):
        RULES.apply(state, 0, {"type": "lineup", "order": ANA_LINEUP})
    with pytest.raises(IllegalActionError, match="no automatic step"):
        RULES.apply(state, None, {"type": "duel"})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": BO_LINEUP})
    with pytest.raises(IllegalActionError, match="not to act"):
        RULES.apply(state, 0, {"type": "duel"})


def test_action_values_round_trip_through_json() -> None:
    for action in (ChooseTeam(("a", "b")), SetLineup(("x",)), PlayDuel(), Swap("a", "b"), KeepTeam()):
        assert RULES.parse_action(RULES.action_to_json(action)) == action


def test_options_are_validated_and_change_the_target() -> None:
    from engine.core.errors import InvalidOptionsError

    state = SPEC.new_state({"tokens_to_win": 1}, 5, 2)
    assert state.tokens_to_win == 1
    with pytest.raises(InvalidOptionsError):
        SPEC.new_state({"tokens_to_win": 9}, 5, 2)
    with pytest.raises(InvalidOptionsError):
        SPEC.new_state({}, 5, 3)


def test_state_from_json_refuses_what_is_not_a_state() -> None:
    with pytest.raises(ValueError, match="not a Wizards Cup state"):
        RULES.state_from_json({"players": [{"nickname": "x"}], "phase": "team"})
