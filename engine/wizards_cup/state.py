"""Wizards Cup state and the views each seat may see."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class Phase(StrEnum):
    """Where the game stands."""

    TEAM = "team"
    LINEUP = "lineup"
    DUEL = "duel"
    SWAP = "swap"
    OVER = "over"


@dataclass
class PlayerState:
    """One player's cards. Lists of card ids; ``deck`` is drawn from the front."""

    name: str
    displayed: str
    team: list[str] = field(default_factory=list)
    waiting: str | None = None
    deck: list[str] = field(default_factory=list)
    zone: str | None = None
    discard: list[str] = field(default_factory=list)
    tokens: int = 0
    pending: dict[str, object] | None = None
    seen: list[str] = field(default_factory=list)
    lineup: list[str] = field(default_factory=list)
    """Last round's five in duel order, a swapped-in wizard in the place of the one it replaced."""

    def __deepcopy__(self, memo: dict[int, object]) -> PlayerState:
        # Every apply copies the state: by hand, since its lists hold only strings (and the pending action
        # only JSON values), which is many times faster than the generic deep copy.
        return PlayerState(self.name, self.displayed, list(self.team), self.waiting, list(self.deck), self.zone,
                           list(self.discard), self.tokens, copy.deepcopy(self.pending), list(self.seen),
                           list(self.lineup))


@dataclass
class WizardsCupState:
    """The whole game, hidden parts included. Only the engine reads it whole."""

    seed: int
    tokens_to_win: int
    players: list[PlayerState]
    phase: Phase = Phase.TEAM
    round: int = 0
    duel: int = 0
    winners: list[int] | None = None
    result_reason: str = ""
    round_winners: list[int] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, object]) -> WizardsCupState:
        return WizardsCupState(self.seed, self.tokens_to_win, [copy.deepcopy(player) for player in self.players],
                               self.phase, self.round, self.duel, None if self.winners is None else list(self.winners),
                               self.result_reason, list(self.round_winners))


@dataclass(frozen=True)
class PlayerView:
    """What a viewer knows of one player. ``None`` marks what is hidden."""

    name: str
    displayed: str
    tokens: int
    zone: str | None
    discard: tuple[str, ...]
    deck_count: int
    ready: bool
    seen: tuple[str, ...]
    team: tuple[str, ...] | None = None
    deck: tuple[str, ...] | None = None
    waiting: str | None = None
    pending: dict[str, object] | None = None
    lineup: tuple[str, ...] | None = None

    def opening_lineup(self) -> tuple[str, ...]:
        """The six slots a lineup opens with (see :func:`opening_lineup`); empty when the team is hidden."""
        return opening_lineup(self.team or (), self.lineup or ())


def opening_lineup(team: Sequence[str], last: Sequence[str]) -> tuple[str, ...]:
    """Last round's order, then the rest of the team in team order.

    The engine keeps a swapped-in wizard in the place of the one it replaced
    (:attr:`PlayerState.lineup`), so it opens where that wizard duelled, or as
    the Waiting Card if the Waiting Card was swapped out. In round 1 there is
    no last order and the lineup opens in team order.
    """
    kept = [card for card in last if card in team]
    return (*kept, *(card for card in team if card not in kept))


@dataclass(frozen=True)
class WizardsCupView:
    """A seat's (or a spectator's, ``seat=None``) view of the table."""

    seat: int | None
    phase: Phase
    round: int
    duel: int
    tokens_to_win: int
    players: tuple[PlayerView, PlayerView]
    round_winners: tuple[int, ...]
    winners: tuple[int, ...] | None
    result_reason: str

    @property
    def me(self) -> PlayerView | None:
        """The viewing seat's own player, or None for a spectator."""
        return None if self.seat is None else self.players[self.seat]
