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


@pytest.mark.parametrize("emoji", ["🧙\u200d♀️", "👩\u200d💻", "🏳️\u200d🌈", "👍🏽\u200d🔥"])
def test_a_joiner_inside_an_emoji_sequence_keeps_the_glyph_whole(emoji: str) -> None:
    assert text_problem(emoji) is None
    assert check_name(f"{emoji} Morgana") == f"{emoji} Morgana"
    assert clean_text(emoji) == emoji


@pytest.mark.parametrize("bad", ["A\u200dna", "\u200d🧙", "🧙\u200d", "🧙\u200d\u200d♀", "a\u200d♀"])
def test_a_joiner_outside_an_emoji_sequence_is_still_refused(bad: str) -> None:
    assert "zero-width character (U+200D)" in (text_problem(bad) or "")


def test_a_selector_terminals_disagree_on_goes_and_the_others_stay() -> None:
    from engine.core.text import steady_width

    assert steady_width("🧙♀️ Morgana") == "🧙♀ Morgana"  # ♀ alone: narrow in tmux and xterm, wide elsewhere
    assert steady_width("❤️") == "❤"
    for kept in ("🧙\u200d♀️", "🏳️\u200d🌈", "1️⃣", "Zoë", "魔女"):
        assert steady_width(kept) == kept


def test_every_ascii_character_is_judged_alone_and_inside_a_name() -> None:
    # ASCII text takes a quick path; it must refuse exactly the controls the full check refuses.
    for code in range(128):
        char = chr(code)
        refused = code < 32 or code == 127
        for text in (char, f"Ana{char}Bo"):
            assert (text_problem(text) is not None) == refused, (code, text_problem(text))
    assert text_problem("Bo\x1b[31m") == "a control character (U+001B)"
    assert text_problem("Ana\tBo") == "a control character (U+0009)"
    assert text_problem("Ana\nBo") == "a line break (U+000A)"
