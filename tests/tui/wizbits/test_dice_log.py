"""The dice log shows checks, and only checks, as readable lines."""

from __future__ import annotations

import random

from textual.app import App, ComposeResult

from engine import Event
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK, MainPoints, parse_check, roll_check
from tests.helpers.waiting import until
from tui.games.wizbits.dice_log import DiceLog, check_line


def roll_event(spec_text: str, seed: int, seat: int = 0, card: str = "Cinderwing Archmage") -> Event:
    roll = roll_check(random.Random(seed), parse_check(spec_text), MainPoints(8, 6, 10, 8))
    return Event("check", roll.describe(), {**roll.to_json(), "seat": seat, "card": card})


def test_a_special_global_check_line_names_dice_rolls_sum_and_scn() -> None:
    roll = roll_check(random.Random(3), SPECIAL_CHECK_BREAK_GLOBAL_CHECK, MainPoints(8, 6, 10, 8))
    line = check_line({**roll.to_json(), "seat": 1, "card": "Cinderwing Archmage"}, ("Ana", "Bo")).plain
    rolls = "+".join(str(value) for value in roll.rolls)
    assert line.startswith("Bo · Cinderwing Archmage  Special Check Break Global Check  d8+d6+d10: ")
    assert f"{rolls} = {roll.total}" in line
    assert "SCN 8" in line
    assert line.endswith("✓ success" if roll.total > 8 else "✗ failure")


def test_a_failed_numbered_check_says_failure() -> None:
    data = {"check": "Will Check 8", "dice": [6], "rolls": [3], "total": 3, "number": 8, "special": False,
            "success": False, "card": "Quill"}
    assert check_line(data).plain == "Quill  Will Check 8  d6: 3 ≤ 8  ✗ failure"


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiceLog(seats=("Ana", "Bo"))


async def test_only_check_events_are_logged() -> None:
    app = LogApp()
    async with app.run_test(size=(80, 12)) as pilot:
        log = app.query_one(DiceLog)
        log.show_events([Event("play", "Ana plays X."), roll_event("Will Check 8", 1),
                         roll_event("Special Magic Check", 2, seat=1)])
        await until(pilot, lambda: log.count == 2 and len(log.lines) == 2, 'log.count == 2')
        assert log.count == 2
        assert len(log.lines) == 2
        log.clear_checks()
        await until(pilot, lambda: log.count == 0 and not log.lines, 'log.count == 0 and not log.lines')


class NarrowApp(App[None]):
    CSS = "DiceLog { width: 40; }"

    def compose(self) -> ComposeResult:
        yield DiceLog(seats=("Ana", "Bo"))


async def test_lines_wrap_to_a_narrow_pane_so_the_outcome_stays_visible() -> None:
    app = NarrowApp()
    async with app.run_test(size=(80, 12)) as pilot:
        log = app.query_one(DiceLog)
        log.show_events([roll_event("Special Magic Check", 2, seat=1)])
        await until(pilot, lambda: (
            len(log.lines) > 1
            and max(line.cell_length for line in log.lines) <= log.scrollable_content_region.width
            and any("success" in line.text or "failure" in line.text for line in log.lines)
        ), 'len(log.lines) > 1')
        assert len(log.lines) > 1  # wrapped, not cut at RichLog's default 78 columns
        assert max(line.cell_length for line in log.lines) <= log.scrollable_content_region.width
        assert any("success" in line.text or "failure" in line.text for line in log.lines)
