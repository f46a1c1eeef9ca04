"""The Pillar Lab's values: a scenario, its parts, and a built table.

:mod:`engine.wizbits.lab.table` builds and resolves them; see its docstring for the
card and unit references (``"1/table/2"``, ``"play/3"``) used here.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from engine.core.contract import Event
from engine.core.words import plural
from engine.wizbits.pillar.tree import Pillar
from engine.wizbits.state import Phase, WizbitsState

PHASE_OF_BASE = {"turn": Phase.ELEMENTS, "damage": Phase.DAMAGE}
"""The game phase a Lab pillar stands in. Only resolution and what follows it look at it."""


class LabError(ValueError):
    """A scenario or a play the Lab refuses; the message says why.

    Attributes:
        mistakes: Every mistake found, each a message saying where it is; the error's text is them, one a line.
    """

    def __init__(self, *mistakes: str) -> None:
        self.mistakes = mistakes
        super().__init__("\n".join(mistakes))


@dataclass(frozen=True)
class LabCard:
    """A card put on the table: a card id, with damage and seceded for characters."""

    card: str
    damage: int = 0
    seceded: bool = False


@dataclass(frozen=True)
class LabSide:
    """One seat: its name, Main Character, other cards in play, hand and deck.

    ``deck`` is a starter deck id (shuffled with the scenario's seed) or card ids, top first.
    """

    name: str
    main: LabCard
    table: tuple[LabCard, ...] = ()
    hand: tuple[str, ...] = ()
    deck: str | tuple[str, ...] = ()


@dataclass(frozen=True)
class LabPlay:
    """One unit to build for ``seat``: a card from the pool, a Trigger ability of a card in play, or damage.

    Attributes:
        seat: Who plays it.
        card: A card id, for a card unit.
        source: The reference of a card in play whose Trigger ability is used.
        ability: That ability's index among the card's live abilities.
        damage: ``(character reference, points)`` pairs, for a damage unit (Damage base only).
        on: The foundation: None for the main Current Foundation, else a unit reference.
        targets: The chosen targets (references, None for "no legal choice"), in the order the effects run.
    """

    seat: int
    card: str | None = None
    source: str | None = None
    ability: int = 0
    damage: tuple[tuple[str, int], ...] = ()
    on: str | None = None
    targets: tuple[str | None, ...] = ()

    @property
    def kind(self) -> str:
        """``"card"``, ``"ability"`` or ``"damage"``."""
        return "card" if self.card is not None else "ability" if self.source is not None else "damage"


@dataclass(frozen=True)
class Scenario:
    """Everything a Lab table is built from (see the module docstring)."""

    title: str
    about: str
    sides: tuple[LabSide, LabSide]
    format: str = "constructed"
    rtf: int = 1
    base: str = "turn"
    active: int = 0
    seed: int = 1
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    plays: tuple[LabPlay, ...] = ()


@dataclass
class LabTable:
    """A built scenario: the game state and how the scenario's references map onto it.

    Attributes:
        scenario: What it was built from (its plays included).
        state: The game state; its pillar is the Lab's pillar.
        refs: Card reference -> instance id.
        units: The pillar uid of each play's unit, in play order (answers to triggers included,
            though the scenario keeps only the plays made before resolution).
        events: Everything that happened so far, setup and plays included.
        started: Resolution has begun: no more plays.
        shown: The pillar to draw: the state's, or what was left of it once it resolved.
    """

    scenario: Scenario
    state: WizbitsState
    refs: dict[str, int]
    units: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    started: bool = False
    shown: Pillar | None = None

    @property
    def done(self) -> bool:
        """The pillar has resolved (or the game ended on the way)."""
        return self.state.over or self.state.phase != PHASE_OF_BASE[self.scenario.base]

    @property
    def priority(self) -> int | None:
        """The seat holding Priority while resolution waits for an answer to triggers, else None.

        Triggers set off by a step reopen Priority as in a game: the holder may
        add units, then passes; two passes in a row and resolution goes on.
        """
        state = self.state
        if not self.started or self.done or state.resolving or state.pending:
            return None
        return state.priority

    @property
    def pillar(self) -> Pillar:
        """The pillar as it stands now (after the end, the base and any Continue units)."""
        if self.shown is not None and self.done:
            return self.shown
        assert self.state.pillar is not None
        return self.state.pillar

    def copy(self) -> LabTable:
        """An independent copy (the state is copied the way every game action copies it)."""
        return LabTable(self.scenario, copy.deepcopy(self.state), dict(self.refs), list(self.units),
                        list(self.events), self.started, None if self.shown is None else self.shown.copy())

    def ref_of(self, iid: int) -> str:
        """The reference of card ``iid`` (``"card/N"`` for a card a play brought)."""
        for ref, known in self.refs.items():
            if known == iid:
                return ref
        return f"card/{iid}"

    def unit_ref(self, uid: int) -> str:
        """The reference of pillar unit ``uid``: ``"play/N"`` when a play made it, else ``"unit/UID"``."""
        return f"play/{self.units.index(uid) + 1}" if uid in self.units else f"unit/{uid}"

    def card_iid(self, ref: str) -> int:
        """The instance a card reference names.

        Raises:
            LabError: no such card.
        """
        if ref not in self.refs:
            raise LabError(f"there is no card {ref!r} on this table")
        return self.refs[ref]

    def unit_uid(self, ref: str) -> int:
        """The pillar uid a unit reference names (it need not stand any more).

        Raises:
            LabError: not a unit reference, or no such play.
        """
        kind, _, number = ref.partition("/")
        if kind not in ("play", "unit") or not number.isdigit():
            raise LabError(f"{ref!r} is not a unit reference like 'play/2' or 'unit/5'")
        if kind == "unit":
            return int(number)
        index = int(number) - 1
        if not 0 <= index < len(self.units):
            raise LabError(f"{ref!r}: this table has only {plural(len(self.units), 'play')} before this one")
        return self.units[index]


# -- changing the set-up ------------------------------------------------------------------


def _with_side(scenario: Scenario, seat: int, side: LabSide) -> Scenario:
    sides = (side, scenario.sides[1]) if seat == 0 else (scenario.sides[0], side)
    return replace(scenario, sides=sides)


def edit_card(scenario: Scenario, ref: str, what: str) -> Scenario:
    """The scenario with set-up card ``ref`` changed: ``damage+``, ``damage-``, ``secede``, ``remove`` or ``battle``.

    The result may no longer build (a play may name a card that left); the caller rebuilds and decides.

    Raises:
        LabError: the change makes no sense (a Main Character leaving play, a battle on a Turn base).
    """
    seat_text, _, rest = ref.partition("/")
    if seat_text not in ("0", "1") or not (rest == "main" or rest.startswith("table/")):
        raise LabError(f"{ref!r} is not a card of the set-up")
    seat = int(seat_text)
    if what == "battle":
        if scenario.base != "damage":
            raise LabError("Only a Damage base has a battle; choose it in Setup (s).")
        attacking = seat == scenario.active
        group = scenario.attackers if attacking else scenario.defenders
        group = tuple(r for r in group if r != ref) if ref in group else (*group, ref)
        return replace(scenario, attackers=group) if attacking else replace(scenario, defenders=group)
    side = scenario.sides[seat]
    index = int(rest.split("/")[1]) - 1 if rest != "main" else None
    if index is not None and not 0 <= index < len(side.table):
        raise LabError(f"there is no card {ref!r}")
    if what == "remove":
        if index is None:
            raise LabError("The Main Character always stays in play; change it in Setup (s).")
        return _with_side(scenario, seat, replace(side, table=side.table[:index] + side.table[index + 1:]))
    card = side.main if index is None else side.table[index]
    if what == "damage+":
        card = replace(card, damage=card.damage + 1)
    elif what == "damage-":
        card = replace(card, damage=max(0, card.damage - 1))
    elif what == "secede":
        card = replace(card, seceded=not card.seceded)
    else:
        raise LabError(f"unknown change {what!r}")
    side = replace(side, main=card) if index is None else \
        replace(side, table=side.table[:index] + (card,) + side.table[index + 1:])
    return _with_side(scenario, seat, side)


def put_in_play(scenario: Scenario, seat: int, card_id: str) -> Scenario:
    """The scenario with card ``card_id`` added at the end of ``seat``'s table."""
    side = scenario.sides[seat]
    return _with_side(scenario, seat, replace(side, table=(*side.table, LabCard(card_id))))
