"""The Wizbits game state: zones, cards in play, the turn's place and the Pillar.

Every physical card gets an instance id (``iid``) when the game starts, so
two copies of a card are told apart and each can be found in exactly one
zone: a deck, a hand, a discard pile, in play, or on the Pillar. The state is
plain data with a JSON form (:func:`state_to_json` / :func:`state_from_json`);
the rules live in :mod:`engine.wizbits.rules` and :mod:`engine.wizbits.resolve`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.plain import plain_fields
from engine.core.rng import seeded_rng
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.model import Card
from engine.wizbits.pillar.json_form import parse_pillar, pillar_to_json
from engine.wizbits.pillar.tree import Pillar

JsonDict = dict[str, Any]

HAND_SIZE = 7
"""Reconcile brings the hand to exactly this many cards (up) or at most this many (down)."""


class Phase:
    """Where the turn stands. Plain strings, so they read well in saves."""

    RECONCILE_UP = "reconcile_up"
    TEST = "test"
    ELEMENTS = "elements"
    NON_ELEMENTS = "non_elements"
    CHARACTERS = "characters"
    ATTACK = "attack"
    BLOCK = "block"
    ASSIGN = "assign"
    RESPOND = "respond"
    DIVIDE = "divide"
    DAMAGE = "damage"
    SECOND_TEST = "second_test"
    RECONCILE_DOWN = "reconcile_down"

    PILLARS = frozenset({ELEMENTS, NON_ELEMENTS, CHARACTERS, RESPOND, DAMAGE})
    """Phases that build and resolve a pillar."""

    CONFLICT_SPEED_ONLY = frozenset({RESPOND, DAMAGE})
    """Pillars where only Conflict Speed units may be played."""

    LABELS: Mapping[str, str] = {
        RECONCILE_UP: "Reconcile (Up)", TEST: "Test", ELEMENTS: "Elements", NON_ELEMENTS: "Non-Elements",
        CHARACTERS: "Characters", ATTACK: "Conflict: attackers", BLOCK: "Conflict: blockers",
        ASSIGN: "Conflict: assignments", RESPOND: "Battle (Respond)", DIVIDE: "Battle (Damage): dividing",
        DAMAGE: "Battle (Damage)", SECOND_TEST: "Second Test", RECONCILE_DOWN: "Reconcile (Down)",
    }


@dataclass
class Permanent:
    """A card in play: a Character or a Non-Element.

    Attributes:
        iid: The card instance.
        owner: Its owner and controller.
        seceded: Flipped: its flip abilities replace its abilities; discarded at end of turn.
        damage: Points of damage; each raises the SCN by one.
        turn_steps: Main Point changes (stat name -> die-level steps) until end of turn.
        lasting_steps: Permanent Main Point changes.
        turn_attributes: Attributes granted until end of turn.
        lasting_attributes: Attributes granted for good.
        tough_used: Tough already ignored a point of damage this turn.
    """

    iid: int
    owner: int
    seceded: bool = False
    damage: int = 0
    turn_steps: dict[str, int] = field(default_factory=dict)
    lasting_steps: dict[str, int] = field(default_factory=dict)
    turn_attributes: list[str] = field(default_factory=list)
    lasting_attributes: list[str] = field(default_factory=list)
    tough_used: bool = False

    def __deepcopy__(self, memo: dict[int, object]) -> Permanent:
        return Permanent(self.iid, self.owner, self.seceded, self.damage, dict(self.turn_steps),
                         dict(self.lasting_steps), list(self.turn_attributes), list(self.lasting_attributes),
                         self.tough_used)


@dataclass
class PlayerState:
    """One seat's cards.

    Attributes:
        name: Display name.
        deck_name: The starter deck or deck list it plays.
        main: The iid of its Main Character (always in play until the game ends).
        deck: Instance ids, the top card LAST (so drawing pops).
        hand: Instance ids in the order they came.
        discard: The discard pile, the newest last.
        in_play: Characters and Non-Elements in play, in the order they arrived.
        points: Secession points granted by effects, spent by the next payment this turn.
    """

    name: str
    deck_name: str
    main: int
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    in_play: list[Permanent] = field(default_factory=list)
    points: int = 0

    def __deepcopy__(self, memo: dict[int, object]) -> PlayerState:
        return PlayerState(self.name, self.deck_name, self.main, list(self.deck), list(self.hand),
                           list(self.discard), [copy.deepcopy(permanent) for permanent in self.in_play], self.points)

    def permanent(self, iid: int) -> Permanent | None:
        """The card ``iid`` if this player has it in play."""
        for permanent in self.in_play:
            if permanent.iid == iid:
                return permanent
        return None


@dataclass
class Battle:
    """One conflict: attackers against defenders, each side's characters by iid."""

    attackers: list[int]
    defenders: list[int]


