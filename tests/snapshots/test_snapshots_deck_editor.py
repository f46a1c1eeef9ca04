"""Snapshot test of the Wizbits deck editor at 80x24: a short deck with its validation errors."""

from __future__ import annotations

from typing import Any

from saves import SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp

SIZE = (80, 24)


def test_deck_editor_with_a_validation_error(snap_compare: Any) -> None:
    async def build_short_deck(pilot: Any) -> None:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("plus", "plus", "plus", "down")
        await pilot.press("plus", "plus", "plus", "plus", "plus")  # the fifth copy is refused
        await pilot.pause()

    app = CovenApp(store=SessionStore(), auto_delay=60.0)
    assert snap_compare(app, terminal_size=SIZE, run_before=build_short_deck)


def test_deck_import_lists_every_problem(snap_compare: Any) -> None:
    """The dialog a bad import opens (tests/tui/test_user_paths.py opens it by importing; a fixed path keeps this still)."""
    from tui.widgets.problem_list import ProblemListScreen

    problems = [f"line {n}: unknown card 'Not A Card {n}'" for n in range(1, 7)]

    async def show_problems(pilot: Any) -> None:
        await pilot.press("d")
        await pilot.pause()
        await until(pilot, lambda: ("Deck" in type(pilot.app.screen).__name__),
                    '"Deck" in type(pilot.app.screen).__name__')
        pilot.app.push_screen(ProblemListScreen("/home/ana/decks/bad.txt can't be imported:", problems))
        await pilot.pause()

    app = CovenApp(store=SessionStore(), auto_delay=60.0)
    assert snap_compare(app, terminal_size=SIZE, run_before=show_problems)
