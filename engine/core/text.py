"""Text from outside: one rule for every name and label, wherever it enters.

Seat names, deck names, table codes, imported strings and SSH user names all
pass through here, so the engine, the store, import, the CLI and the server
agree on what a name may hold. A name is shown on other players' terminals,
so anything that could steer a terminal or disguise what is written is
refused: control characters (ESC, CSI, OSC and the rest), bidi overrides and
isolates, zero-width characters (except a joiner inside an emoji sequence,
such as the one that makes 🧙‍♀️ one glyph), line and paragraph separators and
lone surrogates. Where refusing would block the user (an SSH user name is sent
before Coven can answer), :func:`clean_text` drops them instead.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from engine.core.words import plural

__all__ = [
    "UnsafeTextError",
    "check_name",
    "check_seat_names",
    "clean_text",
    "is_safe_text",
    "shown_text",
    "steady_width",
    "text_block_problem",
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


_JOINER = "\u200d"
_EMOJI_STYLE = "\ufe0f"
_KEYCAP = "\u20e3"
# Skin tones, and the emoji-style selector, may stand between an emoji and the joiner after it.
_EMOJI_TAILS = frozenset({_EMOJI_STYLE, *(chr(code) for code in range(0x1F3FB, 0x1F400))})


def _is_emoji_symbol(char: str) -> bool:
    return unicodedata.category(char) == "So"


def _joins_emoji(text: str, index: int) -> bool:
    """Whether the zero-width joiner at ``index`` joins two emoji into one glyph (🧙‍♀️, 👩‍💻, 🏳️‍🌈)."""
    before = index - 1
    while before >= 0 and text[before] in _EMOJI_TAILS:
        before -= 1
    after = index + 1
    return before >= 0 and after < len(text) and _is_emoji_symbol(text[before]) and _is_emoji_symbol(text[after])


def _problem_at(text: str, index: int) -> str | None:
    if text[index] == _JOINER and _joins_emoji(text, index):
        return None
    return _char_problem(text[index])


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
    if text.isascii() and text.isprintable():  # the common case, checked in C: no ASCII glyph is refused
        return None
    for index in range(len(text)):
        problem = _problem_at(text, index)
        if problem is not None:
            return problem
    return None


def text_block_problem(text: object) -> str | None:
    """What makes a multi-line ``text`` (a deck list, say) unsafe to show, or None.

    The same rule as :func:`text_problem`, except that line feeds, tabs and a
    carriage return just before a line feed are allowed. Any other line break
    (U+2028, form feed, a lone carriage return...) is refused, so the lines
    shown are the lines counted.
    """
    if not isinstance(text, str):
        return f"text was expected, not {type(text).__name__}"
    for index, char in enumerate(text):
        if char in "\n\t" or (char == "\r" and text[index + 1:index + 2] == "\n"):
            continue
        problem = _problem_at(text, index)
        if problem is not None:
            line = text.count("\n", 0, index) + 1
            return f"{problem} on line {line}"
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


def steady_width(text: str) -> str:
    """``text`` without an emoji-style selector (U+FE0F) that terminals would draw at different widths.

    A symbol that is narrow as text (♀, ❤) turns wide with the selector in some
    terminals and stays narrow in others (tmux, xterm), so a name holding one
    would shift every border after it on some screens. Alone, such a symbol
    keeps its text style; inside an emoji sequence (🧙‍♀️) or a keycap, and
    after a symbol that is wide anyway, the selector stays.
    """
    kept = []
    for index, char in enumerate(text):
        if char == _EMOJI_STYLE and index > 0:
            before, after = text[index - 1], text[index + 1:index + 2]
            joined = after in (_JOINER, _KEYCAP) or (index > 1 and text[index - 2] == _JOINER)
            if not joined and unicodedata.east_asian_width(before) not in ("W", "F"):
                continue
        kept.append(char)
    return "".join(kept)


def check_seat_names(names: Sequence[object] | None, seats: int, default: str) -> list[str]:
    """The seats' display names, each checked with :func:`check_name`.

    Args:
        names: One name per seat, or None (or empty) for the defaults.
        seats: How many seats the game has.
        default: The word numbered when no names are given ("Player" gives "Player 1").

    Raises:
        UnsafeTextError: the count is wrong or a name is unusable; the reason
            names the seat ("Seat 2's name must not contain ...").
    """
    if not names:
        return [f"{default} {index + 1}" for index in range(seats)]
    if isinstance(names, str) or len(names) != seats:
        given = "one text" if isinstance(names, str) else str(len(names))
        raise UnsafeTextError(f"{plural(seats, 'seat name')} {'was' if seats == 1 else 'were'} expected, not {given}")
    return [check_name(name, f"Seat {index + 1}'s name") for index, name in enumerate(names)]


def shown_text(text: object) -> str:
    """``text`` made safe to print whatever it holds, every refused character spelled out.

    For text that did not pass the rule but must still be shown, such as a
    name read back from a damaged database: ESC becomes ``\\x1b``, a bidi
    override ``\\u202e``, a lone surrogate ``\\ud800``. The result always
    encodes as UTF-8 and never steers a terminal. Rich markup is not escaped
    here (the engine knows nothing of Rich).
    """
    if not isinstance(text, str):
        text = str(text)
    if is_safe_text(text):
        return text
    return "".join(char if _char_problem(char) is None else ascii(char)[1:-1] for char in text)


def _is_regional(char: str) -> bool:
    """A regional indicator letter: two of them make one flag."""
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def grapheme_count(text: str) -> int:
    """How many characters a reader counts in ``text``: a base with its combining marks is one.

    "é" typed as e and a combining acute accent is one, as is a flag made of two
    regional indicator letters. A mark with nothing before it counts alone.
    """
    count = 0
    started = False
    flag_open = False  # a regional indicator waiting for its partner
    for char in text:
        if started and unicodedata.category(char).startswith("M"):
            continue  # an accent, a vowel sign, a variation selector: part of the character before it
        if _is_regional(char) and flag_open:
            flag_open = False
            continue
        flag_open = _is_regional(char)
        started = True
        count += 1
    return count


def clean_text(text: str, *, max_length: int | None = None) -> str:
    """``text`` with every character :func:`text_problem` refuses removed.

    Surrounding spaces are stripped and runs of spaces folded, so a cleaned
    name cannot pad itself to look like another. Used where refusing would
    block the user, such as an SSH user name.
    """
    kept = "".join(char for index, char in enumerate(text) if _problem_at(text, index) is None and char != "\t")
    cleaned = " ".join(kept.split())
    if max_length is not None:
        cleaned = cleaned[:max_length].rstrip()
    return cleaned
