"""The Wizbits cost dialog says every cost of the chosen play: a Trigger's random discard, a card it secedes,
and under each card that may be seceded what seceding it sets going (the engine's ``costs`` queries)."""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.text import ability_text
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import SMALL, BattleApp, opening, run, with_hand
from tui.games.wizbits.cost import CostDialog


def screen_text(app: Any) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def choose_ability(pilot: Any, app: BattleApp, iid: int, ability: int) -> None:
    """Highlight the hand pane's line for ``iid``'s ability and take it, then confirm its (empty) targets."""
    line = next(index for index, entry in enumerate(app.table.entries) if (entry.iid, entry.ability) == (iid, ability))
    app.table.query_one("#wb-list", OptionList).highlighted = line
    await pilot.press("enter")
    assert app.table.stage == "compose"
    await pilot.press("enter")


def test_the_archmage_ping_says_it_costs_a_random_discard_and_takes_one() -> None:
    game = opening()
    ana = game.state.players[0]
    hand = len(ana.hand)
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await choose_ability(pilot, app, ana.main, 1)
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        extra = str(dialog.query_one("#cost-extra", Static).render())
        assert f"Discard 1 card at random from your hand ({hand} cards in hand)." in extra
        assert "Discard 1 card at random" in screen_text(app)  # on screen at 80x24, not only in the widget
        await pilot.press("1", "1", "enter")
        await until(pilot, lambda: (app.chosen[-1]["type"] == "activate" and app.chosen[-1]["ability"] == 1
                                    and len(game.state.players[0].hand) == hand - 1),
                    'app.chosen[-1]["type"] == "activate" and app.chosen[-1]["...')
        assert app.chosen[-1]["type"] == "activate" and app.chosen[-1]["ability"] == 1
        assert len(game.state.players[0].hand) == hand - 1

    run(app, scenario, SMALL)


def test_each_card_to_secede_shows_what_its_secession_sets_going() -> None:
    game = opening()
    with_hand(game, "radiant-verdict")
    squire = next(p.iid for p in game.state.players[0].in_play if game.state.cards[p.iid] == "emberbeetle-squire")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")
        if app.table.stage == "compose":
            await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        assert not dialog.query_one("#cost-extra").display  # a card play costs points only
        listing = dialog.query_one("#cost-cards", OptionList)
        index = [card.iid for card in dialog.candidates].index(squire)
        flip = ability_text(CARDS_BY_ID["emberbeetle-squire"].flip_abilities[0])
        line = str(listing.get_option_at_index(index).prompt)
        assert line.startswith("Emberbeetle Squire  +2") and f"As it flips: {flip}" in line
        assert "As it flips" in screen_text(app)
        listing.highlighted = index
        await pilot.press("2")  # seceded for this payment: still says what it sets going
        assert f"As it flips: {flip}" in str(listing.get_option_at_index(index).prompt)

    run(app, scenario, SMALL)


def test_a_trigger_that_only_secedes_its_card_opens_the_dialog_to_say_so() -> None:
    game = opening()
    herbalist = game.give(0, "bumblebee-herbalist", "play")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await choose_ability(pilot, app, herbalist, 0)
        dialog = app.screen
        assert isinstance(dialog, CostDialog), "a free Trigger with a cost besides points still shows its costs"
        extra = str(dialog.query_one("#cost-extra", Static).render())
        assert "Secede Bumblebee Herbalist (it gives no points)." in extra
        assert app.chosen == []
        await pilot.press("enter")
        await until(pilot, lambda: (app.chosen[-1]["type"] == "activate" and game.permanent(herbalist).seceded),
                    'app.chosen[-1]["type"] == "activate" and game.permanent(h...')

    run(app, scenario, SMALL)


def test_the_dialog_says_an_ability_is_used_not_its_card_played_and_what_seceding_gathers() -> None:
    game = opening()
    ana = game.state.players[0]
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await choose_ability(pilot, app, ana.main, 1)
        dialog = app.screen
        assert isinstance(dialog, CostDialog)
        title = str(dialog.query_one("#cost-title", Static).render())
        assert title.startswith("Pay to use an ability of Cinderwing Archmage · cost 2"), title
        listing = dialog.query_one("#cost-cards", OptionList)
        # Ana may secede her Emberbeetle Squire (2 points) and her Prism Kite (Offering: 3 points).
        assert str(listing.border_title) == "Cards you may secede (+2 or +3 points)"
        assert "Pay to use an ability of Cinderwing Archmage" in screen_text(app)

    run(app, scenario, SMALL)


def test_the_dialog_says_a_card_is_played() -> None:
    game = opening()
    with_hand(game, "sparkswarm-volley")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")
        await until(pilot, lambda: app.table.stage == "compose", "the play is being composed")
        await pilot.press("enter", "enter")
        await until(pilot, lambda: isinstance(app.screen, CostDialog), "the cost dialog is open")
        title = str(app.screen.query_one("#cost-title", Static).render())
        assert title.startswith("Pay to play Sparkswarm Volley · cost 2"), title

    run(app, scenario, SMALL)
