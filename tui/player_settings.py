"""Player settings: what each one means, its choices and default, and reading them back safely.

Settings live in the session database's preferences (:mod:`saves.preferences`),
per player: this machine's own, or a ``coven serve`` account's (SSH forwards
almost none of a client's environment, so a player's choices must live on the
server). A stored value this Coven would never offer (a typo from
``coven settings set``, an older Coven's choice) or cannot read at all (a
damaged row: not JSON, too big, too deep, not UTF-8, NaN) falls back to the
default, and :func:`read_settings` names each such setting once so the player
can be told; it never stops Coven.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from saves import SessionStore
from saves.preferences import PreferenceProblem, read_preference, set_preference
from tui.verbosity import DEFAULT as DEFAULT_VERBOSITY
from tui.verbosity import LEVELS as VERBOSITY_LEVELS

PREFIX = "setting."
"""Settings are kept as preferences under ``setting.<name>``; a few older keys keep their own name."""

SettingValue = str | bool


@dataclass(frozen=True)
class Setting:
    """One setting.

    Attributes:
        name: What ``coven settings`` calls it (ASCII, dotted for a game's own).
        label: What the Settings screen calls it.
        about: One sentence on what it changes.
        default: Its value until the player changes it.
        choices: The values it takes, in the order they are offered (a switch is False, True).
        key: The preference key it is stored under.
    """

    name: str
    label: str
    about: str
    default: SettingValue
    choices: tuple[SettingValue, ...]
    key: str = ""

    @property
    def stored_key(self) -> str:
        """The preference key."""
        return self.key or PREFIX + self.name

    @property
    def is_switch(self) -> bool:
        """True for an on/off setting."""
        return isinstance(self.default, bool)

    def parse(self, text: str) -> SettingValue:
        """A value typed by a person (``on``/``off``/``yes``/``no`` for a switch).

        Raises:
            ValueError: not one of the choices; the message lists them.
        """
        if self.is_switch:
            words = {"on": True, "yes": True, "true": True, "1": True,
                     "off": False, "no": False, "false": False, "0": False}
            if text.strip().lower() in words:
                return words[text.strip().lower()]
            raise ValueError(f"{self.name} is on or off, not {text!r}")
        for choice in self.choices:
            if str(choice) == text.strip():
                return choice
        raise ValueError(f"{self.name} is one of {', '.join(str(c) for c in self.choices)}; not {text!r}")

    def shown(self, value: SettingValue) -> str:
        """The value as the player reads it."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


THEMES: tuple[str, ...] = (
    "textual-dark", "coven-high-contrast", "coven-colour-blind", "textual-light", "nord", "gruvbox",
    "catppuccin-mocha", "dracula", "tokyo-night", "monokai", "flexoki", "catppuccin-latte", "solarized-light",
    "solarized-dark", "rose-pine", "rose-pine-moon", "rose-pine-dawn", "atom-one-dark", "atom-one-light",
    "catppuccin-frappe", "catppuccin-macchiato", "ansi-dark", "ansi-light",
)
"""The themes offered: Textual's own and Coven's two (see :mod:`tui.themes`)."""

SETTINGS: tuple[Setting, ...] = (
    Setting("theme", "Theme", "The colours of every screen; the high-contrast and colour-blind-safe ones are "
            "Coven's own.", "textual-dark", THEMES),
    Setting("glyphs", "Colour-blind letters", "Adds a letter to every colour that means something (F for "
            "fire, W for water…), beyond the symbols always shown.", False, (False, True)),
    Setting("no_color", "No colour", "Draws everything without colour, as the NO_COLOR convention asks "
            "(for a terminal that cannot send NO_COLOR itself); the colour-blind letters come on with it.", False,
            (False, True)),
    Setting("reduced_motion", "Reduced motion", "No animations, and automatic steps follow one another "
            "without the pause that shows each.", False, (False, True)),
    Setting("linear", "Linear mode", "Shows each game's table (the duel zone, the potion grid, the Pillar) also "
            "as lines of words a screen reader reads in order, in the place of the log.", False, (False, True)),
    Setting("verbosity", "Verbosity", "How much the narrator says: terse keeps to first sentences and fewer "
            "turn lines; full gives every detail at once.", DEFAULT_VERBOSITY.value, VERBOSITY_LEVELS),
    Setting("clock", "Clock for me", "At a table with a clock: the table's clock, double time (twice the time and "
            "the increment) or no clock at all for your own seats; the table shows what you asked.", "table",
            ("table", "double", "none")),
    Setting("coach", "Coach", "h explains a Wizards Cup lineup's chances while you set it, and each round in a "
            "finished game's replay (a shared table also needs its host's leave).", True, (False, True)),
    Setting("wizbits.auto_pass", "Wizbits auto-pass", "Passes Priority for you when passing is all you "
            "could do.", True, (False, True), key="wizbits.auto_pass"),
    Setting("notifications", "Turn notifications", "Rings the bell and asks the terminal for a desktop "
            "notice when it becomes your turn at a table: auto is on at SSH tables, off at this keyboard.",
            "auto", ("auto", "on", "off")),
    Setting("away_notices", "Notices while away", "When a table asks for your choice while you are not "
            "connected, coven serve can post a short notice (table, game, seat, deadline) to a URL: yours (u sets "
            "it, when you signed in) or the server's. Off: none at all.", True, (False, True)),
    Setting("bot_level", "Default bot level", "The level a new game offers for a bot seat first.",
            "normal", ("easy", "normal", "hard")),
    Setting("bots.think_time", "Hard bots' thinking time", "Seconds a Hard bot that searches (Wizbits) may think "
            "over each move that needs thought: longer plays stronger. The others keep their fixed budgets.", "1", ("0.25", "0.5", "1", "2", "4")),
    Setting("remember_names", "Remember New game", "New game offers the game, names, seats, decks and "
            "options you chose last time.", True, (False, True)),
)
"""Every setting, in the order the Settings screen lists them."""

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}


