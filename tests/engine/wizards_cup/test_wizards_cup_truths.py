"""Wizards Cup's small truths: lineups open in last round's order, powers say whose they are, counts agree."""

from __future__ import annotations

from engine.wizards_cup.duel import resolve_duel
from engine.wizards_cup.state import Phase, WizardsCupState, opening_lineup
from tests.helpers.wizards_cup_helpers import RULES, lineup_state, side

ANA = ["sunforged-saint", "pyre-lord", "mist-warden", "deepwater-regent", "echo-warden", "moss-hermit"]
BO = ["lantern-knight", "deepwater-regent", "cinder-duelist", "night-whisper", "tide-caller", "hollow-sage"]
ANA_ORDER = ["echo-warden", "moss-hermit", "sunforged-saint", "pyre-lord", "deepwater-regent"]
"""Not team order: Mist Warden waits."""


def round_two(ana_choice: dict[str, object]) -> WizardsCupState:
    """Round 1 with Ana's :data:`ANA_ORDER`, then her ``ana_choice`` at the swap and Bo keeping."""
    state = lineup_state(ANA, BO)
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": ANA_ORDER})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": BO[:5]})
    while RULES.table_action(state) is not None:
        state, _ = RULES.apply(state, None, {"type": "duel"})
    assert state.phase is Phase.SWAP
    state, _ = RULES.apply(state, 0, ana_choice)
    state, _ = RULES.apply(state, 1, {"type": "keep"})
    assert state.phase is Phase.LINEUP and state.round == 2
    return state


def test_round_one_opens_in_team_order() -> None:
    assert RULES.view(lineup_state(ANA, BO), 0).players[0].opening_lineup() == tuple(ANA)


def test_a_kept_team_opens_in_last_rounds_order_with_the_same_waiting_card() -> None:
    view = RULES.view(round_two({"type": "keep"}), 0)
    assert view.players[0].opening_lineup() == (*ANA_ORDER, "mist-warden")


def test_a_swapped_in_wizard_takes_the_place_of_the_one_it_replaced() -> None:
    view = RULES.view(round_two({"type": "swap", "out": "moss-hermit", "in": "ember-adept"}), 0)
    assert view.players[0].opening_lineup() == (
        "echo-warden", "ember-adept", "sunforged-saint", "pyre-lord", "deepwater-regent", "mist-warden")


def test_swapping_out_the_waiting_card_makes_the_newcomer_wait() -> None:
    view = RULES.view(round_two({"type": "swap", "out": "mist-warden", "in": "ember-adept"}), 0)
    assert view.players[0].opening_lineup() == (*ANA_ORDER, "ember-adept")


def test_last_rounds_order_is_seen_only_by_its_owner() -> None:
    state = round_two({"type": "keep"})
    assert RULES.view(state, 0).players[0].lineup == tuple(ANA_ORDER)
    assert RULES.view(state, 1).players[0].lineup is None
    assert RULES.view(state, None).players[0].lineup is None
    assert RULES.view(state, 1).players[0].opening_lineup() == ()


def test_opening_lineup_ignores_cards_no_longer_in_the_team() -> None:
    assert opening_lineup(["a", "b", "c"], ["c", "x", "a"]) == ("c", "a", "b")


def test_a_clash_says_whose_power_is_whose() -> None:
    whisper = side("night-whisper", fresh=True)
    saint = side("sunforged-saint", fresh=True, discard=("pyre-lord", "mist-warden"))
    outcome = resolve_duel((whisper, saint), 3, ("Ana", "Bo"))
    assert outcome.why == "Ana's Night Whisper and Bo's Sunforged Saint clash and cancel, so Light beats Shadow"


def test_the_same_power_on_both_sides_names_both_owners_in_the_event() -> None:
    state = lineup_state(["hollow-sage", *ANA[1:]], BO)
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": ["hollow-sage", *ANA[1:5]]})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": ["hollow-sage", *BO[1:5]]})
    _, events = RULES.apply(state, None, {"type": "duel"})
    duel = next(event for event in events if event.kind == "duel")
    assert "Ana's Hollow Sage and Bo's Hollow Sage agree" in duel.text
    assert duel.data["why"] == "Ana's Hollow Sage and Bo's Hollow Sage agree"


def test_a_power_from_the_discard_pile_names_its_owner() -> None:
    tide = side("deepwater-regent", discard=("tide-caller",))
    outcome = resolve_duel((side("deepwater-regent"), tide), 2, ("Ana", "Bo"))
    assert outcome.winner == 1 and outcome.why == "equal values, and Bo's Tide Caller wins the tie"


def test_a_one_token_game_is_won_with_one_cup_token() -> None:
    state = lineup_state(ANA, BO)
    state.tokens_to_win = 1
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": ANA[1:]})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": BO[1:]})
    while RULES.table_action(state) is not None:
        state, _ = RULES.apply(state, None, {"type": "duel"})
    result = RULES.result(state)
    assert result is not None and result.reason == "Ana holds 1 Cup Token and wins the Cup."


def test_both_reaching_one_token_together_reads_in_the_singular() -> None:
    common = ["mist-warden", "deepwater-regent", "brine-witch", "cinder-duelist", "lantern-knight"]
    state = lineup_state(["pyre-lord", *common], ["echo-warden", *common])
    state.tokens_to_win = 1
    for seat in (0, 1):
        state, _ = RULES.apply(state, seat, {"type": "lineup", "order": common})
    while RULES.table_action(state) is not None:
        state, _ = RULES.apply(state, None, {"type": "duel"})
    result = RULES.result(state)
    assert result is not None and result.reason.startswith("Both reach 1 Cup Token together")
