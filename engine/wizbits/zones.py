"""Moving cards: drawing, discarding, milling, searching, entering and leaving play; damage and counters.

Every move keeps the state's promise that a card is in exactly one zone: a
card is first taken out of wherever it is, then put in its new place. Events
never name a card that goes into a hand or comes out of a deck unseen, so the
log can be shown to both players.
"""

from __future__ import annotations

from engine.core.contract import Event
from engine.wizbits.continuous import collect_triggers, has_attribute, is_main, points_of
from engine.wizbits.effects import CardFilter
from engine.wizbits.pillar.tree import UnitKind
from engine.wizbits.state import JsonDict, Permanent, WizbitsState, opponent
from engine.wizbits.terms import Attribute, TriggerEvent

__all__ = [
    "counter", "deal_damage", "destroy", "destroy_together", "discard_from_hand", "draw", "end_of_turn_cleanup", "enter_play", "lose",
    "mill", "return_to_hand", "search", "take_out",
]


def _who(state: WizbitsState, seat: int) -> str:
    return state.players[seat].name


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def lose(state: WizbitsState, seat: int, reason: str, events: list[Event]) -> None:
    """End the game: ``seat`` loses and the other seat wins. A game already over stays as it ended."""
    if state.over:
        return
    state.winner = opponent(seat)
    state.reason = reason
    events.append(Event("game_over", f"{_who(state, state.winner)} wins: {reason}",
                        {"winner": state.winner, "loser": seat, "reason": reason}))


def take_out(state: WizbitsState, iid: int) -> Permanent | None:
    """Remove ``iid`` from every zone of its owner; return its :class:`Permanent` if it was in play."""
    player = state.players[state.owner(iid)]
    for zone in (player.hand, player.deck, player.discard):
        if iid in zone:
            zone.remove(iid)
    perm = player.permanent(iid)
    if perm is not None:
        player.in_play.remove(perm)
    return perm


def draw(state: WizbitsState, seat: int, n: int, events: list[Event]) -> bool:
    """``seat`` draws ``n`` cards from the top of the deck.

    Returns:
        False if the deck ran out before the last draw: that player has lost
        (the state says so) and the cards drawn before it stay drawn.
    """
    player = state.players[seat]
    drawn = 0
    for _ in range(n):
        if not player.deck:
            if drawn:
                events.append(Event("draw", f"{player.name} draws {_cards(drawn)}.", {"seat": seat, "count": drawn}))
            lose(state, seat, f"{player.name} had to draw from an empty deck", events)
            return False
        player.hand.append(player.deck.pop())
        drawn += 1
    if drawn:
        events.append(Event("draw", f"{player.name} draws {_cards(drawn)}.", {"seat": seat, "count": drawn}))
    return True


def discard_from_hand(state: WizbitsState, seat: int, iids: list[int], events: list[Event]) -> None:
    """Move the given cards, in order, from ``seat``'s hand to its discard pile (cards not in hand are ignored)."""
    player = state.players[seat]
    moved = [iid for iid in iids if iid in player.hand]
    for iid in moved:
        player.hand.remove(iid)
        player.discard.append(iid)
    if moved:
        names = ", ".join(state.card(iid).name for iid in moved)
        events.append(Event("discard", f"{player.name} discards {names}.", {"seat": seat, "cards": moved}))


def mill(state: WizbitsState, seat: int, n: int, events: list[Event]) -> list[int]:
    """Put the top ``n`` cards of ``seat``'s deck (fewer if it is short) into its discard pile."""
    player = state.players[seat]
    milled = [player.deck.pop() for _ in range(min(n, len(player.deck)))]
    player.discard.extend(milled)
    if milled:
        names = ", ".join(state.card(iid).name for iid in milled)
        events.append(Event("mill", f"{player.name} mills {names}.", {"seat": seat, "cards": milled}))
    return milled


def search(state: WizbitsState, seat: int, wanted: CardFilter, n: int, events: list[Event]) -> list[int]:
    """Take the first ``n`` cards matching ``wanted`` from the top of the deck into hand, then shuffle the deck.

    The deck is shuffled even when nothing matched, so a search never tells
    anyone what is left in which order.
    """
    player = state.players[seat]
    found: list[int] = []
    for iid in reversed(player.deck):  # the top card is last
        if len(found) == n:
            break
        if wanted.matches(state.card(iid)):
            found.append(iid)
    for iid in found:
        player.deck.remove(iid)
        player.hand.append(iid)
    state.next_rng().shuffle(player.deck)
    events.append(Event("search", f"{player.name} searches the deck for {wanted.phrase}s and takes "
                        f"{_cards(len(found))}, then shuffles it.", {"seat": seat, "count": len(found)}))
    return found


def enter_play(state: WizbitsState, iid: int, seat: int) -> Permanent:
    """Put ``iid`` into play under ``seat``, fresh: no damage, no changes, not seceded."""
    take_out(state, iid)
    perm = Permanent(iid, seat)
    state.players[seat].in_play.append(perm)
    return perm


