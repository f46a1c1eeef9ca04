"""Shared by test_wizards_cup_rules.py and other test modules, which import them from here.

ANA_LINEUP, BO_LINEUP, play_round, set_lineups, moved here from tests/engine/wizards_cup/test_wizards_cup_rules.py.
"""

from __future__ import annotations

from engine.wizards_cup.state import WizardsCupState
from tests.helpers.wizards_cup_helpers import RULES

ANA_LINEUP = ["pyre-lord", "mist-warden", "deepwater-regent", "echo-warden", "moss-hermit"]
BO_LINEUP = ["deepwater-regent", "cinder-duelist", "night-whisper", "tide-caller", "hollow-sage"]


def set_lineups(state: WizardsCupState, first: list[str], second: list[str]) -> WizardsCupState:
    state, _ = RULES.apply(state, 0, {"type": "lineup", "order": first})
    state, _ = RULES.apply(state, 1, {"type": "lineup", "order": second})
    return state


def play_round(state: WizardsCupState) -> tuple[WizardsCupState, list[dict[str, object]], list[object]]:
    duels, ends = [], []
    while RULES.table_action(state) is not None:
        state, events = RULES.apply(state, None, {"type": "duel"})
        duels += [dict(e.data) for e in events if e.kind == "duel"]
        ends += [e for e in events if e.kind in ("round_end", "game_end")]
    return state, duels, ends
