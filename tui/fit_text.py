"""Fitting a line of text to a width: whole, or cut after a word with "…", never in the middle of one.

Widths are terminal columns (cells), not characters: a wide character (a CJK
letter, most emoji) takes two, and a name may hold them.
"""

from __future__ import annotations

from rich.cells import cell_len


def _prefix_in(text: str, width: int) -> str:
    """The longest start of ``text`` that takes at most ``width`` columns."""
    used = 0
    for index, char in enumerate(text):
        used += cell_len(char)
        if used > width:
            return text[:index]
    return text


def cut_words(text: str, width: int) -> str:
    """``text`` in ``width`` columns: whole, or cut after a whole word with "…".

    A single word longer than ``width`` is cut where it must be (still ending with "…").
    """
    if cell_len(text) <= width:
        return text
    cut = _prefix_in(text, max(width - 1, 0))
    if text[len(cut)] != " " and " " in cut.strip():  # the cut falls inside a word: drop that word
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ·—,:;") + "…"
