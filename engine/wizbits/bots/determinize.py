"""Whole Wizbits states that a seat's view could have come from, sampled for the Hard bot's search.

A view shows the public zones, counts and the seat's own hand. What it hides
is drawn here: the opponent's hand and both decks' cards and order (from the
deck lists those cards could come from), the opponent's secret damage split
(left undecided, so the search asks the opponent again) and all future chance
(a fresh seed: the real game's dice are never reused). Nothing is read but the
view, so two states with the same view give the same samples.

Where the hidden cards come from: a seat playing a starter deck (the view
names its deck) holds that deck's cards less those already seen. Any other
deck list is unknown, so its unseen cards are drawn from the starter deck that
shares the most card kinds with what the seat has shown (both starters when
they tie), less the cards seen: a deck list is built from the same card set, and a starter is a
fair guess at its mix of Characters, Elements and Non-Elements.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.state import Battle, Permanent, PlayerState, WizbitsState
from engine.wizbits.views import PermanentView, WizbitsView

_STARTERS_BY_NAME = {starter.name: starter for starter in STARTER_DECKS.values()}


def _pillar_iids(pillar: dict[str, Any] | None) -> Iterator[tuple[int, int, str]]:
    """(iid, owner, kind) of every unit standing on the pillar (a countered card is already discarded)."""
    if pillar is None:
        return
    for unit in [*pillar.get("units", []), *pillar.get("continues", [])]:
        if not isinstance(unit, dict):
            continue
        iid = unit.get("payload", {}).get("iid")
        if isinstance(iid, int):
            yield iid, int(unit["owner"]), str(unit["kind"])


def seen_cards(view: WizbitsView, seat: int) -> list[str]:
    """The card ids of every card from ``seat``'s deck that the view shows: in play, discarded, on the pillar, in hand."""
    player = view.players[seat]
    seen = [card_id for _, card_id in player.discard]
    seen += [perm.card_id for perm in player.in_play]
    seen += [view.cards[iid] for iid, owner, kind in _pillar_iids(view.pillar) if kind == "card" and owner == seat]
    if player.hand is not None:
        seen += [view.cards[iid] for iid in player.hand]
    return seen


def deck_pool(view: WizbitsView, seat: int) -> Counter[str]:
    """The card ids ``seat``'s hidden cards (hand and deck) are drawn from: its deck list less what was seen."""
    seen = Counter(seen_cards(view, seat))
    starter = _STARTERS_BY_NAME.get(view.players[seat].deck_name)
    if starter is not None:
        lists = [starter.deck]
    else:
        shared = {deck_id: len(seen.keys() & dict(s.deck.counts).keys()) for deck_id, s in STARTER_DECKS.items()}
        most = max(shared.values())
        lists = [STARTER_DECKS[deck_id].deck for deck_id, count in shared.items() if count == most]
    pool: Counter[str] = Counter()
    for deck in lists:
        pool.update(dict(deck.counts))
    pool.subtract(seen)
    return +pool  # drops what was seen more often than the list holds (a deck list under a starter's name)


def _draw(pool: Counter[str], count: int, fallback: list[str], rng: random.Random) -> list[str]:
    """``count`` card ids drawn without replacement from ``pool`` (then from ``fallback`` if it runs dry)."""
    cards = sorted(pool.elements())
    rng.shuffle(cards)
    while len(cards) < count:
        cards.append(rng.choice(fallback))
    return cards[:count]


def _free_iids(taken: Iterable[int], count: int) -> list[int]:
    """The ``count`` smallest instance ids not ``taken``."""
    used, found, iid = set(taken), list[int](), 0
    while len(found) < count:
        if iid not in used:
            found.append(iid)
        iid += 1
    return found


def _permanent(perm: PermanentView) -> Permanent:
    return Permanent(perm.iid, perm.owner, perm.seceded, perm.damage, dict(perm.turn_steps),
                     dict(perm.lasting_steps), list(perm.turn_attributes), list(perm.lasting_attributes),
                     perm.tough_used)


def determinize(view: WizbitsView, rng: random.Random) -> WizbitsState:
    """A whole state consistent with ``view`` (a seat's own view), its secrets drawn with ``rng``.

    Raises:
        ValueError: ``view`` is a spectator's (it has no seat to search for).
    """
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to determinize for")
    known: dict[int, tuple[str, int]] = {}
    for seat, player in enumerate(view.players):
        for iid, card_id in player.discard:
            known[iid] = (card_id, seat)
        for perm in player.in_play:
            known[perm.iid] = (perm.card_id, seat)
        for iid in player.hand or ():
            known[iid] = (view.cards[iid], seat)
    for iid, owner, _ in _pillar_iids(view.pillar):
        known.setdefault(iid, (view.cards.get(iid, view.players[owner].in_play[0].card_id), owner))
    hidden_counts = [(0 if player.hand is not None else player.hand_count) + player.deck_count
                     for player in view.players]
    free = _free_iids(known, sum(hidden_counts))
    size = max([*known, *free], default=-1) + 1
    filler = view.players[0].in_play[0].card_id
    cards, owners = [filler] * size, [0] * size
    for iid, (card_id, owner) in known.items():
        cards[iid], owners[iid] = card_id, owner
    players = []
    for seat, player in enumerate(view.players):
        mine, free = free[:hidden_counts[seat]], free[hidden_counts[seat]:]
        fallback = [card_id for card_id, _ in STARTER_DECKS[next(iter(STARTER_DECKS))].deck.counts]
        drawn = _draw(deck_pool(view, seat), len(mine), fallback, rng)
        for iid, card_id in zip(mine, drawn, strict=True):
            cards[iid], owners[iid] = card_id, seat
        rng.shuffle(mine)
        if player.hand is not None:
            hand, deck = list(player.hand), mine
        else:
            hand, deck = mine[:player.hand_count], mine[player.hand_count:]
        players.append(PlayerState(player.name, player.deck_name, player.main, deck=deck, hand=hand,
                                   discard=[iid for iid, _ in player.discard],
                                   in_play=[_permanent(perm) for perm in player.in_play], points=player.points))
    # The opponent's damage split is secret until both have divided: it is asked again in the search.
    division: list[dict[int, int] | None] = [None, None]
    return WizbitsState(
        seed=rng.getrandbits(62), format=view.format, rtf=view.rtf, cards=cards, owners=owners, players=players,
        first=view.first, active=view.active, turn=view.turn, phase=view.phase, play_round=view.play_round,
        quiet_elements=view.quiet_elements, pillar=None if view.pillar is None else parse_pillar(view.pillar),
        resolving=view.resolving, priority=view.priority, passes=view.passes, units_added=view.units_added,
        battles=[Battle(list(attackers), list(defenders)) for attackers, defenders in view.battles],
        battle=view.battle, attackers=list(view.attackers), blocks=dict(view.blocks), division=division,
        waiting_triggers=[dict(trigger) for trigger in view.waiting_payloads],
        pending=[] if view.pending is None else [dict(view.pending)],
        winner=view.winner, ended=view.over and view.winner is None, reason=view.reason,
        rules_version=view.rules_version,
    )
