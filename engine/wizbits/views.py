"""What one seat may know of a Wizbits game.

A view keeps public things (cards in play, discard piles, the Pillar, counts)
and the seat's own hand and pending choice. It never holds the opponent's hand
or either deck's order: decks appear only as counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.wizbits.continuous import has_attribute, points_of
from engine.wizbits.dice import MainPoints
from engine.wizbits.pillar.json_form import pillar_to_json
from engine.wizbits.state import RULES_VERSION, Permanent, WizbitsState
from engine.wizbits.terms import Attribute
from engine.wizbits.unit_targets import TargetView, WaitingTrigger, pillar_targets, waiting_triggers


@dataclass(frozen=True)
class PermanentView:
    """A card in play as everyone sees it.

    Attributes:
        iid: Its instance id.
        card_id: The printed card.
        owner: Its owner and controller.
        is_main: Whether it is its owner's Main Character.
        seceded: Flipped (its flip abilities are live).
        damage: Points of damage on it.
        points: Current Main Points (Characters; the SCN includes damage), else None.
        attributes: Current attributes, printed and granted.
        turn_steps: Main Point changes until end of turn (stat -> die-level steps), as played on the table.
        lasting_steps: Main Point changes for good.
        turn_attributes: Attributes granted until end of turn.
        lasting_attributes: Attributes granted for good.
        tough_used: Tough already ignored a point of damage this turn (everyone saw it).
    """

    iid: int
    card_id: str
    owner: int
    is_main: bool
    seceded: bool
    damage: int
    points: MainPoints | None
    attributes: tuple[str, ...]
    turn_steps: tuple[tuple[str, int], ...] = ()
    lasting_steps: tuple[tuple[str, int], ...] = ()
    turn_attributes: tuple[str, ...] = ()
    lasting_attributes: tuple[str, ...] = ()
    tough_used: bool = False


@dataclass(frozen=True)
class PlayerView:
    """One seat as the viewer may see it.

    Attributes:
        name: Display name.
        deck_name: The deck it plays.
        main: Its Main Character's iid.
        deck_count: Cards left in the deck (never their order).
        hand_count: Cards in hand.
        hand: The hand's iids, only in the seat's own view.
        discard: The discard pile as (iid, card id), oldest first.
        in_play: Its cards in play.
        points: Granted Secession points waiting for its next payment.
    """

    name: str
    deck_name: str
    main: int
    deck_count: int
    hand_count: int
    hand: tuple[int, ...] | None
    discard: tuple[tuple[int, str], ...]
    in_play: tuple[PermanentView, ...]
    points: int


@dataclass(frozen=True)
class WizbitsView:
    """A seat's (or a spectator's, ``seat=None``) view of the game.

    ``cards`` maps every iid the viewer may identify (public zones, the pillar,
    their own hand) to its card id; the rest are unknown to them. ``targets``
    (each pillar unit's chosen targets, by uid) and ``waiting`` (triggers set
    off outside a pillar, for the next one) are public, so every seat gets them.
    So are the last fields, which a bot needs to rebuild a whole state from
    what it may know (:mod:`engine.wizbits.bots.determinize`): the rules version,
    the pillar's pass count and units added, whether the last Elements Phase
    was quiet, and the waiting triggers' payloads.
    """

    seat: int | None
    format: str
    rtf: int
    turn: int
    active: int
    first: int
    phase: str
    play_round: int
    priority: int | None
    resolving: bool
    pillar: dict[str, Any] | None
    players: tuple[PlayerView, ...]
    cards: dict[int, str]
    attackers: tuple[int, ...]
    blocks: tuple[tuple[int, int], ...]
    battles: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    battle: int
    divided: tuple[bool, bool]
    pending: dict[str, Any] | None
    over: bool
    winner: int | None
    reason: str
    targets: dict[int, tuple[TargetView, ...]] = field(default_factory=dict)
    waiting: tuple[WaitingTrigger, ...] = ()
    rules_version: int = RULES_VERSION
    passes: int = 0
    units_added: int = 0
    quiet_elements: bool = False
    waiting_payloads: tuple[dict[str, Any], ...] = ()


def _permanent_view(state: WizbitsState, permanent: Permanent) -> PermanentView:
    card = state.card(permanent.iid)
    points = points_of(state, permanent) if card.is_character else None
    attributes = tuple(attribute.value for attribute in Attribute if has_attribute(state, permanent, attribute))
    return PermanentView(permanent.iid, card.card_id, permanent.owner,
                         state.players[permanent.owner].main == permanent.iid, permanent.seceded,
                         permanent.damage, points, attributes,
                         tuple(sorted(permanent.turn_steps.items())), tuple(sorted(permanent.lasting_steps.items())),
                         tuple(permanent.turn_attributes), tuple(permanent.lasting_attributes), permanent.tough_used)


def make_view(state: WizbitsState, seat: int | None) -> WizbitsView:
    """The view of ``seat`` (None: a spectator, who sees no hand)."""
    known: dict[int, str] = {}
    players = []
    for index, player in enumerate(state.players):
        own = seat == index
        for iid in player.discard:
            known[iid] = state.cards[iid]
        for permanent in player.in_play:
            known[permanent.iid] = state.cards[permanent.iid]
        if own:
            for iid in player.hand:
                known[iid] = state.cards[iid]
        players.append(PlayerView(
            player.name, player.deck_name, player.main, len(player.deck), len(player.hand),
            tuple(player.hand) if own else None,
            tuple((iid, state.cards[iid]) for iid in player.discard),
            tuple(_permanent_view(state, permanent) for permanent in player.in_play),
            player.points,
        ))
    pillar = None
    if state.pillar is not None:
        pillar = pillar_to_json(state.pillar)
        for unit in state.pillar.units():
            source = unit.payload.get("iid")
            if isinstance(source, int):
                known[source] = state.cards[source]
    pending = state.pending[0] if state.pending and state.pending[0].get("seat") == seat else None
    return WizbitsView(
        seat=seat, format=state.format, rtf=state.rtf, turn=state.turn, active=state.active, first=state.first,
        phase=state.phase, play_round=state.play_round, priority=state.priority, resolving=state.resolving,
        pillar=pillar, players=tuple(players), cards=known, attackers=tuple(state.attackers),
        blocks=tuple(sorted(state.blocks.items())),
        battles=tuple((tuple(b.attackers), tuple(b.defenders)) for b in state.battles), battle=state.battle,
        divided=(state.division[0] is not None, state.division[1] is not None),
        pending=None if pending is None else dict(pending),
        over=state.over, winner=state.winner, reason=state.reason,
        targets=pillar_targets(state), waiting=waiting_triggers(state),
        rules_version=state.rules_version, passes=state.passes, units_added=state.units_added,
        quiet_elements=state.quiet_elements,
        waiting_payloads=tuple(dict(trigger) for trigger in state.waiting_triggers),
    )
