"""The legal actions Normal and Hard consider: never a Trigger use that would only pay its cost.

The rules allow using a Trigger whose every effect found no legal target (see
:func:`engine.wizbits.plays.idle_trigger` and docs/rules/wizbits.md), but it only
spends points and cards on nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.wizbits.actions import Action, Activate
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.plays import idle_trigger
from engine.wizbits.views import WizbitsView


def is_idle_use(view: WizbitsView, action: Action) -> bool:
    """Whether ``action`` uses a Trigger ability whose every effect found no legal target."""
    if not isinstance(action, Activate):
        return False
    perm = next((perm for player in view.players for perm in player.in_play if perm.iid == action.card), None)
    if perm is None:
        return False
    card = CARDS_BY_ID[perm.card_id]
    abilities = card.flip_abilities if perm.seceded else card.abilities
    return 0 <= action.ability < len(abilities) and idle_trigger(abilities[action.ability], action.targets)


def useful_actions(view: WizbitsView, legal: Sequence[Action]) -> Sequence[Action]:
    """``legal`` without the Trigger uses that would do nothing; ``legal`` itself if nothing else is left."""
    kept = [action for action in legal if not is_idle_use(view, action)]
    return kept if kept and len(kept) < len(legal) else legal
