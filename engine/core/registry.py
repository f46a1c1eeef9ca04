"""The registry maps a game id such as ``"wizards-cup"`` to its spec."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.catalog import GameEntry, entry_for, game_entries, load_entry
from engine.core.contract import GameRules
from engine.core.errors import InvalidOptionsError, UnknownGameError
from engine.core.text import text_block_problem

OptionValue = int | bool | str

Bot = Callable[[Any, Sequence[Any], random.Random], Any]
"""A bot picks an action from its seat's view and legal actions only.

It never sees the state, so it cannot peek at hidden information.
"""


MAX_OPTION_BYTES = 64 * 1024
"""The longest free-text option value (a deck list, say) accepted, in UTF-8 bytes."""


def _shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut short for a message: a refused value may be megabytes long."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a number too large to be an option"  # repr() of thousands of digits would even fail
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}..."


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
            returns why such a value is refused, or None to accept it. Such text is bounded by
            ``max_bytes`` and must be safe to show (:func:`engine.core.text.text_block_problem`)
            before ``other`` sees it.
        max_bytes: The longest text (in UTF-8 bytes) accepted beyond ``choices``; the same bound
            holds wherever options come in (new game, table, import, over the network).
        seats: The seat counts where the option changes anything; empty: every count. Elsewhere
            a form offers it disabled, saying why (:meth:`applies_to`, :meth:`not_here`).
    """

    name: str
    label: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    help: str = ""
    other: Callable[[OptionValue], str | None] | None = None
    max_bytes: int = MAX_OPTION_BYTES
    seats: tuple[int, ...] = ()

    def applies_to(self, seats: int) -> bool:
        """True when the option changes anything at a table of ``seats``."""
        return not self.seats or seats in self.seats

    def not_here(self, seats: int) -> str | None:
        """Why the option does nothing with ``seats`` seats ("Only with 2 or 3 players."), or None when it applies."""
        if self.applies_to(seats):
            return None
        counts = [str(count) for count in self.seats]
        listed = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
        return f"Only with {listed} players: with {seats} it changes nothing."

    def check(self, value: object) -> OptionValue:
        """Return ``value`` if allowed, else raise :class:`InvalidOptionsError`.

        Free text (beyond ``choices``) comes back with every line ending as a
        line feed, so a session keeps it in one form whatever editor wrote it,
        and its export imports again under the one text rule.
        """
        if isinstance(value, (int, bool, str)) and type(value) is type(self.default) \
                and value not in self.choices and self.other is not None:
            problem = self._bound_problem(value)
            if isinstance(value, str) and problem is None:
                value = value.replace("\r\n", "\n").replace("\r", "\n")
                problem = self._text_problem(value)
            problem = problem or self.other(value)
            if problem is not None:
                raise InvalidOptionsError(f"option {self.name!r}: {problem}")
            return value
        if not isinstance(value, (int, bool, str)) or type(value) is not type(self.default) \
                or value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise InvalidOptionsError(f"option {self.name!r} must be one of {allowed}, not {_shown(value)}")
        return value

    def _bound_problem(self, value: OptionValue) -> str | None:
        """Why free text is too long to keep, checked before anything reads it character by character."""
        if not isinstance(value, str):
            return None
        # Characters never outnumber UTF-8 bytes, so a long text is refused before it is encoded.
        if len(value) > self.max_bytes or len(value.encode("utf-8", "surrogatepass")) > self.max_bytes:
            return f"the text is longer than {self.max_bytes // 1024} KiB"
        return None

    @staticmethod
    def _text_problem(value: str) -> str | None:
        """Why free text (its line endings already line feeds) is unsafe to show, by the one text rule."""
        problem = text_block_problem(value)
        return None if problem is None else f"the text holds {problem}"

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
    rules: GameRules[Any, Any, Any]
    options: tuple[OptionSpec, ...] = ()
    summary: str = ""
    rules_doc: str = ""
    bots: Mapping[str, Bot] = field(default_factory=dict)

    @classmethod
    def of(cls, entry: GameEntry, rules: GameRules[Any, Any, Any], *, options: tuple[OptionSpec, ...] = (),
           bots: Mapping[str, Bot] | None = None) -> GameSpec:
        """The full spec of an announced game: its entry's metadata plus its rules, options and bots."""
        return cls(game_id=entry.game_id, title=entry.title, seat_counts=entry.seat_counts, rules=rules,
                   options=options, summary=entry.summary, rules_doc=entry.rules_doc, bots=dict(bots or {}))

    @property
    def entry(self) -> GameEntry:
        """What a menu needs of this game."""
        return entry_for(self.game_id) or GameEntry(self.game_id, self.title, self.seat_counts, self.summary,
                                                    self.rules_doc)

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
        self, options: Mapping[str, Any] | None, seed: int, seats: int, names: Sequence[str] | None = None,
        rules_version: int | None = None,
    ) -> Any:
        """Validate options and seats, then create the opening state (under ``rules_version``, newest by default).

        Raises:
            InvalidOptionsError: bad options or seat count.
            UnknownRulesVersionError: ``rules_version`` is not one this code can play.
        """
        if seats not in self.seat_counts:
            counts = ", ".join(str(count) for count in self.seat_counts)
            raise InvalidOptionsError(f"{self.title} is played with {counts} seats, not {seats}")
        state = self.rules.new_state(self.resolve_options(options), seed, seats, names)
        return state if rules_version is None else self.rules.under_rules(state, rules_version)


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
    if isinstance(game_id, str):
        if game_id not in _REGISTRY and (entry := entry_for(game_id)) is not None:
            load_entry(entry)  # the game's rules are imported on first use
        if game_id in _REGISTRY:
            return _REGISTRY[game_id]
    known = ", ".join(sorted({*_REGISTRY, *(entry.game_id for entry in game_entries())})) or "none"
    raise UnknownGameError(f"unknown game {_shown(game_id)} (known: {known})")


def registered_specs() -> list[GameSpec]:
    """The games whose full specs are registered so far, without importing any more."""
    return list(_REGISTRY.values())


def all_games() -> list[GameSpec]:
    """Every game, announced ones first in menu order; imports each game's rules."""
    announced = [get_game(entry.game_id) for entry in game_entries()]
    return announced + [spec for spec in _REGISTRY.values() if spec not in announced]
