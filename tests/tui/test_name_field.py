"""A seat's name as typed: never cut silently, an emoji sequence kept whole, and a clear word when too long."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.widgets import Input, Static

from engine import get_game
from saves import SessionStore
from saves.records import MAX_NAME_LENGTH
from tests.helpers.tui_fakes import FakeUI
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.new_game_form import validate

LONG = "Bartholomew the Unreasonably Long-Named Sorcerer of the Far Hills and Dales"


async def test_a_pasted_name_too_long_is_kept_whole_and_refused_with_a_message(fake_ui: FakeUI,
                                                                             store: SessionStore) -> None:
    from tui.screens.new_game import NewGameScreen

    assert len(LONG) > MAX_NAME_LENGTH
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new game form")
        field = app.screen.query_one("#seat-name-0", Input)
        field.focus()
        field.value = ""
        field.post_message(events.Paste(LONG))
        await until(pilot, lambda: field.value != "", "the paste")
        assert field.value == LONG, "the field cut the name silently"
        await pilot.press("ctrl+s")
        errors = app.screen.query_one("#form-errors", Static)
        await until(pilot, lambda: errors.display, "the form's problems")
        said = str(errors.render())
        assert f"{len(LONG)} characters" in said and f"the most is {MAX_NAME_LENGTH}" in said, said
        assert store.list_sessions() == []


def test_an_emoji_sequence_is_a_name_and_a_selector_terminals_disagree_on_goes() -> None:
    spec = get_game("wizards-cup")
    choices, problems = validate(spec, [("🧙\u200d♀️ Morgana", "human"), ("🧙♀️ Vivian", "human")], "1", {})
    assert problems == [] and choices is not None
    names = [seat.name for seat in choices.seats]
    assert names[0] == "🧙\u200d♀️ Morgana"  # one glyph, two cells: the joiner stays
    assert names[1] == "🧙♀ Vivian"
    assert cell_len("🧙♀") == 3  # as tmux and xterm draw it: the table's borders stay where Rich puts them


def test_a_name_is_cut_between_graphemes_by_width_with_an_ellipsis() -> None:
    from tui.widgets.fitted import cut_to_width, share_width

    name = "🧙\u200d♀️ Morgana"
    assert cut_to_width(name, 0) == ""
    for width in range(1, cell_len(name) + 2):
        cut = cut_to_width(name, width)
        assert cell_len(cut) <= width
        assert cut == name or cut.endswith("…")
        assert "\u200d" not in cut or "🧙\u200d♀️" in cut, f"the joined glyph was split at {width}: {cut!r}"
    marked = "Zoe\u0301" * 5  # "Zoé" with a combining accent
    for width in range(1, cell_len(marked)):
        assert not cut_to_width(marked, width).rstrip("…").endswith("e"), "the accent was cut from its letter"
    short, long = share_width(["Ana", LONG], 40)
    assert short == "Ana", "the short name stays whole: the long one gives up its room"
    assert cell_len(short) + cell_len(long) <= 40 and long.endswith("…") and LONG.startswith(long[:-1])
    assert cell_len(long) >= 40 - cell_len(short) - 1
