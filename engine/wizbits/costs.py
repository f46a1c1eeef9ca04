"""What a play costs besides its Secession points, read from a view, in words.

A Trigger ability may also cost a random discard and seceding its own card;
seceding any card (for points or as a cost) flips it, so its flip Incomes
happen at once, its flip abilities come into force, and the owner's cards
that answer "when you secede another card" are set off. These queries say so
before the player pays; they read only a :class:`WizbitsView` (public cards
and the seat's own hand size), so any screen may ask them.
"""

from __future__ import annotations

from engine.core.words import plural
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.model import Ability
from engine.wizbits.terms import AbilityType, TriggerEvent
from engine.wizbits.text import ability_text
from engine.wizbits.views import PermanentView, WizbitsView


def _permanent(view: WizbitsView, iid: int) -> PermanentView | None:
    return next((p for player in view.players for p in player.in_play if p.iid == iid), None)


def _live(permanent: PermanentView) -> tuple[Ability, ...]:
    card = CARDS_BY_ID[permanent.card_id]
    return card.flip_abilities if permanent.seceded else card.abilities


def secede_effects(view: WizbitsView, iid: int) -> tuple[str, ...]:
    """What seceding card ``iid`` (in play, not seceded) sets going, one sentence each.

    Its flip Incomes happen as it flips; its other flip abilities come into
    force; its own abilities stop; and each other card of its owner that
    answers "when you secede another card" goes on the Pillar.
    """
    permanent = _permanent(view, iid)
    if permanent is None or permanent.card_id not in CARDS_BY_ID:
        return ()
    card = CARDS_BY_ID[permanent.card_id]
    said: list[str] = []
    for ability in card.flip_abilities:
        when = "As it flips" if ability.type is AbilityType.INCOME else "While seceded"
        said.append(f"{when}: {ability_text(ability)}")
    if not card.flip_abilities:
        said.append(f"{card.name} has no flip ability.")
    if card.abilities:
        said.append(f"Its own {'ability stops' if len(card.abilities) == 1 else 'abilities stop'} while seceded.")
    for other in view.players[permanent.owner].in_play:
        if other.iid == iid or other.card_id not in CARDS_BY_ID:
            continue
        for ability in _live(other):
            if ability.type is AbilityType.TRIGGER_CONTINUE and ability.trigger is TriggerEvent.YOU_SECEDE_ANOTHER:
                said.append(f"Sets off {CARDS_BY_ID[other.card_id].name}: {ability_text(ability)}")
    return tuple(said)


def side_costs(view: WizbitsView, seat: int, iid: int, ability: int | None) -> tuple[str, ...]:
    """What playing card ``iid`` (``ability`` None) or using its ability costs besides Secession points.

    A card play costs points only. A Trigger ability may add a random discard
    from the hand and seceding its own card (for no points), with what that
    secession sets going (see :func:`secede_effects`).
    """
    if ability is None:
        return ()
    permanent = _permanent(view, iid)
    if permanent is None or permanent.card_id not in CARDS_BY_ID:
        return ()
    abilities = _live(permanent)
    if not 0 <= ability < len(abilities) or abilities[ability].cost is None:
        return ()
    cost = abilities[ability].cost
    assert cost is not None
    said: list[str] = []
    if cost.discard:
        held = view.players[seat].hand_count
        said.append(f"Discard {plural(cost.discard, 'card')} at random from your hand "
                    f"({plural(held, 'card')} in hand).")
    if cost.secede_this:
        said.append(f"Secede {CARDS_BY_ID[permanent.card_id].name} (it gives no points).")
        said.extend(secede_effects(view, iid))
    return tuple(said)
