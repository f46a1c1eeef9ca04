"""Every string of an imported session file checked with the one text rule.

A session file comes from outside, so each of its strings (seat names, bot
levels, option values, keys, action fields and the fields Coven ignores) is
checked with :mod:`engine.core.text` before anything else reads it. Option
values may be deck lists, so they may hold line feeds and tabs
(:func:`~engine.core.text.text_block_problem`); every other string is one line
(:func:`~engine.core.text.text_problem`).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.text import shown_text, text_block_problem, text_problem
from saves.errors import SessionFileError


def check_file_text(document: Mapping[str, object]) -> None:
    """Refuse a parsed session file that holds a string unsafe to show.

    Seats and options are checked first, so their messages name the seat or
    the option; then every other string, named by where it sits.

    Raises:
        SessionFileError: a string holds a control character, a bidi override,
            a zero-width character, a stray line break or a lone surrogate.
    """
    seats = document.get("seats")
    if isinstance(seats, list):
        for number, seat in enumerate(seats, start=1):
            if isinstance(seat, Mapping):
                for key, what in (("name", "name"), ("bot_level", "bot level")):
                    _refuse(text_problem(seat[key]) if isinstance(seat.get(key), str) else None,
                            f"Seat {number}'s {what}")
    options = document.get("options")
    if isinstance(options, Mapping):
        for key, value in options.items():
            _refuse(text_problem(key), "An option's name")
            if isinstance(value, str):
                _refuse(text_block_problem(value), f"The option {shown_text(key)!r}")
    _check_everything(document)


def _refuse(problem: str | None, what: str) -> None:
    if problem is not None:
        raise SessionFileError(f"{what} must not contain {problem}.")


def _check_everything(document: object) -> None:
    # A stack, not recursion: the nesting is as deep as the file makes it.
    stack: list[tuple[str, object]] = [("", document)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            block = where.startswith("options.")
            _refuse(text_block_problem(value) if block else text_problem(value), f"The file's {where or 'text'}")
        elif isinstance(value, Mapping):
            for key, item in value.items():
                _refuse(text_problem(key), f"A key in the file's {where or 'top level'}")
                stack.append((f"{where}.{key}" if where else str(key), item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{index}]", item) for index, item in enumerate(value))
