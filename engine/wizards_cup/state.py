"""Wizards Cup state and the views each seat may see."""

from __future__ import annotations

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
