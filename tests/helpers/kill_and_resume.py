"""Shared by test_kill_and_resume.py and other test modules, which import them from here.

started_session, moved here from tests/tui/test_kill_and_resume.py.
"""

from __future__ import annotations

from engine.wizards_cup.actions import ChooseTeam, SetLineup
from saves import LiveSession, SeatInfo, SessionStore

ANA = ["pyre-lord", "mist-warden", "deepwater-regent", "echo-warden", "moss-hermit"]


def started_session(store: SessionStore) -> LiveSession:
    """A session at the start of round 1's duels."""
    live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "easy")])
    for seat in (0, 1):
        displayed = live.state.players[seat].displayed
        picks = [card for card in [*ANA, "tide-caller"] if card != displayed][:5]
        live.apply(seat, ChooseTeam(tuple(picks)))
    for seat in (0, 1):
        live.apply(seat, SetLineup(tuple(live.state.players[seat].team[:5])))
    return live
