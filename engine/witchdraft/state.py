"""WitchDraft state, and the view each seat may see."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field


@dataclass
class ApprenticeState:
    """One player: their secret cards, hand and play area.

    ``area`` lists placed cards as ``[card_id, x, y, rotation]``, the
    apprentice card first, so the state stays plain JSON.
    """

    name: str
    apprentice: str
    recipe: str
    ingredients: str
    area: list[list[object]]
    hand: list[str] = field(default_factory=list)
    pending: str | None = None
    """This round's secret pick, until everyone has picked."""
    picked: str | None = None
    """The revealed pick still to be placed."""

    def __deepcopy__(self, memo: dict[int, object]) -> ApprenticeState:
        # Every apply copies the state: by hand, since an area entry holds only an id, numbers and a rotation,
        # which is many times faster than the generic deep copy.
        return ApprenticeState(self.name, self.apprentice, self.recipe, self.ingredients,
                               [list(placed) for placed in self.area], list(self.hand), self.pending, self.picked)


@dataclass
class WitchDraftState:
    """The whole game, hidden parts included."""

    seed: int
    side: str
    face_up: bool
    hand_size: int
    players: list[ApprenticeState]
    draw_pile: list[str]
    phase: int = 1
    pick: int = 1
    stage: str = "pick"
    """``"pick"`` while everyone picks in secret, ``"place"`` while the revealed picks are placed."""
    over: bool = False
    winners: list[int] | None = None
    result_reason: str = ""

    def __deepcopy__(self, memo: dict[int, object]) -> WitchDraftState:
        return WitchDraftState(self.seed, self.side, self.face_up, self.hand_size,
                               [copy.deepcopy(player) for player in self.players], list(self.draw_pile), self.phase,
                               self.pick, self.stage, self.over, None if self.winners is None else list(self.winners),
                               self.result_reason)


@dataclass(frozen=True)
class ApprenticeView:
    """What a viewer knows of one player; ``None`` marks what is hidden.

    ``ready`` means done for the current stage: picked, or placed.
    ``pending`` is the owner's own secret pick; ``picked`` is the revealed
    card waiting to be placed, which everyone sees.
    """

    name: str
    apprentice: str
    area: tuple[tuple[str, int, int, int], ...]
    hand_count: int
    ready: bool
    recipe: str | None
    ingredients: str | None
    hand: tuple[str, ...] | None = None
    pending: str | None = None
    picked: str | None = None


@dataclass(frozen=True)
class WitchDraftView:
    """A seat's (or a spectator's, ``seat=None``) view of the table."""

    seat: int | None
    phase: int
    pick: int
    stage: str
    over: bool
    face_up: bool
    draw_pile_count: int
    players: tuple[ApprenticeView, ...]
    winners: tuple[int, ...] | None
    result_reason: str

    @property
    def me(self) -> ApprenticeView | None:
        """The viewing seat's own player, or None for a spectator."""
        return None if self.seat is None else self.players[self.seat]
