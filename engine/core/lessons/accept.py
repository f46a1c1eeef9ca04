"""Which moves a learner's step accepts: its own move, any legal move, or any legal move that shows a rule.

A step with ``"accept"`` lets the learner choose among moves that are equally
good for the lesson (WitchDraft has many spots for each card), instead of the
one spot the script plays. The condition is data: ``"any"``, or the name of one
of the game's lesson rules, checked on the events of that move alone and the
state after it. The script's own ``move`` must meet it (the loader checks that);
when the learner's earlier choices leave no legal move that meets it, any legal
move will do, so a lesson never gets stuck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import ActionError
from engine.core.lessons.model import ANY_MOVE, LEARNER, LessonRule, LessonStep
from engine.core.registry import GameSpec


def scripted(step: LessonStep, spec: GameSpec) -> Any:
    """The move the script plays for ``step`` (its ``move``, parsed).

    Raises:
        ActionError: the move is not written as the game reads moves.
    """
    return spec.rules.parse_action(step.move)


def meets(step: LessonStep, spec: GameSpec, state: Any, action: Any, book: Mapping[str, LessonRule]) -> bool:
    """Whether the learner's ``action`` meets ``step``'s condition (legality apart for an exact step).

    An exact step (no ``accept``) takes only its own move; ``"any"`` takes any
    legal move; a rule's name takes a legal move whose events show that rule.
    """
    if not step.accept:
        try:
            return bool(action == scripted(step, spec))
        except ActionError:
            return False
    try:
        after, events = spec.rules.apply(state, LEARNER, action)
    except ActionError:
        return False
    if step.accept == ANY_MOVE:
        return True
    rule = book.get(step.accept)
    return rule is not None and rule.happened(events, after)


def accepted_moves(step: LessonStep, spec: GameSpec, state: Any, book: Mapping[str, LessonRule]) -> list[Any]:
    """Every legal move of the learner that ``step`` takes now, in the game's order."""
    return [action for action in spec.rules.legal_actions(state, LEARNER) if meets(step, spec, state, action, book)]


def is_accepted(step: LessonStep, spec: GameSpec, state: Any, action: Any, book: Mapping[str, LessonRule]) -> bool:
    """Whether the lesson takes the learner's ``action`` at ``step``.

    A step with a condition no legal move meets any more (the learner's own
    earlier choices took the chance away) takes any legal move.
    """
    if meets(step, spec, state, action, book):
        return True
    if not step.accept or action not in spec.rules.legal_actions(state, LEARNER):
        return False
    return not accepted_moves(step, spec, state, book)


def move_for(step: LessonStep, spec: GameSpec, state: Any, book: Mapping[str, LessonRule]) -> Any:
    """The move ``s`` plays for the learner: the script's when the lesson takes it here, else the first that is.

    Raises:
        ActionError: an exact step's move is not written as the game reads moves.
    """
    own = scripted(step, spec)
    if not step.accept or is_accepted(step, spec, state, own, book):
        return own
    moves = accepted_moves(step, spec, state, book) or spec.rules.legal_actions(state, LEARNER)
    return moves[0] if moves else own
