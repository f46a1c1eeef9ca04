"""The one rule for names from outside (engine/core/text.py)."""

import pytest

from engine.core.text import UnsafeTextError, check_name, clean_text, is_safe_text, text_problem


@pytest.mark.parametrize("bad, said", [
    ("Ana\x1b[2J", "control character (U+001B)"),
    ("Ana\x9b31m", "control character (U+009B)"),
    ("\u202eanA", "bidirectional override (U+202E)"),
    ("An\u2066a", "bidirectional override (U+2066)"),
    ("A\u200bna", "zero-width character (U+200B)"),
    ("A\ufeffna", "zero-width character (U+FEFF)"),
    ("Ana\ud800", "lone surrogate (U+D800)"),
    ("Ana\u2028Bea", "line break (U+2028)"),
    ("Ana\nBea", "line break (U+000A)"),
    ("Ana\tBea", "control character (U+0009)"),
])
def test_unsafe_names_are_refused_with_the_character_named(bad: str, said: str) -> None:
    assert said in (text_problem(bad) or "")
    with pytest.raises(UnsafeTextError) as caught:
        check_name(bad, "A seat's name")
    assert caught.value.reason.startswith("A seat's name must not contain")
    assert not is_safe_text(bad)


@pytest.mark.parametrize("good", ["Ana", "[bold red]x", "Zoë", "魔女", "O'Brien-Smith", "🧙"])
def test_ordinary_names_pass_unchanged(good: str) -> None:
    assert check_name(f"  {good} ") == good
    assert clean_text(good) == good


def test_blank_long_and_non_text_names_are_refused() -> None:
    for bad, said in (("   ", "blank"), ("x" * 65, "at most 64"), (7, "must be text")):
        with pytest.raises(UnsafeTextError, match=said):
            check_name(bad)


def test_cleaning_drops_what_checking_refuses() -> None:
    assert clean_text("\u202e--he\x1b[31mlp\u200b  me ", max_length=8) == "--he[31m"
    assert is_safe_text(clean_text("".join(chr(code) for code in range(0, 0x3000))))
