"""Paying costs in Secession points.

Points granted by effects are spent first. The rest is gathered just before
paying: the top card of the deck gives 1, seceding a card you control gives 2
(3 with Offering). Gathering must not overpay: if the payment would still be
enough without one of its sources, it gathers too much. Whatever is left of
the granted points vanishes once the cost is paid.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.contract import Event
from engine.core.errors import IllegalActionError
from engine.core.words import plural
from engine.wizbits.actions import Payment
from engine.wizbits.continuous import has_attribute
from engine.wizbits.effects import GainPoints, Target
from engine.wizbits.state import JsonDict, WizbitsState
from engine.wizbits.terms import Attribute

SECEDE_POINTS = 2
OFFERING_POINTS = 3


def _points(count: int) -> str:
    return f"{count} Secession point" if count == 1 else f"{count} Secession points"


def secede_value(state: WizbitsState, iid: int) -> int:
    """Points for seceding card ``iid`` (it must be in play) to pay a cost.

    2, or 3 with Offering, plus the points its own flip Income grants you as it
    flips: those arrive while the cost is being gathered, so they count toward it.
    """
    permanent = state.permanent(iid)
    assert permanent is not None
    base = OFFERING_POINTS if has_attribute(state, permanent, Attribute.OFFERING) else SECEDE_POINTS
    # A flip Income that waits for a chosen target happens after the payment, so it doesn't count.
    return base + sum(effect.amount for ability in state.card(iid).flip_incomes
                      if not any(other.target.is_chosen for other in ability.effects)
                      for effect in ability.effects
                      if isinstance(effect, GainPoints) and effect.target is Target.YOU)


def secedable(state: WizbitsState, seat: int, exclude: int | None = None) -> list[int]:
    """Cards ``seat`` may secede to pay: its own cards in play, not yet seceded, never its Main Character."""
    player = state.players[seat]
    return [permanent.iid for permanent in player.in_play
            if not permanent.seceded and permanent.iid != player.main and permanent.iid != exclude]


def check_payment(state: WizbitsState, seat: int, cost: int, pay: Payment, exclude: int | None = None) -> None:
    """Raise :class:`IllegalActionError` unless ``pay`` covers ``cost`` exactly enough.

    Args:
        exclude: A card that can't be seceded for points (the one whose ability is being paid for
            when its cost already secedes it).
    """
    player = state.players[seat]
    need = max(0, cost - player.points)
    if pay.deck > len(player.deck):
        raise IllegalActionError(f"your deck has only {plural(len(player.deck), 'card')} to take points from")
    allowed = set(secedable(state, seat, exclude))
    if len(set(pay.secede)) != len(pay.secede):
        raise IllegalActionError("a card can be seceded only once")
    for iid in pay.secede:
        if iid not in allowed:
            raise IllegalActionError("you can only secede your own cards in play that are not seceded, "
                                     "and never your Main Character")
    values = [secede_value(state, iid) for iid in pay.secede]
    gathered = pay.deck + sum(values)
    if gathered < need:
        # The message names the shortfall, not the whole cost.
        raise IllegalActionError(f"that gathers {_points(gathered)}; {need - gathered} more needed")
    smallest = min(values + ([1] if pay.deck else []), default=None)
    if smallest is not None and gathered - smallest >= need:
        raise IllegalActionError(f"that gathers {_points(gathered)}, more than the {need} needed")


def payment_options(state: WizbitsState, seat: int, cost: int, exclude: int | None = None) -> list[Payment]:
    """The payments a player would consider: from the deck alone, or seceding one or two cards topped up from it.

    :func:`check_payment` accepts any exact payment; this list keeps the number
    of legal actions small while offering every kind of source.
    """
    player = state.players[seat]
    need = max(0, cost - player.points)
    if need == 0:
        return [Payment()]
    options = []
    if need <= len(player.deck):
        options.append(Payment(deck=need))
    candidates = secedable(state, seat, exclude)
    for size in (1, 2):
        for chosen in combinations(candidates, size):
            values = [secede_value(state, iid) for iid in chosen]
            deck = max(0, need - sum(values))
            payment = Payment(deck, tuple(chosen))
            if deck > len(player.deck) or sum(values) - min(values) >= need:
                continue
            options.append(payment)
    return options


def pay(state: WizbitsState, seat: int, cost: int, payment: Payment, events: list[Event],
        triggers: list[JsonDict]) -> None:
    """Gather and spend: granted points first, then the deck's top cards, then seceded cards."""
    from engine.wizbits.resolve import secede

    player = state.players[seat]
    if cost == 0 and not payment.deck and not payment.secede:
        return
    granted = player.points
    for _ in range(payment.deck):
        player.discard.append(player.deck.pop())
    for iid in payment.secede:
        secede(state, iid, events, triggers)
    parts = []
    if granted:
        parts.append(f"{granted} granted")
    if payment.deck:
        parts.append(f"{payment.deck} from the top of the deck")
    if payment.secede:
        names = ", ".join(state.card(iid).name for iid in payment.secede)
        parts.append(f"seceding {names}")
    player.points = 0
    events.append(Event("pay", f"{player.name} pays {cost}: {'; '.join(parts) or 'nothing'}.",
                        {"seat": seat, "cost": cost, "deck": payment.deck, "secede": list(payment.secede)}))
