"""The six elements' colours and symbols, shared by every game that has them.

Wizards Cup and Wizbits use the same six elements, so an element looks the
same in both. Keys are the element's name in lower case; each game maps its
own enum onto these.
"""

from __future__ import annotations

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
