"""Shared by test_tables_tui.py and other test modules, which import them from here.

SPEC, hal_hosts, play_for, screen_text, moved here from tests/tui/test_tables_tui.py.
"""

from __future__ import annotations

import random

from engine import get_game
from saves import LiveSession
from saves.tables import SeatPlan, TableStore
from tui.app import CovenApp

SPEC = get_game("wizards-cup")


def screen_text(app: CovenApp) -> str:
    """Everything on screen, as plain text."""
    return app.export_screenshot().replace("&#160;", " ")


def hal_hosts(other: TableStore, seed: int, *, spectators: bool = False) -> str:
    """Hal hosts a two-seat Wizards Cup table from the other process, seat 2 open; returns its code."""
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    return other.host("wizards-cup", {}, seed, plan, host_name="Hal", allow_spectators=spectators).info.code


def play_for(live: LiveSession, seat: int, rng: random.Random) -> None:
    """Play one easy-bot action for ``seat`` from its own view."""
    view = live.rules.view(live.state, seat)
    legal = live.rules.legal_actions(live.state, seat)
    live.apply(seat, SPEC.bots["easy"](view, legal, rng))
