"""Coven's one-shot waits are alarms (tui/alarm.py): Textual's ``set_timer`` drops a firing the loop is late for."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "tui"


def set_timer_calls(source: str) -> list[int]:
    """Lines of ``source`` that call or pass on a ``set_timer`` (Textual's one-shot timer)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == "set_timer"]


def test_the_finder_sees_a_call_and_a_passed_method() -> None:
    assert set_timer_calls("self.set_timer(1, f)\nx = Later(app.set_timer)\nself.set_interval(1, f)\n") == [1, 2]


def test_no_part_of_the_app_waits_on_textuals_set_timer() -> None:
    found = {f"{path.relative_to(TUI.parent)}:{line}"
             for path in sorted(TUI.rglob("*.py")) for line in set_timer_calls(path.read_text(encoding="utf-8"))}
    assert not found, f"use tui.alarm.set_alarm (or a screen's set_alarm) instead of set_timer at {sorted(found)}"
