"""The six elements' colours and symbols, shared by every game that has them.

Wizards Cup and Wizbits use the same six elements, so an element looks the
same in both. Keys are the element's name in lower case; each game maps its
own enum onto these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

ELEMENT_HUES: dict[str, str] = {
    "fire": "#ff6a3d",
    "water": "#4aa8ff",
    "nature": "#5cc85c",
    "light": "#ffd75e",
    "shadow": "#b48cff",
    "void": "#a8a8a8",
}
"""Text colour of each element (borders use the matching ``-fire``… classes in the .tcss files)."""

ELEMENT_SYMBOLS: dict[str, str] = {
    "fire": "▲",
    "water": "≈",
    "nature": "♣",
    "light": "☼",
    "shadow": "☾",
    "void": "◌",
}
"""A one-cell symbol per element, so the element reads without colour too."""

ELEMENT_LETTERS: dict[str, str] = {
    "fire": "F", "water": "W", "nature": "N", "light": "L", "shadow": "S", "void": "V",
}
"""With the "Colour-blind letters" setting, the letter written after each element's symbol."""


@dataclass
class ElementLook:
    """How elements are drawn now: the theme's hues and whether letters join the symbols (set by the settings)."""

    letters: bool = False
    hues: dict[str, str] = field(default_factory=lambda: dict(ELEMENT_HUES))
    theme: dict[str, str] = field(default_factory=dict)
    """The current theme's own variables, where other looks (WitchDraft's potions) find their hues."""


LOOK = ElementLook()
"""The one look every element on screen follows."""


def set_element_look(letters: bool, theme_variables: Mapping[str, str]) -> None:
    """Follow the settings: letters or not, and the theme's ``element-<name>`` hues where it names them."""
    LOOK.letters = letters
    LOOK.theme = dict(theme_variables)
    LOOK.hues = {name: theme_variables.get(f"element-{name}", hue) for name, hue in ELEMENT_HUES.items()}


VICTORY_GOLD = "#ffd75e"
"""The gold of winners and Cup Tokens when the theme names no ``victory``."""


def victory_hue() -> str:
    """The gold of winners and Cup Tokens now: the theme's ``victory`` where it names one (read at every draw)."""
    return LOOK.theme.get("victory", VICTORY_GOLD)


K = TypeVar("K")


class _ByElement(Mapping[K, str]):
    """A read-only mapping from a game's element to what :data:`LOOK` says now (read at every draw)."""

    def __init__(self, keys: tuple[K, ...], name_of: Callable[[K], str], read: Callable[[str], str]) -> None:
        self._keys, self._name_of, self._read = keys, name_of, read

    def __getitem__(self, key: K) -> str:
        if key not in self._keys:
            raise KeyError(key)
        return self._read(self._name_of(key))

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def element_marks(keys: tuple[K, ...], name_of: Callable[[K], str]) -> Mapping[K, str]:
    """Each element's symbol, with its letter while the setting asks for letters ("▲F")."""
    return _ByElement(keys, name_of, lambda name: ELEMENT_SYMBOLS[name] + (ELEMENT_LETTERS[name] if LOOK.letters else ""))


def element_hues(keys: tuple[K, ...], name_of: Callable[[K], str]) -> Mapping[K, str]:
    """Each element's text colour in the current theme."""
    return _ByElement(keys, name_of, lambda name: LOOK.hues[name])