def setting(name: str) -> Setting:
    """The setting called ``name``.

    Raises:
        KeyError: no such setting (the message lists them).
    """
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no setting {name!r}; the settings are {', '.join(BY_NAME)}") from None


@dataclass
class Settings:
    """One player's settings as read back, with the names of those that fell back to their default.

    Attributes:
        values: Each setting's value by name (its default where it fell back).
        fell_back: Settings whose stored value reads but is not one this Coven offers.
        unreadable: Settings whose stored value could not be read at all, with why.
    """

    values: dict[str, SettingValue] = field(default_factory=dict)
    fell_back: list[str] = field(default_factory=list)
    unreadable: dict[str, PreferenceProblem] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.values.get(name, BY_NAME[name].default)

    def notice(self) -> str | None:
        """A sentence naming every setting that fell back (one for each cause), or None."""
        sentences = []
        if self.unreadable:
            names = ", ".join(BY_NAME[name].label for name in self.unreadable)
            sentences.append(f"Stored settings that could not be read (damaged) were set back to their defaults: "
                             f"{names}.")
        if self.fell_back:
            names = ", ".join(BY_NAME[name].label for name in self.fell_back)
            sentences.append(f"Stored settings this Coven does not offer were set back to their defaults: {names}.")
        return " ".join(sentences) or None


def valid(item: Setting, value: object) -> bool:
    """Whether ``value`` is one of ``item``'s choices (a switch's exactly True or False)."""
    if item.is_switch:
        return isinstance(value, bool)
    return isinstance(value, str) and value in item.choices


_FOR_THIS_RUN: dict[str, SettingValue] = {}
"""Settings asked for at start (``coven play --linear``): they hold for this run until the player changes them."""


def set_for_this_run(name: str, value: SettingValue) -> None:
    """Hold setting ``name`` at ``value`` in this process, over the stored one, until it is written.

    Raises:
        KeyError: no such setting.
        ValueError: not one of its choices.
    """
    item = setting(name)
    if not valid(item, value):
        raise ValueError(f"{name} is one of {', '.join(item.shown(c) for c in item.choices)}")
    _FOR_THIS_RUN[name] = value


def read_settings(store: SessionStore | None, account: str | None) -> Settings:
    """Every setting of ``account`` (None: this machine's player); unusable values fall back, named.

    The same for a served account (the app of an SSH connection reads its own
    account's) as for this machine's player.
    """
    settings = Settings()
    for item in SETTINGS:
        value: object = None
        if store is not None:
            found = read_preference(store, account, item.stored_key)  # an unreadable store reads as nothing
            if found.problem is not None:
                settings.unreadable[item.name] = found.problem
            value = found.value
        if value is None:
            settings.values[item.name] = item.default
        elif valid(item, value):
            settings.values[item.name] = value  # type: ignore[assignment]  # valid() checked its type
        else:
            settings.values[item.name] = item.default
            settings.fell_back.append(item.name)
    settings.values.update(_FOR_THIS_RUN)
    return settings


def write_setting(store: SessionStore, account: str | None, name: str, value: SettingValue) -> None:
    """Keep ``value`` for setting ``name``.

    Raises:
        KeyError: no such setting.
        ValueError: not one of its choices.
        StoreError: it could not be saved.
    """
    item = setting(name)
    if not valid(item, value):
        raise ValueError(f"{name} is one of {', '.join(item.shown(c) for c in item.choices)}")
    set_preference(store, account, item.stored_key, value)
    _FOR_THIS_RUN.pop(name, None)  # the player's own choice now, kept for the next run too


def reset_settings(store: SessionStore, account: str | None, names: Mapping[str, Setting] | None = None) -> None:
    """Every setting (or those in ``names``) back to its default."""
    for item in (names or BY_NAME).values():
        set_preference(store, account, item.stored_key, item.default)


def think_time(store: SessionStore | None, account: str | None) -> float:
    """Seconds a Hard bot may think over a move, as the player set ``bots.think_time``."""
    return float(read_settings(store, account)["bots.think_time"])
