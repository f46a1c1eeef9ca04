"""Text from outside, ready to draw: never Rich markup, never a terminal control.

Names and other text that came from players, files or the database are checked
by :mod:`engine.core.text` where they enter. These helpers are the last guard
where they are drawn: a character the rule refuses is spelled out
(:func:`engine.core.text.shown_text`), and square brackets are shown as typed,
so a player called ``[bold red]x`` reads as ``[bold red]x``.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from engine.core.text import shown_text

__all__ = ["markup_safe", "plain", "plain_lines"]


def plain_lines(text: object) -> str:
    """``text`` with every character the rule refuses spelled out, except line feeds (messages have several)."""
    return "\n".join(shown_text(line) for line in str(text).split("\n"))


def markup_safe(text: object) -> str:
    """``text`` for a place that reads markup (Static, Label, notify, border titles): brackets escaped."""
    return escape(plain_lines(text))


def plain(text: object, style: str = "") -> Text:
    """``text`` as a Rich :class:`~rich.text.Text`, which is never read as markup."""
    return Text(plain_lines(text), style=style)
