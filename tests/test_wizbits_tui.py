"""Pilot tests of the Wizbits battlefield: choosing, paying, playing, passing, stepping, Conflict and the layouts.

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
from tui.games.base import GameTable
from tui.games.wizbits import WizbitsTable
from tui.screens.wizbits_cost import CostDialog
from tui.widgets.pillar_tree import PillarTree
from tui.widgets.wizbits_side import SidePanel
from wizbits_game import RULES, Game

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

    def check(self, seat: int, data: dict[str, Any]) -> str | None:
        try:
            RULES.check_action(self.game.state, seat, RULES.parse_action(data))
        except ActionError as error:
            return error.reason
        return None

    def on_game_table_action_chosen(self, message: GameTable.ActionChosen) -> None:
        self.chosen.append(message.action)
        self.shown(self.game.act(message.seat, RULES.parse_action(message.action)))

    def on_game_table_step_requested(self, _: GameTable.StepRequested) -> None:
        if RULES.table_action(self.game.state) is not None:
            self.steps += 1
            self.shown(self.game.step())

    def shown(self, events: list[Event]) -> None:
        self.table.show_events(events)
        self.redraw()


def run(app: BattleApp, scenario: Callable[[Any], Awaitable[None]], size: tuple[int, int] = BIG) -> None:
    """Run ``scenario(pilot)`` against ``app`` at ``size``."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(main())


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


# -- the battlefield ------------------------------------------------------------------------


def test_each_side_shows_its_cards_counts_and_seceded_flip_abilities() -> None:
    game = opening()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        opponent = app.table.query_one("#wb-opp", SidePanel).text.plain
        you = app.table.query_one("#wb-you", SidePanel).text.plain
        bo = game.state.players[1]
        assert f"Deck {len(bo.deck)}" in opponent and f"Hand {len(bo.hand)}" in opponent
        # The SCN as it stands in play (Continue abilities change it), not as printed.
        assert "Tidewhisper Sage" in opponent and f"S d6 W d8 M d10 SCN {game.scn(bo.main)}" in opponent
        assert "Pondskater Scout" in opponent and "Cobweb Cloak" in opponent
        assert "FLIPPED" in opponent and "Flickerwand" in opponent and "Deal 1 damage" in opponent.split("FLIPPED")[1]
        assert "Emberbeetle Squire" in you and "Prism Kite" in you
        assert app.table.query_one("#wb-opp", SidePanel).border_title == "Bo"
        assert app.table.query_one("#wb-opp", SidePanel).border_subtitle == "Tidal Dusk"
        assert app.table.query_one("#wb-you", SidePanel).border_title == "Ana ▶ ◆ Priority"
        assert app.table.query_one("#wb-you", SidePanel).border_subtitle == "you · Ember Dawn"
        # Ana's hand is listed in full; Bo's never appears.
        hand = game.state.players[0].hand
        cards = [line for line in names(app) if not line.startswith("⚡")]
        assert len(cards) == len(hand) and any(line.startswith("⚡ Cinderwing Archmage") for line in names(app))
        assert all(iid not in RULES.view(game.state, 0).cards for iid in bo.hand)

    run(app, scenario)


def test_damage_shows_in_the_scn() -> None:
    game = opening()
    main = game.state.players[1].main
    game.permanent(main).damage = 2
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert f"SCN {game.scn(main)} (2 dmg)" in app.table.query_one("#wb-opp", SidePanel).text.plain

    run(app, scenario)


def test_the_timeline_lights_the_phase_and_names_priority() -> None:
    app = BattleApp(opening())

    async def scenario(pilot: Any) -> None:
        bar = str(app.table.query_one("#wb-timeline").render())
        assert "Play 1: Elements" in bar and "Priority: Ana" in bar
        assert bar.index("Test") < bar.index("Play 1: Elements") < bar.index("Conflict")

    run(app, scenario)


# -- playing a card -------------------------------------------------------------------------


def test_choose_target_pay_from_the_deck_and_play() -> None:
    game = opening()
    volley, = with_hand(game, "sparkswarm-volley")
    deck_before = len(game.state.players[0].deck)
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")
        assert app.table.stage == "compose"
        rows = names(app)
        assert rows and rows[0].startswith("A chosen opposing character")
        await pilot.press("space")  # the other legal target
        target = app.table.rows[0].value
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        assert "2 more needed" in (dialog.verdict or "")
        await pilot.press("enter")  # not enough yet: nothing is sent
        assert app.chosen == [] and "Not yet" in dialog.message
        await pilot.press("1", "1")
        assert dialog.verdict is None and dialog.gathered == 2
        await pilot.press("1")  # a third point would overpay: refused by the engine
        assert dialog.payment.deck == 2 and "more than the 2 needed" in dialog.message
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen[-1]["type"] == "play" and app.chosen[-1]["card"] == volley
        assert app.chosen[-1]["targets"] == [target] and app.chosen[-1]["pay"] == {"deck": 2, "secede": []}
        assert len(game.state.players[0].deck) == deck_before - 2
        assert [unit.name for unit in game.pillar().units()] == ["Sparkswarm Volley"]

    run(app, scenario)


