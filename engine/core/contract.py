"""The game contract: what saves, bots, screens and replays rely on.

A game is a :class:`GameRules` object plus a state value. States are plain
dataclasses; :meth:`GameRules.apply` never mutates the state it is given, so
a rejected action leaves everything as it was and replays are trivially safe.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from engine.core.errors import IllegalActionError, ReplayError, UnknownRulesVersionError
from engine.core.terms import TABLE, Event, JsonDict, Result, Seat
from engine.core.undo import replay_timeline

__all__ = [
    "TABLE",
    "Event",
    "GameRules",
    "JsonDict",
    "ReplayError",
    "Result",
    "Seat",
    "canonical_json",
    "check_rules_version",
    "state_digest",
]

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


class GameRules(ABC, Generic[S, A, V]):
    """Rules of one game. Stateless: every method takes the state it reads.

    Generic in the game's state ``S``, action ``A`` and seat view ``V``; code
    that serves every game (the registry, saves, the generic screens) holds a
    ``GameRules[Any, Any, Any]``.
    """

    game_id: str = ""

    rules_version: int = 1
    """The newest version of this game's rulings. It grows when a ruling changes how a logged action plays out,
    so a session records the version it began under and replays under it (see :meth:`under_rules`)."""

    oldest_rules_version: int = 1
    """The oldest version :meth:`under_rules` can still play."""

    @abstractmethod
    def new_state(
        self, options: Mapping[str, Any], seed: int, seats: int, names: Sequence[str] | None = None
    ) -> S:
        """Create the opening state. All later randomness derives from ``seed``.

        ``names`` are the seats' display names, used in event sentences.
        """

    def under_rules(self, state: S, version: int) -> S:
        """``state`` set to play under rules version ``version`` (an opening state, before any action).

        A game with a single version has nothing to set. One whose rulings
        changed keeps the older ones behind a flag in its state, so a game
        begun under them replays as it was played.

        Raises:
            UnknownRulesVersionError: ``version`` is not one this code can play.
        """
        check_rules_version(self, version)
        return state

    @abstractmethod
    def parse_action(self, data: object) -> A:
        """Turn JSON into an action.

        Raises:
            MalformedActionError: ``data`` does not describe an action of this game.
        """

    @abstractmethod
    def action_to_json(self, action: A) -> JsonDict:
        """Turn an action into plain JSON, the inverse of :meth:`parse_action`."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat | None) -> list[A]:
        """Every action ``seat`` may take now; empty when it is not to act."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[Seat, ...]:
        """Seats that must act now. Several at once for a secret, simultaneous choice."""

    @abstractmethod
    def table_action(self, state: S) -> A | None:
        """The automatic step waiting to be played by :data:`TABLE`, if any."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> V:
        """What ``seat`` may know, with hidden information removed.

        ``seat=None`` is the spectator's view.
        """

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """None while the game runs, otherwise its :class:`Result`."""

    @abstractmethod
    def state_to_json(self, state: S) -> JsonDict:
        """The whole state (hidden parts included) as canonical JSON values."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from :meth:`state_to_json` output.

        Raises:
            ValueError: ``data`` is not a state of this game.
        """

    @abstractmethod
    def check_action(self, state: S, seat: Seat | None, action: A) -> None:
        """Raise :class:`IllegalActionError` with a specific reason if illegal."""

    @abstractmethod
    def _apply(self, state: S, seat: Seat | None, action: A) -> list[Event]:
        """Apply a checked action to ``state`` in place and return its events."""

    def progress(self, state: S) -> str:
        """A short phrase such as "Round 2, duel 3" for session lists."""
        return ""

    def choices_are_secret(self, state: S) -> bool:
        """Whether the seats now to act choose in secret (nothing one picks shows until all have).

        The contract suite checks that a secret choice never reaches the view
        of another seat still choosing.
        """
        return False

    def vary_secrets(self, state: S, seat: Seat, rng: random.Random) -> S | None:
        """A copy of ``state`` with what ``seat`` hides from the others drawn anew, or None.

        Everything another seat (or a spectator) may know stays as it was, so
        their views must come out equal: the contract suite checks that. None
        means the game has nothing of the kind to vary here.
        """
        return None

    def undo_barrier(self, before: S, after: S, seat: Seat, events: list[Event]) -> str | None:
        """Why ``seat``'s action from ``before`` to ``after`` may not be taken back, or None.

        The generic rule (see :mod:`engine.core.undo`) already stops at other
        seats' actions, a turn that moved on and the last of a round of secret
        choices; a game adds what else its actions may do that cannot be
        unseen or undone fairly: reveal a hidden card, or call on chance.
        """
        return None

    def seat_has_secrets(self, state: S, seat: Seat) -> bool:
        """Whether ``seat``'s own view shows things other seats may not see."""
        return True

    def first_seat(self, state: S) -> Seat | None:
        """The seat that acts first in the game ``state`` opens, or None when every seat starts together.

        A rematch hands the start to the seat after this one (see :mod:`saves.rematch`).
        """
        return None

    def apply(self, state: S, seat: Seat | None, action: A | Mapping[str, Any]) -> tuple[S, list[Event]]:
        """Apply ``seat``'s action and return the new state and its events.

        ``state`` is never modified, so on error the caller still holds it.

        Raises:
            MalformedActionError: the action's JSON is malformed.
            IllegalActionError: the action is not allowed now; ``reason`` says why.
        """
        if isinstance(action, Mapping):
            action = self.parse_action(action)
        if self.result(state) is not None:
            raise IllegalActionError("the game is already over")
        if seat is TABLE:
            pending = self.table_action(state)
            if pending is None:
                raise IllegalActionError("no automatic step is waiting")
            if pending != action:
                raise IllegalActionError("that is not the automatic step waiting to be played")
        elif seat not in self.to_act(state):
            raise IllegalActionError(f"seat {seat + 1} is not to act now")
        self.check_action(state, seat, action)
        new_state = copy.deepcopy(state)
        events = self._apply(new_state, seat, action)
        return new_state, events

    def replay(
        self,
        options: Mapping[str, Any],
        seed: int,
        seats: int,
        log: Sequence[tuple[Seat | None, Mapping[str, Any]]],
        names: Sequence[str] | None = None,
        rules_version: int | None = None,
    ) -> S:
        """Rebuild a state from its options, seed and action log, under ``rules_version`` (the newest by default).

        Raises:
            ReplayError: an entry is malformed or illegal; its index is given.
            UnknownRulesVersionError: ``rules_version`` is not one this code can play.
        """
        state = self.new_state(options, seed, seats, names)
        if rules_version is not None:
            state = self.under_rules(state, rules_version)
        final: S = replay_timeline(self, state, log, names).state
        return final


def check_rules_version(rules: GameRules[Any, Any, Any], version: object) -> int:
    """``version`` as a rules version ``rules`` can play.

    Raises:
        UnknownRulesVersionError: it is not a whole number from the game's oldest version to its newest.
    """
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise UnknownRulesVersionError(f"{version!r} is not a rules version")
    if version > rules.rules_version:
        raise UnknownRulesVersionError(
            f"it was played under rules version {version}, newer than this Coven knows "
            f"(up to {rules.rules_version}); update Coven to open it")
    if version < rules.oldest_rules_version:
        raise UnknownRulesVersionError(
            f"it was played under rules version {version}, which this Coven no longer plays "
            f"(oldest: {rules.oldest_rules_version})")
    return version


def canonical_json(value: Any) -> str:
    """Serialise JSON values with sorted keys and no spaces, for digests."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_digest(rules: GameRules[Any, Any, Any], state: Any) -> str:
    """A SHA-256 of the canonical state JSON; equal states give equal digests."""
    return hashlib.sha256(canonical_json(rules.state_to_json(state)).encode()).hexdigest()
