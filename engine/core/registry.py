"""The registry maps a game id such as ``"wizards-cup"`` to its spec."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.contract import GameRules
from engine.core.errors import InvalidOptionsError, UnknownGameError

OptionValue = int | bool | str

Bot = Callable[[Any, Sequence[Any], random.Random], Any]
"""A bot picks an action from its seat's view and legal actions only.

It never sees the state, so it cannot peek at hidden information.
"""


@dataclass(frozen=True)
class OptionSpec:
    """One typed game option.

    Attributes:
        name: Key used in saved options, e.g. ``"tokens_to_win"``.
        label: Text for the new-game screen.
        default: Value used when the option is not given.
        choices: Allowed values, in display order.
        help: One sentence explaining the option.
        other: For options that also take values beyond ``choices`` (a deck list's text, say):
            returns why such a value is refused, or None to accept it.
    """

    name: str
    label: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    help: str = ""
    other: Callable[[OptionValue], str | None] | None = None

    def check(self, value: object) -> OptionValue:
        """Return ``value`` if allowed, else raise :class:`InvalidOptionsError`."""
        if isinstance(value, (int, bool, str)) and type(value) is type(self.default) \
                and value not in self.choices and self.other is not None:
            problem = self.other(value)
            if problem is not None:
                raise InvalidOptionsError(f"option {self.name!r}: {problem}")
            return value
        if not isinstance(value, (int, bool, str)) or type(value) is not type(self.default) \
                or value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise InvalidOptionsError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        return value

    def choice_label(self, value: OptionValue) -> str:
        """How ``value`` reads on screen: ``"Yes"``/``"No"`` for on/off options."""
        if isinstance(value, bool):
            return "Yes" if value else "No"
        return str(value)


@dataclass(frozen=True)
class GameSpec:
    """Everything the app needs to know about a game before playing it.

    Attributes:
        game_id: Stable id used in saves, e.g. ``"wizards-cup"``.
        title: Display name.
        seat_counts: Allowed numbers of seats.
        rules: The game's :class:`GameRules`.
        options: Typed options with defaults.
        summary: One line for menus.
        rules_doc: File name of the rules document under ``docs/rules``.
        bots: Bot levels by name, weakest first.
    """

    game_id: str
    title: str
    seat_counts: tuple[int, ...]
    rules: GameRules[Any, Any]
    options: tuple[OptionSpec, ...] = ()
    summary: str = ""
    rules_doc: str = ""
    bots: Mapping[str, Bot] = field(default_factory=dict)

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """Bot level names, weakest first."""
        return tuple(self.bots)

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, OptionValue]:
        """Fill defaults and validate ``given``.

        Raises:
            InvalidOptionsError: an option is unknown or out of range.
        """
        given = dict(given or {})
        known = {option.name for option in self.options}
        unknown = sorted(set(given) - known)
        if unknown:
            raise InvalidOptionsError(f"unknown option {unknown[0]!r} for {self.title}")
        return {option.name: option.check(given.get(option.name, option.default)) for option in self.options}

    def new_state(
        self, options: Mapping[str, Any] | None, seed: int, seats: int, names: Sequence[str] | None = None
    ) -> Any:
        """Validate options and seats, then create the opening state."""
        if seats not in self.seat_counts:
            counts = ", ".join(str(count) for count in self.seat_counts)
            raise InvalidOptionsError(f"{self.title} is played with {counts} seats, not {seats}")
        return self.rules.new_state(self.resolve_options(options), seed, seats, names)


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry and return its spec."""
    spec.rules.game_id = spec.game_id
    _REGISTRY[spec.game_id] = spec
    return spec


def get_game(game_id: str) -> GameSpec:
    """Look up a game by id.

    Raises:
        UnknownGameError: no game has that id.
    """
    try:
        return _REGISTRY[game_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})") from None


def all_games() -> list[GameSpec]:
    """All registered games in registration order."""
    return list(_REGISTRY.values())
