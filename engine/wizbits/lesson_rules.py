"""The Wizbits rules a lesson may name, each with the check that it happened (from the engine's events and state).

A lesson file names these (``"rules": ["secession"]``) on the step that shows
them; :mod:`engine.core.lessons.load` refuses a file where one does not happen.
A check sees the events of its step (with the silent steps after it) and the
state after them, so the two Pillar rules read the pillar while it still stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.lessons.model import LEARNER, LessonRule
from engine.core.terms import Event
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.state import Phase, WizbitsState

SPECIAL_BREAK = "Special Check Break Global Check"
"""The check a Main Character makes in the Test and the Second Test (failing it loses)."""


def _kinds(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def _phase_ended(events: Sequence[Event], phase: str) -> bool:
    return any(event.data.get("phase") == phase for event in _kinds(events, "phase_end"))


def _reconciled(events: Sequence[Event], state: Any) -> bool:
    """Reconcile (Up) ended after its player drew cards."""
    return bool(_kinds(events, "draw")) and _phase_ended(events, Phase.RECONCILE_UP)


def _tested(phase: str) -> Any:
    def happened(events: Sequence[Event], state: Any) -> bool:
        """A Main Character made the Special Check Break Global Check, and the phase ended (or, failed, the game)."""
        assert isinstance(state, WizbitsState)
        checked = any(event.data.get("check") == SPECIAL_BREAK for event in _kinds(events, "check"))
        lost = bool(_kinds(events, "game_over")) and state.phase == phase
        return checked and (_phase_ended(events, phase) or lost)
    return happened


def _subpillar(events: Sequence[Event], state: Any) -> bool:
    """The learner used an ability, and the pillar standing now has a subpillar."""
    assert isinstance(state, WizbitsState)
    used = any(event.data.get("seat") == LEARNER for event in _kinds(events, "activate"))
    return used and state.pillar is not None and state.pillar.has_subpillars


def _iph(events: Sequence[Event], state: Any) -> bool:
    """A card stands at the height of a unit of another branch with a different IPH: IPH will decide between them."""
    assert isinstance(state, WizbitsState)
    if state.pillar is None:
        return False
    units = [unit for unit in state.pillar.units() if unit.height > 0]
    return any(card.kind is UnitKind.CARD and other.branch != card.branch and other.height == card.height
               and other.iph != card.iph for card in units for other in units)


def _seceded_to_pay(events: Sequence[Event], state: Any) -> bool:
    """The learner paid a cost by seceding a card."""
    return any(event.data.get("seat") == LEARNER and event.data.get("secede") for event in _kinds(events, "pay"))


def _conflict(events: Sequence[Event], state: Any) -> bool:
    """The Conflict formed a battle with one of the learner's characters in it."""
    assert isinstance(state, WizbitsState)
    learner = {perm.iid for perm in state.players[LEARNER].in_play}
    return any(learner & {iid for side in battle for iid in side}
               for event in _kinds(events, "battles") for battle in event.data.get("battles", []))


def _damage_pillar(events: Sequence[Event], state: Any) -> bool:
    """A Damage pillar resolved damage, then its base had the fighters check."""
    return (bool(_kinds(events, "damage")) and any(event.data.get("special") for event in _kinds(events, "check"))
            and _phase_ended(events, Phase.DAMAGE))


RULES: dict[str, LessonRule] = {
    "reconcile": LessonRule("Reconcile", _reconciled),
    "test": LessonRule("the Test phase", _tested(Phase.TEST)),
    "pillar-subpillar": LessonRule("a Pillar with a Subpillar", _subpillar),
    "iph": LessonRule("IPH", _iph),
    "secession": LessonRule("Secession", _seceded_to_pay),
    "conflict": LessonRule("a Conflict", _conflict),
    "damage-pillar": LessonRule("a Damage Pillar", _damage_pillar),
    "second-test": LessonRule("the Second Test", _tested(Phase.SECOND_TEST)),
}
"""Every rule a Wizbits lesson may name, by its name in the file."""