def test_pay_by_seceding_with_offering() -> None:
    game = opening()
    with_hand(game, "radiant-verdict")  # cost 3: Prism Kite's Offering gives exactly 3
    kite = next(p.iid for p in game.state.players[0].in_play if game.state.cards[p.iid] == "prism-kite")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")
        if app.table.stage == "compose":
            await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        listing = dialog.query_one("#cost-cards", OptionList)
        listing.highlighted = [c.iid for c in dialog.candidates].index(kite)
        await pilot.press("2")
        assert dialog.payment.secede == (kite,) and dialog.gathered == 3 and dialog.verdict is None
        await pilot.press("backspace")
        assert dialog.payment == act.Payment()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert app.chosen[-1]["pay"] == {"deck": 0, "secede": [kite]}
        assert game.permanent(kite).seceded

    run(app, scenario)


def test_the_dialog_refuses_an_empty_deck() -> None:
    game = opening()
    with_hand(game, "sparkswarm-volley")
    game.empty_deck(0, keep=1)
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter", "enter")
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        await pilot.press("1", "1")
        assert dialog.payment.deck == 1
        assert "your deck has only 1 cards" in dialog.message
        await pilot.press("escape")
        assert app.chosen == [] and app.table.stage == "compose"

    run(app, scenario)


def test_an_unplayable_card_says_why_and_escape_goes_back() -> None:
    game = opening()
    with_hand(game, "empty-thimble", "sparkswarm-volley")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")  # a Non-Element in the Elements pillar
        assert app.table.stage == "hand" and "can't be played in the Elements pillar" in prompt(app)
        await pilot.press("down", "enter")
        assert app.table.stage == "compose"
        await pilot.press("escape")
        assert app.table.stage == "hand" and app.chosen == []

    run(app, scenario)


def test_pass_with_x() -> None:
    game = opening()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("x")
        assert app.chosen == [{"type": "pass"}]
        assert game.state.priority == 1 and app.table.stage == "watch"

    run(app, scenario)


# -- stepping a pillar ------------------------------------------------------------------------


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


def test_step_with_n_and_the_resolved_units_leave_the_tree() -> None:
    game = resolving()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        tree = app.table.query_one(PillarTree)
        assert tree.mode == "step" and app.table.stage == "watch"
        before = len(list(tree.pillar.units())) if tree.pillar else 0
        await pilot.press("n")
        assert app.steps == 1
        after = len(list(tree.pillar.units())) if tree.pillar else 0
        assert after < before or tree.pillar is None
        assert any(event.kind == "resolve_step" for event in game.events)

    run(app, scenario)


def test_auto_resolves_with_a_pause_and_p_pauses() -> None:
    game = resolving()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        tree = app.table.query_one(PillarTree)
        tree.auto_pause = 0.05
        await pilot.press("a")
        await pilot.pause(0.5)
        # Every step played (the Ripple counters the Volley, so one is enough), then auto stops by itself.
        assert app.steps >= 1 and not game.state.resolving and not tree.auto

    run(app, scenario)

    paused = BattleApp(resolving())

    async def pause_it(pilot: Any) -> None:
        tree = paused.table.query_one(PillarTree)
        tree.auto_pause = 5.0
        await pilot.press("a")
        assert tree.auto and "(auto)" in str(tree.query_one("#pt-title", Static).render())
        await pilot.press("p")
        assert not tree.auto and paused.steps == 0

    run(paused, pause_it)


def test_step_mode_off_plays_resolution_by_itself() -> None:
    game = resolving()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert not table.plays_by_itself(act.Step("resolve")) and table.plays_by_itself(act.Step("test"))
        await pilot.press("m")
        await pilot.pause()
        assert not table.step_mode and table.plays_by_itself(act.Step("resolve"))
        assert app.steps == 1  # the waiting step was asked for at once

    run(app, scenario)


# -- Conflict -------------------------------------------------------------------------------


def test_declare_attackers() -> None:
    game, attackers, _ = conflict()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "attack"
        keys = [row.key for row in app.table.rows]
        await pilot.press("down")
        row = keys.index(attackers[0])
        app.table.query_one("#wb-list", OptionList).highlighted = row
        await pilot.press("space", "enter")
        assert app.chosen == [{"type": "attack", "attackers": [attackers[0]]}]
        assert game.state.phase == Phase.BLOCK

    run(app, scenario)


