"""Text from outside: one rule for every name and label, wherever it enters.

Seat names, deck names, table codes, imported strings and SSH user names all
pass through here, so the engine, the store, import, the CLI and the server
agree on what a name may hold. A name is shown on other players' terminals,
so anything that could steer a terminal or disguise what is written is
refused: control characters (ESC, CSI, OSC and the rest), bidi overrides and
isolates, zero-width characters, line and paragraph separators and lone
surrogates. Where refusing would block the user (an SSH user name is sent
before Coven can answer), :func:`clean_text` drops them instead.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "UnsafeTextError",
    "check_name",
    "clean_text",
    "is_safe_text",
    "text_problem",
]

# Explicit embeddings, overrides and isolates: they reorder what follows them.
_BIDI_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
# Characters that take no width: they hide letters or make two names look alike.
_ZERO_WIDTH = frozenset(
    chr(code) for code in (0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, *range(0x200B, 0x2010),
                           *range(0x2060, 0x2065), 0x3164, 0xFEFF, 0xFFA0)
)
# Unicode categories never allowed: controls, formats, separators of lines and
# paragraphs, surrogates, unassigned code points and private use.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp"})


class UnsafeTextError(ValueError):
    """Text from outside holds something that may not be shown. ``reason`` says what, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _char_problem(char: str) -> str | None:
    code = ord(char)
    if char in _BIDI_CONTROLS:
        return f"a bidirectional override (U+{code:04X})"
    if char in _ZERO_WIDTH:
        return f"a zero-width character (U+{code:04X})"
    category = unicodedata.category(char)
    if category == "Cs":
        return f"a lone surrogate (U+{code:04X}), which is not valid text"
    if category in ("Zl", "Zp") or char in "\n\r\x0b\x0c\x85":
        return f"a line break (U+{code:04X})"
    if category in _REFUSED_CATEGORIES:
        return f"a control character (U+{code:04X})"
    return None


def text_problem(text: object) -> str | None:
    """What makes ``text`` unsafe to show, in words, or None when it is safe.

    Tabs count as control characters too: a name is one line of plain text.
    """
    if not isinstance(text, str):
        return f"text was expected, not {type(text).__name__}"
    for char in text:
        problem = _char_problem(char)
        if problem is not None:
            return problem
    return None


def is_safe_text(text: object) -> bool:
    """Whether ``text`` is a string holding nothing :func:`text_problem` refuses."""
    return text_problem(text) is None


def check_name(text: object, what: str = "A name", *, max_length: int = 64) -> str:
    """``text`` with surrounding spaces removed, once it is a usable name.

    Args:
        text: The name as it came in.
        what: How to call it in the message, capitalised ("A seat's name").
        max_length: The longest name allowed, in characters.

    Raises:
        UnsafeTextError: not text, blank, too long, or holding a character that
            :func:`text_problem` refuses. The reason names ``what``.
    """
    if not isinstance(text, str):
        raise UnsafeTextError(f"{what} must be text, not {type(text).__name__}")
    problem = text_problem(text)
    if problem is not None:
        raise UnsafeTextError(f"{what} must not contain {problem}")
    cleaned = text.strip()
    if not cleaned:
        raise UnsafeTextError(f"{what} must not be blank")
    if len(cleaned) > max_length:
        raise UnsafeTextError(f"{what} must be at most {max_length} characters")
    return cleaned


def clean_text(text: str, *, max_length: int | None = None) -> str:
    """``text`` with every character :func:`text_problem` refuses removed.

    Surrounding spaces are stripped and runs of spaces folded, so a cleaned
    name cannot pad itself to look like another. Used where refusing would
    block the user, such as an SSH user name.
    """
    kept = "".join(char for char in text if _char_problem(char) is None and char != "\t")
    cleaned = " ".join(kept.split())
    if max_length is not None:
        cleaned = cleaned[:max_length].rstrip()
    return cleaned
