"""Pilot tests of the Wizbits battlefield: the sides, choosing, paying, playing, passing, stepping and the layouts.

Conflict, damage division, discards and flip-Income targets are in
``test_wizbits_tui_conflict``; the harness is ``wizbits_battle``.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from engine.wizbits import actions as act
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import SMALL, BattleApp, names, opening, prompt, resolving, run, with_hand
from tests.helpers.wizbits_game import RULES
from tui.games.wizbits.cost import CostDialog
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.side import SidePanel

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
        # Bo's side holds more than fits at 100x30: the marker takes the deck name's room on the border.
        assert app.table.query_one("#wb-opp", SidePanel).border_subtitle == "▼ 1 more"
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
        await until(pilot, lambda: (
            app.chosen[-1]["type"] == "play" and app.chosen[-1]["card"] == volley
            and app.chosen[-1]["targets"] == [target] and app.chosen[-1]["pay"] == {"deck": 2, "secede": []}
            and len(game.state.players[0].deck) == deck_before - 2
            and [unit.name for unit in game.pillar().units()] == ["Sparkswarm Volley"]
        ), 'app.chosen[-1]["type"] == "play" and app.chosen[-1]["card...')
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
        await until(pilot, lambda: (app.chosen[-1]["pay"] == {"deck": 0, "secede": [kite]}
                                    and game.permanent(kite).seceded),
                    'app.chosen[-1]["pay"] == {"deck": 0, "secede": [kite]}')
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
        assert "your deck has only 1 card" in dialog.message and "1 cards" not in dialog.message
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
        # Every step played (the Ripple counters the Volley, so one is enough), then auto stops by itself.
        await until(pilot, lambda: not game.state.resolving and not tree.auto, "the pillar to resolve")
        assert app.steps >= 1

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
        await until(pilot, lambda: (not table.step_mode and table.plays_by_itself(act.Step("resolve"))
                                    and app.steps == 1),
                    'not table.step_mode and table.plays_by_itself(act.Step("r...')
        assert not table.step_mode and table.plays_by_itself(act.Step("resolve"))
        assert app.steps == 1  # the waiting step was asked for at once

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
