"""Fitting a line of text to a width: whole, or cut after a word with "…", never in the middle of one."""

from __future__ import annotations


def cut_words(text: str, width: int) -> str:
    """``text`` in ``width`` columns: whole, or cut after a whole word with "…".

    A single word longer than ``width`` is cut where it must be (still ending with "…").
    """
    if len(text) <= width:
        return text
    cut = text[:max(width - 1, 0)]
    if text[len(cut)] != " " and " " in cut.strip():  # the cut falls inside a word: drop that word
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ·—,:;") + "…"