RULES_VERSION = 4
"""The newest Wizbits rulings. Version 1 (sessions begun before 2026-12-01) resolved a unit's abilities all
against the step's opening state, destroyed a failed battle check before the next check was made, and left a
Continue unit on the pillar after its card left play. Version 2 follows the rulebook on all three
(docs/rules/wizbits.md). Version 3 keeps every move that showed a hidden card from being taken back, a
payment from the deck included (versions 1 and 2 stopped an undo only where a hand grew). Version 4
does not ask a side with one character to deal damage to how to divide it.
A session replays under the version it began with."""

SEQUENTIAL_RULINGS = 2
"""The first version with the rulebook's rulings on resolving, battle checks and Continue units."""

REVEALS_END_UNDO = 3
"""The first version where a move that showed a hidden card (a payment from the deck too) can't be taken back."""

ONE_TARGET_DIVIDED = 4
"""The first version where a side with one character to deal damage to has it all dealt there, unasked."""


@dataclass
class WizbitsState:
    """Everything about a game of Wizbits, secret parts included.

    Attributes:
        seed: The game's seed; every shuffle and roll derives from it.
        format: ``"constructed"`` or ``"limited"`` (where Continue abilities stand).
        rtf: Rules Text Format 1 ("Subpillar") or 2 ("Spire").
        cards: Card id of each instance, indexed by iid.
        owners: The seat whose deck each instance came from, indexed by iid.
        players: The two seats.
        first: Who took the first turn.
        active: Whose turn it is.
        turn: Turn number from 1.
        phase: A :class:`Phase` value.
        play_round: Which Play Phase this is in the turn (1, 2 or 3), while in one.
        quiet_elements: The last Elements Phase of this Play Phase ended with nobody adding a unit.
        pillar: The pillar being built or resolved, if any.
        resolving: True once both players passed in a row: the pillar resolves step by step.
        priority: Who may add units now (None outside pillars).
        passes: Passes in a row without a unit added.
        units_added: Units added to the current pillar (to tell an empty phase).
        battles: The conflicts declared this turn, in order.
        battle: Index of the battle being fought.
        attackers: Declared attackers.
        blocks: Defender iid -> the attacker it battles.
        division: Per seat, the damage it divided (target iid -> points), or None while undecided.
        waiting_triggers: Triggers set off when no pillar was open, for the next pillar.
        pending: Choices owed before play goes on (flip Income targets).
        rolls: Dice rolled so far; the next roll's generator is seeded with it.
        winner: The winning seat once the game is over (None for a draw).
        ended: The game is over (set with ``winner``; alone it means a draw).
        reason: Why the game ended.
        rules_version: The rulings the game is played under (see :data:`RULES_VERSION`).
    """

    seed: int
    format: str
    rtf: int
    cards: list[str]
    owners: list[int]
    players: list[PlayerState]
    first: int
    active: int
    turn: int = 1
    phase: str = Phase.RECONCILE_UP
    play_round: int = 0
    quiet_elements: bool = False
    pillar: Pillar | None = None
    resolving: bool = False
    priority: int | None = None
    passes: int = 0
    units_added: int = 0
    battles: list[Battle] = field(default_factory=list)
    battle: int = 0
    attackers: list[int] = field(default_factory=list)
    blocks: dict[int, int] = field(default_factory=dict)
    division: list[dict[int, int] | None] = field(default_factory=lambda: [None, None])
    waiting_triggers: list[JsonDict] = field(default_factory=list)
    pending: list[JsonDict] = field(default_factory=list)
    rolls: int = 0
    winner: int | None = None
    ended: bool = False
    reason: str = ""
    rules_version: int = RULES_VERSION

    def __deepcopy__(self, memo: dict[int, object]) -> WizbitsState:
        # Every apply copies the state, so copy by hand: the card and owner
        # tables never change after setup and are shared; the rest is copied.
        clone = copy.copy(self)
        clone.players = [copy.deepcopy(player) for player in self.players]
        clone.pillar = None if self.pillar is None else self.pillar.copy()
        clone.battles = [Battle(list(b.attackers), list(b.defenders)) for b in self.battles]
        clone.attackers = list(self.attackers)
        clone.blocks = dict(self.blocks)
        clone.division = [None if split is None else dict(split) for split in self.division]
        clone.waiting_triggers = copy.deepcopy(self.waiting_triggers)
        clone.pending = copy.deepcopy(self.pending)
        return clone

    # -- looking things up ---------------------------------------------------

    def card(self, iid: int) -> Card:
        """The printed card of instance ``iid``."""
        return CARDS_BY_ID[self.cards[iid]]

    def owner(self, iid: int) -> int:
        """The seat whose deck ``iid`` came from (it also controls the card)."""
        return self.owners[iid]

    def permanent(self, iid: int) -> Permanent | None:
        """The card ``iid`` in play, whoever controls it."""
        for player in self.players:
            found = player.permanent(iid)
            if found is not None:
                return found
        return None

    def permanents(self) -> Iterator[Permanent]:
        """Every card in play, seat 0's first."""
        for player in self.players:
            yield from player.in_play

    @property
    def over(self) -> bool:
        """True once the game has ended, won or drawn."""
        return self.ended or self.winner is not None

    def next_rng(self) -> random.Random:
        """A fresh generator for the next random event (a roll, a shuffle, a random discard)."""
        self.rolls += 1
        return seeded_rng(self.seed, "wizbits", self.rolls)


