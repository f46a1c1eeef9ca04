"""The WitchDraft rules a lesson may name, each with the check that it happened (from the engine's events).

A lesson file names these (``"rules": ["gems"]``) on the step that shows them,
and a learner's step may accept any placement that shows one
(``"accept": "gems"``); :mod:`engine.core.lessons.load` refuses a file where one
does not happen. The eight scoring categories are checked on the learner's own
placement: it must raise that category's count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.lessons.model import LEARNER, LessonRule
from engine.core.terms import Event
from engine.witchdraft.geometry import STEP, PlacedCard, Placement, PlayArea, cells, horizontal
from engine.witchdraft.rules import RECIPE_CARDS, area_of
from engine.witchdraft.scoring import CATEGORIES, gain_counts
from engine.witchdraft.state import WitchDraftState


def _kinds(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def _learner_placements(events: Sequence[Event], state: Any) -> list[tuple[PlayArea, str, Placement]]:
    """Each card the learner placed in ``events``: the potion just before it, the card and its spot."""
    assert isinstance(state, WitchDraftState)
    area = area_of(state.players[LEARNER])
    found = []
    for event in _kinds(events, "placed"):
        data = event.data
        if data.get("seat") != LEARNER:
            continue
        card, spot = str(data["card"]), Placement(int(data["x"]), int(data["y"]), int(data["rotation"]))
        before = PlayArea(tuple(placed for placed in area.cards if placed != PlacedCard(card, spot)))
        found.append((before, card, spot))
    return found


def _drafted(events: Sequence[Event], state: Any) -> bool:
    """The learner picked, and every pick was revealed."""
    picked = any(event.data.get("seat") == LEARNER for event in _kinds(events, "picked"))
    return picked and any(str(LEARNER) in event.data.get("picks", {}) for event in _kinds(events, "revealed"))


def _perpendicular(events: Sequence[Event], state: Any) -> bool:
    """The learner placed a card touching one that lies the other way."""
    for before, _, spot in _learner_placements(events, state):
        taken = before.cell_map
        for x, y in cells(spot):
            for dx, dy in STEP.values():
                hit = taken.get((x + dx, y + dy))
                if hit is not None and horizontal(before.cards[hit[0]].placement) != horizontal(spot):
                    return True
    return False


def _scores(category: str) -> Callable[[Sequence[Event], Any], bool]:
    index = CATEGORIES.index(category)

    def happened(events: Sequence[Event], state: Any) -> bool:
        """The learner placed a card that raised this category's count."""
        assert isinstance(state, WitchDraftState)
        recipe = RECIPE_CARDS[state.players[LEARNER].recipe]
        return any(gain_counts(before, card, spot, recipe).values()[index] > 0
                   for before, card, spot in _learner_placements(events, state))
    return happened


def _passed(phase: int) -> Callable[[Sequence[Event], Any], bool]:
    def happened(events: Sequence[Event], state: Any) -> bool:
        """The learner picked from a hand passed on in this phase (not the one dealt at its start)."""
        assert isinstance(state, WitchDraftState)
        picked = any(event.data.get("seat") == LEARNER for event in _kinds(events, "picked"))
        return picked and state.phase == phase and state.pick >= 2 and not _kinds(events, "phase")
    return happened


def _phase_two(events: Sequence[Event], state: Any) -> bool:
    """Phase 1 ended: the last cards went back and phase 2's hands were dealt."""
    return any(event.data.get("phase") == 2 for event in _kinds(events, "phase"))


def _last_card(events: Sequence[Event], state: Any) -> bool:
    """The learner placed the last card of a phase 2 hand, and the game was scored."""
    return bool(_learner_placements(events, state)) and bool(_kinds(events, "game_end"))


RULES: dict[str, LessonRule] = {
    "draft": LessonRule("drafting a card", _drafted),
    "perpendicular": LessonRule("a card placed at right angles", _perpendicular),
    "companions": LessonRule("a placement scoring Companions", _scores("Companions")),
    "color-pairs": LessonRule("a placement scoring Color Pairs", _scores("Color Pairs")),
    "monochrome": LessonRule("a placement scoring Monochrome", _scores("Monochrome")),
    "gems": LessonRule("a placement scoring Gems", _scores("Gems")),
    "bonds": LessonRule("a placement scoring Bonds", _scores("Bonds")),
    "dragon-scale": LessonRule("a placement scoring Dragon Scale", _scores("Dragon Scale")),
    "flea-grass": LessonRule("a placement scoring Flea Grass", _scores("Flea Grass")),
    "fire-root": LessonRule("a placement scoring Fire Root", _scores("Fire Root")),
    "pass-next": LessonRule("a hand passed to the next seat in phase 1", _passed(1)),
    "phase-two": LessonRule("the end of phase 1 and fresh hands for phase 2", _phase_two),
    "pass-back": LessonRule("a hand passed back to the previous seat in phase 2", _passed(2)),
    "last-card": LessonRule("the last card of phase 2 placed too", _last_card),
}
"""Every rule a WitchDraft lesson may name, by its name in the file."""
