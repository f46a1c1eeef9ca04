"""Shared by test_wizbits_layout_audit.py and other test modules, which import them from here.

crowded_table, live_at, moved here from tests/tui/wizbits/test_wizbits_layout_audit.py.
"""

from __future__ import annotations

from engine.core.undo import Timeline
from engine.wizbits.state import Phase, WizbitsState
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.wizbits_game import Game

DECKS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}


HAND = ("radiant-verdict", "sparkswarm-volley", "emberbeetle-squire", "prism-kite", "glowworm-warden",
        "mossback-stagbeetle", "ripple-of-doubt")
"""Seven cards, so the hand is full."""


def crowded_table() -> WizbitsState:
    """Ana holds Priority with 7 cards in hand; both sides hold several cards; a unit on the pillar targets one."""
    game = Game(1, DECKS)
    game.settle()
    assert game.state.phase == Phase.ELEMENTS and game.state.priority == 0
    for card_id in ("emberbeetle-squire", "prism-kite", "glowworm-warden", "mossback-stagbeetle"):
        game.give(0, card_id, "play")
    scout = game.give(1, "pondskater-scout", "play")
    game.give(1, "flickerwand", "play", seceded=True)
    for card_id in ("cobweb-cloak", "mayfly-tidecaller", "glowworm-warden"):
        game.give(1, card_id, "play")
    game.play(0, "sparkswarm-volley", targets=[scout])  # a unit on the pillar, with its chosen target
    if game.state.priority == 1:
        game.pass_()  # Bo passes: Ana holds Priority again
    player = game.state.players[0]
    player.deck.extend(player.hand)
    player.hand.clear()
    for card_id in HAND:
        game.give(0, card_id)
    assert game.state.priority == 0 and len(game.state.players[0].hand) == 7
    return game.state


def live_at(store: SessionStore, state: WizbitsState) -> LiveSession:
    """A stored session whose current state is ``state`` (the crowded table, as built through the engine)."""
    live = LiveSession.create(store, "wizbits", DECKS, 1, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    live._timeline = Timeline(live.rules, state, [seat.name for seat in live.seats])
    assert live.state is state, "the session must show the crowded table, or the audit checks nothing"
    return live