def opponent(seat: int) -> int:
    """The other seat."""
    return 1 - seat


# -- JSON -----------------------------------------------------------------------


def state_to_json(state: WizbitsState) -> JsonDict:
    """The whole state as plain JSON values (dict keys become strings)."""
    data = plain_fields(state)
    data["pillar"] = None if state.pillar is None else pillar_to_json(state.pillar)
    data["blocks"] = [[defender, attacker] for defender, attacker in state.blocks.items()]
    data["division"] = [None if split is None else [[iid, points] for iid, points in split.items()]
                        for split in state.division]
    return data


def state_from_json(data: Mapping[str, Any]) -> WizbitsState:
    """Rebuild a state from :func:`state_to_json` output.

    Raises:
        ValueError: ``data`` is not a Wizbits state.
    """
    try:
        fields_ = dict(data)
        players = [PlayerState(**{**player, "in_play": [Permanent(**item) for item in player["in_play"]]})
                   for player in fields_.pop("players")]
        pillar_data = fields_.pop("pillar")
        pillar = None if pillar_data is None else parse_pillar(pillar_data)
        blocks = {int(defender): int(attacker) for defender, attacker in fields_.pop("blocks")}
        division: list[dict[int, int] | None] = [
            None if split is None else {int(iid): int(points) for iid, points in split}
            for split in fields_.pop("division")]
        battles = [Battle(**battle) for battle in fields_.pop("battles")]
        state = WizbitsState(**fields_, players=players, pillar=pillar, blocks=blocks, division=division,
                             battles=battles)
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not a Wizbits state: {error}") from error
    if any(card_id not in CARDS_BY_ID for card_id in state.cards):
        raise ValueError("not a Wizbits state: unknown card id")
    return state
