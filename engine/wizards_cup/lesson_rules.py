"""The Wizards Cup rules a lesson may name, each with the check that it happened (from the engine's events).

A lesson file names these (``"rules": ["waiting-card"]``) on the step that shows
them; :mod:`engine.core.lessons.load` refuses a file where one does not happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.lessons.model import LEARNER, LessonRule
from engine.core.terms import Event
from engine.wizards_cup.cards import CARDS, Check
from engine.wizards_cup.state import WizardsCupState


def _kinds(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def _teams_shown(events: Sequence[Event], state: Any) -> bool:
    """Both teams were chosen, the learner's holding its displayed card."""
    if not any(event.data.get("round") == 1 for event in _kinds(events, "round_start")):
        return False
    assert isinstance(state, WizardsCupState)
    learner = state.players[LEARNER]
    return learner.displayed in learner.team and len(learner.team) == 6


def _decided_by(step: str) -> Any:
    def happened(events: Sequence[Event], state: Any) -> bool:
        return any(event.data.get("step") == step for event in _kinds(events, "duel"))
    return happened


def _waiting_power(events: Sequence[Event], state: Any) -> bool:
    """A duel decided by a power that reads its owner's Waiting Card."""
    for event in _kinds(events, "duel"):
        if event.data.get("step") != "power":
            continue
        for card in event.data.get("powers", []):
            power = CARDS[card].power if card in CARDS else None
            if power is not None and any(c.check is Check.WAITING_ELEMENT for c in power.conditions):
                return True
    return False


def _cup_token(events: Sequence[Event], state: Any) -> bool:
    return any(len(event.data.get("winners", [])) == 1 for event in _kinds(events, "round_end"))


def _swapped(events: Sequence[Event], state: Any) -> bool:
    return any(event.data.get("seat") == LEARNER and event.data.get("swapped") for event in _kinds(events, "swap"))


def _tiebreak(events: Sequence[Event], state: Any) -> bool:
    """The game ended with both players reaching the Cup Tokens to win together: the lower team total decides."""
    assert isinstance(state, WizardsCupState)
    return bool(_kinds(events, "game_end")) and all(p.tokens >= state.tokens_to_win for p in state.players)


RULES: dict[str, LessonRule] = {
    "displayed-card": LessonRule("the displayed card", _teams_shown),
    "pick-five": LessonRule("picking five", _teams_shown),
    "lineup": LessonRule("a lineup", lambda events, state: bool(_kinds(events, "lineups_set"))),
    "power": LessonRule("a duel decided by a Magic Power", _decided_by("power")),
    "element": LessonRule("a duel decided by elements", _decided_by("element")),
    "value": LessonRule("a duel decided by values", _decided_by("value")),
    "waiting-card": LessonRule("the Waiting Card", _waiting_power),
    "cup-token": LessonRule("a round won for a Cup Token", _cup_token),
    "swap": LessonRule("a swap", _swapped),
    "tiebreak": LessonRule("the tiebreak", _tiebreak),
}
"""Every rule a Wizards Cup lesson may name, by its name in the file."""
