"""A Wizbits battlefield over a test game, and the situations the battlefield tests start from.

:class:`BattleApp` mounts the table the way the game screen does and drives a
:class:`~wizbits_game.Game` through the rules: chosen actions are applied,
step requests play the table's step, and the rules answer the table's
``checker``. Situations are set up by placing cards with ``Game.give``, so the
tests do not wait for the deck to deal them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static

from engine import ActionError, Event
from engine.wizbits import actions as act
from engine.wizbits.state import Phase
from tests.helpers.waiting import until
from tests.helpers.wizbits_game import RULES, Game
from tui.games.base import GameTable
from tui.games.wizbits.table import WizbitsTable

BIG = (100, 30)
SMALL = (80, 24)


class BattleApp(App[None]):
    """The battlefield over a test game: status line, table, a 6-line log and the footer, like the game screen."""

    CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #area { height: 1fr; }
    #log { height: 7; border-top: solid $accent; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, game: Game, viewer: int = 0) -> None:
        super().__init__()
        self.game = game
        self.viewer = viewer
        self.table = WizbitsTable()
        self.table.checker = self.check
        self.chosen: list[dict[str, Any]] = []
        self.steps = 0

    def compose(self) -> ComposeResult:
        yield Static("Wizbits · a test table", id="status")
        with Vertical(id="area"):
            yield self.table
        yield Static("", id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.table.show_events(self.game.events)
        self.redraw()

    @property
    def deciding(self) -> int | None:
        """The viewer, when the rules wait for them."""
        return self.viewer if self.viewer in RULES.to_act(self.game.state) else None

    def redraw(self) -> None:
        seat = self.deciding
        legal = RULES.legal_actions(self.game.state, seat) if seat is not None else []
        self.table.show(RULES.view(self.game.state, self.viewer), seat, legal)
        self.query_one("#log", Static).update("\n".join(event.text for event in self.game.events[-6:]))

    def check(self, seat: int, action: act.Action) -> str | None:
        try:
            RULES.check_action(self.game.state, seat, action)
        except ActionError as error:
            return error.reason
        return None

    def on_game_table_action_chosen(self, message: GameTable.ActionChosen[act.Action]) -> None:
        self.chosen.append(RULES.action_to_json(message.action))
        self.shown(self.game.act(message.seat, message.action))

    def on_game_table_step_requested(self, _: GameTable.StepRequested) -> None:
        if RULES.table_action(self.game.state) is not None:
            self.steps += 1
            self.shown(self.game.step())

    def shown(self, events: list[Event]) -> None:
        self.table.show_events(events)
        self.redraw()


def run(app: BattleApp, scenario: Callable[[Any], Awaitable[None]], size: tuple[int, int] = BIG) -> None:
    """Run ``scenario(pilot)`` against ``app`` at ``size``, once its choice list is laid out for its width."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: list_fitted(app), "the choice list laid out at its width")
            await scenario(pilot)

    asyncio.run(main())


def list_fitted(app: BattleApp) -> bool:
    """Whether the choice list has its width and the hand's rows were laid out for it.

    The rows are first written before the list is laid out, then again for its width: a scenario that read
    them in between (on a busy machine) would keep rows the table has since rewritten.
    """
    table = app.table
    listing = table.query_one("#wb-list", OptionList)
    if not listing.scrollable_content_region.width:
        return False
    if table.rows or not table.entries or table.inspecting:
        return True
    return table._entries_width == table._entries_room(listing)


# -- situations -----------------------------------------------------------------------------


DECKS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}


def opening(seed: int = 1) -> Game:
    """Ana's first Elements pillar, with a few cards in play on both sides and a seceded Flickerwand for Bo."""
    game = Game(seed, DECKS)
    game.settle()
    assert game.state.phase == Phase.ELEMENTS and game.state.priority == 0
    game.give(0, "emberbeetle-squire", "play")
    game.give(0, "prism-kite", "play")
    game.give(1, "pondskater-scout", "play")
    game.give(1, "flickerwand", "play", seceded=True)
    game.give(1, "cobweb-cloak", "play")
    return game


def with_hand(game: Game, *card_ids: str) -> list[int]:
    """Replace Ana's hand with these cards (the old hand goes back on the deck); returns their iids."""
    player = game.state.players[0]
    player.deck.extend(player.hand)
    player.hand.clear()
    return [game.give(0, card_id) for card_id in card_ids]


def conflict(defenders: int = 2) -> tuple[Game, list[int], list[int]]:
    """Ana's Conflict with two attackers ready; Bo has ``defenders`` characters besides his Main Character."""
    game = Game(1, DECKS)
    game.settle()
    attackers = [game.give(0, "mossback-stagbeetle", "play"), game.give(0, "emberbeetle-squire", "play")]
    blockers = [game.give(1, card, "play") for card in ("glowworm-warden", "mayfly-tidecaller")[:defenders]]
    game.to_phase(Phase.ATTACK)
    return game, attackers, blockers


def names(app: BattleApp) -> list[str]:
    """The choice list's lines as plain text."""
    listing = app.table.query_one("#wb-list", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def prompt(app: BattleApp) -> str:
    return str(app.table.query_one("#wb-prompt", Static).render())


def resolving() -> Game:
    """Ana's Volley and Bo's Ripple of Doubt on it stand on the Elements pillar; both passed, so it resolves."""
    game = opening()
    scout = next(p.iid for p in game.state.players[1].in_play if game.state.cards[p.iid] == "pondskater-scout")
    game.play(0, "sparkswarm-volley", targets=[scout])
    game.pass_()
    game.play(1, "ripple-of-doubt", targets=[game.newest_unit().uid])
    game.pass_()
    game.pass_()
    assert game.state.resolving
    return game


def division() -> Game:
    """Ana's Stagbeetle is blocked by both of Bo's characters; Ana divides its damage between them."""
    game, attackers, blockers = conflict()
    game.act(0, act.Attack((attackers[0],)))
    game.act(1, act.Block(tuple((b, attackers[0]) for b in blockers)))
    game.advance(lambda s: s.phase == Phase.DIVIDE)
    assert 0 in RULES.to_act(game.state)
    return game


def inspect_note(app: BattleApp) -> str:
    """What Inspect says about the line looked at, at the head of the card box."""
    return str(app.table.query_one("#wb-note", Static).render())
