"""WitchDraft play-area geometry: where cards sit and which placements are legal.

Cells are ``(x, y)`` integer pairs with y growing downward. A card covers two
cells: half A on the placement's own cell and half B one step away in the
direction given by the rotation, turning clockwise from "B to the right".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from engine.core.errors import IllegalActionError
from engine.witchdraft.cards import CARDS, Card, Ingredient

Cell = tuple[int, int]
Direction = Literal["N", "E", "S", "W"]
Rotation = Literal[0, 90, 180, 270]

ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)
DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
"""Clockwise, so turning a direction by 90 degrees is one step along."""

STEP: dict[Direction, Cell] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_STEPS: tuple[Cell, ...] = tuple(STEP.values())
OPPOSITE: dict[Direction, Direction] = {"N": "S", "E": "W", "S": "N", "W": "E"}

_B_OFFSET: dict[int, Cell] = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}

_LOCAL_EDGES: tuple[tuple[int, Direction], ...] = (
    (0, "N"), (0, "W"), (0, "S"), (1, "N"), (1, "E"), (1, "S"),
)
"""(half index, direction at rotation 0) of each edge, in :attr:`Card.edges` order."""

_EDGE_INDEX: dict[tuple[int, Direction], int] = {key: i for i, key in enumerate(_LOCAL_EDGES)}


def _turn(direction: Direction, rotation: int) -> Direction:
    return DIRECTIONS[(DIRECTIONS.index(direction) + rotation // 90) % 4]


_WORLD_EDGES: dict[int, tuple[tuple[int, Direction], ...]] = {
    r: tuple((half, _turn(d, r)) for half, d in _LOCAL_EDGES) for r in ROTATIONS
}
"""Per rotation, (half index, world direction) of each edge, in edge order."""

_LOCAL_INDEX: dict[tuple[int, int, Direction], int] = {
    (r, half, d): i for r in ROTATIONS for i, (half, d) in enumerate(_WORLD_EDGES[r])
}
"""(rotation, half index, world direction) to edge index; missing for the inner edge."""


@dataclass(frozen=True)
class Placement:
    """Where a card goes: half A on ``(x, y)``, half B placed by ``rotation``.

    Half B sits at ``(x+1, y)`` for 0, ``(x, y+1)`` for 90, ``(x-1, y)`` for
    180 and ``(x, y-1)`` for 270.
    """

    x: int
    y: int
    rotation: int

    def __post_init__(self) -> None:
        if self.rotation not in _B_OFFSET:
            raise ValueError(f"rotation must be one of {ROTATIONS}, not {self.rotation!r}")


def cells(p: Placement) -> tuple[Cell, Cell]:
    """The cells of half A and half B."""
    dx, dy = _B_OFFSET[p.rotation]
    return (p.x, p.y), (p.x + dx, p.y + dy)


def horizontal(p: Placement) -> bool:
    """True when the card's long axis runs east-west."""
    return p.rotation in (0, 180)


def edge_symbols(card: Card, p: Placement) -> dict[tuple[Cell, Direction], Ingredient]:
    """Each outer unit edge showing a half symbol, as (cell, world direction)."""
    both = cells(p)
    out: dict[tuple[Cell, Direction], Ingredient] = {}
    for symbol, (half, direction) in zip(card.edges, _WORLD_EDGES[p.rotation], strict=False):
        if symbol is not None:
            out[both[half], direction] = symbol
    return out


def symbol_at(card: Card, p: Placement, half: int, direction: Direction) -> Ingredient | None:
    """The half symbol on one edge of a placed card, or None (blank or inner edge)."""
    index = _LOCAL_INDEX.get((p.rotation, half, direction))
    return None if index is None else card.edges[index]


def world_edges(p: Placement) -> tuple[tuple[Cell, Direction], ...]:
    """The six outer edges as (cell, world direction), in :attr:`Card.edges` order."""
    both = cells(p)
    return tuple((both[half], d) for half, d in _WORLD_EDGES[p.rotation])


@dataclass(frozen=True)
class PlacedCard:
    """A card on the play area."""

    card_id: str
    placement: Placement


class IllegalPlacement(IllegalActionError):
    """A card may not go where it was asked to."""


OVERLAPS = "overlaps a card"
TOUCHES_NOTHING = "touches no card"
NOT_PERPENDICULAR = "must be perpendicular to a card it touches"

ORIGIN = Placement(0, 0, 0)
"""Where every apprentice card lies."""


