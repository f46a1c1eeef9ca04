"""How much the narrator says: the ``verbosity`` setting's three levels and every rule that reads them.

One place for what each level means, read by the generic screens (the game
screen's narrator); a game hears the level only through its narration's hooks
(an extra argument with a default), so no generic screen names a game.

- terse: the announce key and the ask key say their first sentence only; the
  transcript leaves out the turn lines that only say whose turn it is (every
  event line stays).
- normal: what Coven always said (the default).
- full: the announce key gives its detail at the first press; a game's answers
  add what else its view holds; each turn line says what the seat asked may do.

Linear mode follows it through the games' ``linear`` hook: at terse one line
a side (or unit) with names only, at full with what the cards' values add.

The lessons read the same level: :data:`LESSONS_SETTING` names the setting and
:func:`shorten` is how a lesson's text is cut at terse (:func:`tui.screens.lesson.step_words`).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any


class Verbosity(StrEnum):
    """The ``verbosity`` setting's levels, least said first."""

    TERSE = "terse"
    NORMAL = "normal"
    FULL = "full"


LEVELS: tuple[str, ...] = tuple(level.value for level in Verbosity)
"""The setting's choices, as ``coven settings`` and the Settings screen offer them."""

DEFAULT = Verbosity.NORMAL
"""Until a player chooses: exactly what Coven said before the setting existed."""

SETTING = "verbosity"
"""The setting's name in :data:`tui.player_settings.SETTINGS`."""

LESSONS_SETTING = SETTING
"""The hook the lessons read: their text follows this setting too (cut with :func:`shorten` at terse)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
"""The space after a full stop that starts a new sentence (not the one inside "d6." or "e.g. x")."""


def level_of(settings: Any) -> Verbosity:
    """The level in a player's read-back settings (anything unexpected reads as the default)."""
    try:
        return Verbosity(str(settings[SETTING]))
    except (KeyError, ValueError):
        return DEFAULT


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it is one sentence)."""
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0]


def shorten(text: str, level: Verbosity) -> str:
    """``text`` as ``level`` says it: its first sentence at terse, whole otherwise."""
    return first_sentence(text) if level is Verbosity.TERSE else text


def announce_detail(level: Verbosity, pressed_again: bool) -> bool:
    """Whether the announce key gives the game's detail: on a second press at normal, always at full, never at
    terse."""
    if level is Verbosity.FULL:
        return True
    return pressed_again and level is Verbosity.NORMAL


def says_turn_line(level: Verbosity, has_prompt: bool, over: bool) -> bool:
    """Whether the transcript takes a turn line: at terse only one that asks a seat here (or says the game is
    over), since a line that only says whose turn it is repeats what the event lines show."""
    return level is not Verbosity.TERSE or has_prompt or over


def prompts_everyone(level: Verbosity) -> bool:
    """Whether a turn line says what the seat asked may do even when that seat does not play here (full)."""
    return level is Verbosity.FULL
