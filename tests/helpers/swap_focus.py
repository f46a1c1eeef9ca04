"""Shared by test_swap_focus.py and other test modules, which import them from here.

at_the_swap, swap_focused, moved here from tests/tui/wizards_cup/test_swap_focus.py.
"""

from __future__ import annotations

from textual.widgets import OptionList

from engine.wizards_cup.actions import ChooseTeam, SetLineup
from engine.wizards_cup.state import Phase
from saves import LiveSession, SeatInfo, SessionStore
from tui.app import CovenApp
from tui.screens.game.screen import GameScreen

ANA_TEAM = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
BO_TEAM = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]


def at_the_swap(store: SessionStore) -> LiveSession:
    """Ana (here) against the normal bot, both teams in, round 1 played: Ana's swap is next."""
    live = LiveSession.create(store, "wizards-cup", {"tokens_to_win": 3}, 7,
                              [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
    live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
    live.apply(1, ChooseTeam(tuple(BO_TEAM)))
    for seat in (0, 1):
        live.apply(seat, SetLineup(tuple(live.state.players[seat].team)[:5]))
    while live.table_action is not None:
        live.play_table()
    assert live.state.phase is Phase.SWAP
    return live


def swap_focused(app: CovenApp) -> bool:
    """Whether the game screen is up with the keyboard on the swap's team list."""
    lists = app.screen.query("#sp-team") if isinstance(app.screen, GameScreen) else None
    return bool(lists) and lists.first(OptionList).has_focus