def return_to_hand(state: WizbitsState, iid: int, events: list[Event]) -> bool:
    """Return a card in play to its owner's hand; its damage and changes are gone. Never a Main Character."""
    if state.permanent(iid) is None or is_main(state, iid):
        return False
    owner = state.owner(iid)
    take_out(state, iid)
    state.players[owner].hand.append(iid)
    events.append(Event("return", f"{state.card(iid).name} returns to {_who(state, owner)}'s hand.",
                        {"iid": iid, "seat": owner}))
    return True


def destroy(state: WizbitsState, iid: int, events: list[Event], triggers: list[JsonDict]) -> bool:
    """Destroy a card in play: it goes to its owner's discard pile. Nothing destroys a Main Character.

    Its own "when this card is destroyed" abilities, and its owner's "when
    another character of yours is destroyed" ones, are collected into
    ``triggers`` while the card is still in play.

    Returns:
        Whether the card was destroyed.
    """
    perm = state.permanent(iid)
    if perm is None or is_main(state, iid):
        return False
    owner = perm.owner
    triggers.extend(collect_triggers(state, TriggerEvent.THIS_DESTROYED, iid, owner))
    if state.card(iid).is_character:
        triggers.extend(collect_triggers(state, TriggerEvent.OWN_CHARACTER_DESTROYED, iid, owner))
    take_out(state, iid)
    state.players[owner].discard.append(iid)
    events.append(Event("destroy", f"{state.card(iid).name} is destroyed.", {"iid": iid, "seat": owner}))
    return True


def destroy_together(state: WizbitsState, iids: list[int], events: list[Event], triggers: list[JsonDict]) -> None:
    """Destroy several cards in play at once (Main Characters are left alone).

    Every trigger is collected while all of them still stand, so a card
    destroyed along with another still answers "when another character of
    yours is destroyed" for it.
    """
    doomed = [iid for iid in iids if state.permanent(iid) is not None and not is_main(state, iid)]
    for iid in doomed:
        owner = state.owner(iid)
        triggers.extend(collect_triggers(state, TriggerEvent.THIS_DESTROYED, iid, owner))
        if state.card(iid).is_character:
            triggers.extend(collect_triggers(state, TriggerEvent.OWN_CHARACTER_DESTROYED, iid, owner))
    for iid in doomed:
        owner = state.owner(iid)
        take_out(state, iid)
        state.players[owner].discard.append(iid)
        events.append(Event("destroy", f"{state.card(iid).name} is destroyed.", {"iid": iid, "seat": owner}))


def end_of_turn_cleanup(state: WizbitsState, events: list[Event]) -> None:
    """The end of the turn: seceded cards are discarded, and everything "until end of turn" ends.

    Changes and attributes granted until end of turn are cleared, Tough is
    ready again, and Secession points granted by effects but not spent vanish.
    """
    for seat, player in enumerate(state.players):
        seceded = [perm.iid for perm in player.in_play if perm.seceded]
        for iid in seceded:
            take_out(state, iid)
            player.discard.append(iid)
        if seceded:
            names = ", ".join(state.card(iid).name for iid in seceded)
            events.append(Event("seceded_discarded", f"{player.name}'s seceded cards are discarded: {names}.",
                                {"seat": seat, "cards": seceded}))
        for perm in player.in_play:
            perm.turn_steps.clear()
            perm.turn_attributes.clear()
            perm.tough_used = False
        player.points = 0


def deal_damage(state: WizbitsState, iid: int, n: int, events: list[Event], triggers: list[JsonDict]) -> int:
    """Deal ``n`` damage to a character in play; each point raises its SCN by one.

    Tough ignores the first point dealt to the character each turn. Damage
    that lands sets off the character's "when this character is dealt damage".

    Returns:
        The damage that landed.
    """
    perm = state.permanent(iid)
    if perm is None or n <= 0:
        return 0
    name = state.card(iid).name
    if not perm.tough_used and has_attribute(state, perm, Attribute.TOUGH):
        perm.tough_used = True
        n -= 1
        events.append(Event("tough", f"{name} is Tough and ignores a point of damage.", {"iid": iid}))
    if n:
        perm.damage += n
        scn = points_of(state, perm).scn
        events.append(Event("damage", f"{name} takes {n} damage (SCN {scn}).",
                            {"iid": iid, "amount": n, "damage": perm.damage, "scn": scn}))
        triggers.extend(collect_triggers(state, TriggerEvent.THIS_DAMAGED, iid, perm.owner))
    return n


def counter(state: WizbitsState, uid: int, events: list[Event], below: int | None = None) -> bool:
    """Take a unit off the Pillar unresolved; a countered card goes to its owner's discard pile.

    Args:
        below: The countering unit's height: units at that height or above
            resolve in the same step or already have, and can't be countered.

    Returns:
        Whether a unit was countered.
    """
    pillar = state.pillar
    if pillar is None:
        return False
    unit = next((unit for unit in pillar.units() if unit.uid == uid), None)
    if unit is None or (below is not None and unit.height >= below):
        return False
    pillar.remove(uid)
    if unit.kind is UnitKind.CARD:
        iid = int(unit.payload["iid"])
        take_out(state, iid)
        state.players[state.owner(iid)].discard.append(iid)
    events.append(Event("counter", f"{unit.name} is countered.", {"uid": uid, "seat": unit.owner}))
    return True