@dataclass(frozen=True)
class PlayArea:
    """One apprentice's cards, the apprentice card first. Never mutated.

    Derived lookups are cached on the instance (``cached_property`` writes past
    the frozen guard), which is safe because the fields never change.
    """

    cards: tuple[PlacedCard, ...]

    @staticmethod
    def start(apprentice_id: str) -> PlayArea:
        """A play area holding only the apprentice card at the origin."""
        return PlayArea((PlacedCard(apprentice_id, ORIGIN),))

    @cached_property
    def _occupied(self) -> dict[Cell, tuple[int, int]]:
        out: dict[Cell, tuple[int, int]] = {}
        for index, placed in enumerate(self.cards):
            a, b = cells(placed.placement)
            out[a] = (index, 0)
            out[b] = (index, 1)
        return out

    def occupied(self) -> dict[Cell, tuple[int, int]]:
        """Each covered cell mapped to (card index, half index), as a fresh dict."""
        return dict(self._occupied)

    @property
    def cell_map(self) -> Mapping[Cell, tuple[int, int]]:
        """The cached form of :meth:`occupied`, read-only, for hot loops."""
        return self._occupied

    @cached_property
    def _frontier(self) -> tuple[tuple[int, int], ...]:
        # Empty cells sharing an edge with a card, as (y, x) for sorting: a
        # touching card covers one of them.
        taken = self._occupied
        found = {(x + dx, y + dy) for x, y in taken for dx, dy in _STEPS}
        return tuple(sorted((y, x) for x, y in found if (x, y) not in taken))

    @cached_property
    def _horizontal(self) -> tuple[bool, ...]:
        return tuple(horizontal(placed.placement) for placed in self.cards)

    def _problem(self, x: int, y: int, rotation: int) -> str | None:
        # The rule on raw numbers, so enumeration builds no objects for rejects.
        taken = self._occupied
        dx, dy = _B_OFFSET[rotation]
        bx, by = x + dx, y + dy
        if (x, y) in taken or (bx, by) in taken:
            return OVERLAPS
        touched = False
        mine = rotation in (0, 180)
        flat = self._horizontal
        for cx, cy in ((x, y), (bx, by)):
            for sx, sy in _STEPS:
                hit = taken.get((cx + sx, cy + sy))
                if hit is not None:
                    if flat[hit[0]] != mine:
                        return None
                    touched = True
        return NOT_PERPENDICULAR if touched else TOUCHES_NOTHING

    def check(self, card_id: str, p: Placement) -> None:
        """Raise :class:`IllegalPlacement` unless ``p`` is a legal place for a card.

        The reasons are checked in order: overlap, touching, perpendicular.
        The rule does not depend on the card's face, so ``card_id`` only names it.
        """
        problem = self._problem(p.x, p.y, p.rotation)
        if problem is not None:
            raise IllegalPlacement(problem)

    def is_legal(self, card_id: str, p: Placement) -> bool:
        """True when :meth:`check` would pass."""
        return self._problem(p.x, p.y, p.rotation) is None

    @cached_property
    def _legal(self) -> tuple[Placement, ...]:
        candidates: set[tuple[int, int, int]] = set()
        for y, x in self._frontier:
            for r in ROTATIONS:
                dx, dy = _B_OFFSET[r]
                candidates.add((y, x, r))  # half A on the frontier cell
                candidates.add((y - dy, x - dx, r))  # half B on it
        return tuple(Placement(x, y, r) for y, x, r in sorted(candidates) if self._problem(x, y, r) is None)

    def legal_placements(self, card_id: str) -> list[Placement]:
        """Every legal placement, all rotations, sorted by (y, x, rotation).

        Any legal card touches the area, so one of its cells is an empty
        neighbour of a card: only those placements need checking.
        """
        return list(self._legal)

    def with_card(self, card_id: str, p: Placement) -> PlayArea:
        """A new area with the card added.

        Raises:
            IllegalPlacement: The placement breaks a rule.
        """
        self.check(card_id, p)
        return PlayArea((*self.cards, PlacedCard(card_id, p)))

    def faces(self, cards: Mapping[str, Card] = CARDS) -> list[Card]:
        """The placed cards' data, in placement order."""
        return [cards[placed.card_id] for placed in self.cards]

    def to_json(self) -> list[list[str | int]]:
        """The cards as ``[card_id, x, y, rotation]`` lists, apprentice first."""
        return [[c.card_id, c.placement.x, c.placement.y, c.placement.rotation] for c in self.cards]

    @staticmethod
    def from_json(data: object) -> PlayArea:
        """Rebuild an area from :meth:`to_json` output, rechecking every placement.

        Raises:
            ValueError: ``data`` is not a legal play area.
        """
        if not isinstance(data, list) or not data:
            raise ValueError("a play area is a non-empty list of cards")
        placed: list[PlacedCard] = []
        for item in data:
            if (not isinstance(item, list) or len(item) != 4 or not isinstance(item[0], str)
                    or not all(type(v) is int for v in item[1:])):
                raise ValueError(f"bad placed card {item!r}")
            placed.append(PlacedCard(item[0], Placement(item[1], item[2], item[3])))
        if placed[0].placement != ORIGIN:
            raise ValueError("the apprentice card must lie at the origin")
        area = PlayArea.start(placed[0].card_id)
        for card in placed[1:]:
            try:
                area = area.with_card(card.card_id, card.placement)
            except IllegalPlacement as error:
                raise ValueError(f"card {card.card_id!r} {error.reason}") from error
        return area