def test_block_from_the_keyboard() -> None:
    game, attackers, blockers = conflict()
    game.act(0, act.Attack(tuple(attackers)))
    app = BattleApp(game, viewer=1)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "block"
        index = [r.key for r in app.table.rows].index(blockers[0])
        app.table.query_one("#wb-list", OptionList).highlighted = index
        await pilot.press("space")
        row = app.table.rows[index]
        assert row.value in attackers and "→ blocks" in names(app)[index]
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "block", "blocks": [[blockers[0], row.value]]}
        assert game.state.blocks == {blockers[0]: row.value}

    run(app, scenario)


def test_assign_shows_attacker_to_defender_lines() -> None:
    game, attackers, blockers = conflict()
    game.act(0, act.Attack(tuple(attackers)))
    game.act(1, act.Block(()))
    assert game.state.phase == Phase.ASSIGN
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "assign"
        await pilot.press("space")
        first = app.table.rows[0]
        assert first.value is not None and " → " in names(app)[0]
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "assign", "assignments": [[first.key, first.value]]}
        # The battles formed are shown as lines too.
        assert "→" in prompt(app)

    run(app, scenario)


def division() -> Game:
    """Ana's Stagbeetle is blocked by both of Bo's characters; Ana divides its damage between them."""
    game, attackers, blockers = conflict()
    game.act(0, act.Attack((attackers[0],)))
    game.act(1, act.Block(tuple((b, attackers[0]) for b in blockers)))
    game.advance(lambda s: s.phase == Phase.DIVIDE)
    assert 0 in RULES.to_act(game.state)
    return game


def test_divide_damage_with_plus_minus_and_the_remaining_counter() -> None:
    game = division()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert table.stage == "divide" and len(table.rows) == 2
        total = table.total
        assert f"Remaining: {total} of {total}" in prompt(app)
        for _ in range(total + 1):
            await pilot.press("plus")
        assert table.rows[0].value == total and "No damage left" in prompt(app)
        await pilot.press("minus", "down", "plus")
        assert [row.value for row in table.rows] == [total - 1, 1]
        assert f"Remaining: 0 of {total}" in prompt(app)
        await pilot.press("enter")
        assert app.chosen[-1] == {"type": "divide", "damage": [[table_rows_key(game, 0), total - 1],
                                                               [table_rows_key(game, 1), 1]]}

    keys: list[int] = []

    def table_rows_key(_: Game, index: int) -> int:
        return keys[index]

    async def remember_then(pilot: Any) -> None:
        keys.extend(row.key for row in app.table.rows)
        await scenario(pilot)

    run(app, remember_then)


def test_discard_at_reconcile() -> None:
    game = Game(1)
    game.settle()
    for card in ("pollen-drift", "pollen-drift", "ripple-of-doubt"):
        game.give(0, card)
    game.advance(lambda s: s.phase == Phase.RECONCILE_DOWN)
    need = len(game.state.players[0].hand) - 7
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.stage == "discard" and app.table.total == need
        await pilot.press("space", "enter")  # one marked, not enough when need > 1
        if need > 1:
            assert app.chosen == [] and f"discard exactly {need}" in prompt(app)
            for _ in range(need - 1):
                await pilot.press("down", "space")
            await pilot.press("enter")
        assert app.chosen[-1]["type"] == "discard" and len(app.chosen[-1]["cards"]) == need

    run(app, scenario)


# -- layouts ------------------------------------------------------------------------------------


def test_compact_layout_hides_panes_behind_keys() -> None:
    app = BattleApp(opening())

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert table.compact
        centre, dice = table.query_one("#wb-centre"), table.query_one("#wb-dice")
        opp = table.query_one("#wb-opp", SidePanel)
        assert not centre.display and opp.brief
        await pilot.press("t")
        assert centre.display and table.query_one(PillarTree).display and not dice.display
        await pilot.press("d")
        assert dice.display
        await pilot.press("o")
        assert not opp.brief and "Cobweb Cloak" in opp.text.plain

    run(app, scenario, SMALL)


def test_full_layout_shows_everything_at_100x30() -> None:
    app = BattleApp(opening())

    async def scenario(pilot: Any) -> None:
        table = app.table
        assert not table.compact
        for pane in ("#wb-centre", "#wb-dice", "#wb-pillar", "#wb-opp", "#wb-you", "#wb-list"):
            assert table.query_one(pane).display, pane
        assert not table.check_action("pane", ("dice",))

    run(app, scenario)
