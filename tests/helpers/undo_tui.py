"""Shared by test_undo_tui.py and other test modules, which import them from here.

Host, to_a_play, undo_key, moved here from tests/tui/test_undo_tui.py.
"""

from __future__ import annotations

from textual.app import App

from engine.wizbits.actions import Pass, PlayCard
from engine.wizbits.terms import Category
from saves import LiveSession, SeatInfo, SessionStore
from tui.screens.game.screen import GameScreen
from tui.widgets.fitting_footer import FittingFooter


class Host(App[None]):
    """Opens the game screen on a session."""

    def __init__(self, live: LiveSession) -> None:
        super().__init__()
        self.live = live

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.live, auto_delay=0.01))


def undoable_plays(live: LiveSession, seat: int) -> list[PlayCard]:
    """``seat``'s card plays that the undo rule would let it take back (none shows a hidden card)."""
    rules, state = live.rules, live.state
    found = []
    for action in rules.legal_actions(state, seat):
        if isinstance(action, PlayCard):
            after, events = rules.apply(state, seat, action)
            if rules.undo_barrier(state, after, seat, events) is None:
                found.append(action)
    return found


def to_an_undoable_play(live: LiveSession, seat: int) -> PlayCard:
    """Play on until ``seat`` holds Priority with a card play it could take back, and return that play.

    A payment from the deck shows its cards, so such a play costs nothing or pays by seceding:
    ``seat`` puts Characters and Non-Elements in play when it can, everyone else passes.
    """
    for _ in range(800):
        if seat in live.to_act:
            found = undoable_plays(live, seat)
            if found:
                return found[0]
        if not live.to_act:
            live.play_table()
            continue
        acting = live.to_act[0]
        legal = live.rules.legal_actions(live.state, acting)
        lasting = [action for action in legal if acting == seat and isinstance(action, PlayCard)
                   and live.state.card(action.card).category is not Category.ELEMENT]
        live.apply(acting, lasting[0] if lasting else next((a for a in legal if isinstance(a, Pass)), legal[0]))
    raise AssertionError("the seat never had a play it could take back")


def to_a_play(store: SessionStore) -> tuple[LiveSession, PlayCard]:
    """A solo Wizbits game where Ana (seat 0) holds Priority with a card play she could take back."""
    live = LiveSession.create(store, "wizbits", {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}, 3,
                              [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    return live, to_an_undoable_play(live, 0)


def undo_key(screen: GameScreen) -> str | None:
    """The undo key's description in the Footer, or None when it is not shown."""
    footer = screen.query_one(FittingFooter)
    return next((text for text in footer.shown if text.startswith("Undo")), None)
