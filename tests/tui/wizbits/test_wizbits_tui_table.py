"""Pilot tests of the Wizbits battlefield's fit and keys: tree lines at 100x30 and 80x24, enter, the footer,
inspecting the table, the prompt's refusals, the side counts, the replay and saved deck names.

The nested pillar here (:func:`nested`) also makes the battlefield snapshot in ``test_snapshots_wizbits``.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding
from textual.widgets import Footer, OptionList
from textual.widgets._footer import FooterKey

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist
from engine.wizbits.text import ability_text
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import BIG, SMALL, BattleApp, inspect_note, names, opening, prompt, run, with_hand
from tests.helpers.wizbits_game import RULES, Game
from tests.helpers.wizbits_tui_table import nested
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.pillar_tree.text import PillarOutline
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.side import SidePanel


def tree_lines(app: BattleApp) -> list[str]:
    """The tree's lines as drawn, each fitted to its pane."""
    tree = app.table.query_one(PillarOutline)
    return [tree.render_label(node, tree.rich_style, tree.rich_style).plain  # type: ignore[arg-type]
            for node in (tree.get_node_at_line(line) for line in range(tree.last_line + 1)) if node is not None]


def assert_every_field_shows(lines: list[str]) -> None:
    wanted = {
        "Sparkswarm Volley": ("Merlin", "card", "h1 IPH1"),
        "S1 Tidewhisper Sage": ("Roo", "abil", "h2 IPH1"),
        "S2 Damage from Merlin": ("Merlin", "dmg", "h3 IPH1"),
        "S3 Pondskater Scout": ("Roo", "abil", "h4 IPH1"),
        "Radiant Verdict": ("Merlin", "card", "h2 IPH2"),
    }
    for name, facts in wanted.items():
        line = next((line for line in lines if name in line and f"on {name}" not in line), None)
        assert line is not None and "…" not in line, (name, lines)
        assert all(f" {fact}" in line for fact in facts), (name, line)
    for header in ("Subpillar 1 · on Sparkswarm Volley", "Subpillar 2 · on Tidewhisper Sage",
                   "Subpillar 3 · on Damage from Merlin"):
        assert any(header in line for line in lines), (header, lines)
    # Foundations keep their mark: ◆ the one chosen, ◇ the other tips.
    assert next(line for line in lines if "Radiant Verdict" in line).lstrip().startswith("◆")
    assert next(line for line in lines if "S3 Pondskater" in line).lstrip().startswith("◇")


def test_a_nested_pillar_shows_every_field_at_100x30() -> None:
    app = BattleApp(nested())

    async def scenario(pilot: Any) -> None:
        assert_every_field_shows(tree_lines(app))

    run(app, scenario, BIG)


def test_a_nested_pillar_shows_every_field_at_80x24_with_t() -> None:
    app = BattleApp(nested())

    async def scenario(pilot: Any) -> None:
        await pilot.press("t")
        assert app.table.query_one(PillarTree).display
        assert_every_field_shows(tree_lines(app))

    run(app, scenario, SMALL)


def test_a_countered_unit_that_stays_is_marked() -> None:
    app = BattleApp(nested(countered=True))

    async def scenario(pilot: Any) -> None:
        line = next(line for line in tree_lines(app) if "S1 Tidewhisper" in line)
        assert line.endswith("Roo abil h2 IPH1 countered")
        assert not any("countered" in line for line in tree_lines(app) if "Radiant" in line)

    run(app, scenario, BIG)


# -- keys ---------------------------------------------------------------------------------------


def test_enter_acts_on_the_line_the_arrows_reached_in_one_burst() -> None:
    game = opening()
    with_hand(game, "sparkswarm-volley", "radiant-verdict", "sparkswarm-volley", "radiant-verdict")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        entries = list(table.entries)
        assert entries[2].playable and entries[2].iid != entries[0].iid
        await pilot.press("down", "down", "enter")
        assert table.stage == "compose" and table.entry is not None and table.entry.iid == entries[2].iid
        await pilot.press("escape", "home")
        # pilot.press waits between keys; a real burst arrives before the list has moved.
        for key in ("down", "down", "enter"):
            event = events.Key(key, None)
            event.set_sender(app)
            app._driver.send_message(event)  # type: ignore[union-attr]
        await pilot.pause()
        await until(pilot, lambda: (
            table.stage == "compose" and table.entry is not None and table.entry.iid == entries[2].iid
        ), 'table.stage == "compose" and table.entry is not None and ...')

    run(app, scenario)


class ScreenKeysApp(BattleApp):
    """The battlefield with the game screen's own keys, to measure the footer as a player sees it."""

    BINDINGS = [Binding("space", "step_key", "Next step"), Binding("a", "step_key", "Auto play"),
                Binding("l", "noop", "Log"), Binding("escape,q", "menu", "Menu")]

    def action_noop(self) -> None:
        """Nothing: only the footer matters here."""

    def action_menu(self) -> None:
        """Nothing (the footer groups keys by action, so Menu needs its own)."""

    def action_step_key(self) -> None:
        """Nothing: the table's own keys are under test."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Like the game screen: no "Next step" or "Auto play" while a human here decides.
        return self.deciding is None if action == "step_key" else True


def footer_keys(app: BattleApp) -> dict[str, FooterKey]:
    return {key.description: key for key in app.query_one(Footer).query(FooterKey)}


def test_the_compact_footer_lists_the_pane_keys_and_still_fits_menu() -> None:
    app = ScreenKeysApp(opening())

    async def scenario(pilot: Any) -> None:
        assert not app.table.compact
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: app.table.compact, 'app.table.compact')
        await until(pilot, lambda: "Panes" in footer_keys(app) and footer_keys(app)["Panes"].region.width > 0,
                    "the compact Footer's keys laid out")
        keys = footer_keys(app)
        assert "Panes" in keys and keys["Panes"].key_display == "t/d/o"
        assert "Menu" in keys and keys["Menu"].region.right <= SMALL[0] - 1
        assert all(key.region.right <= SMALL[0] for key in keys.values())

    run(app, scenario, BIG)


def test_step_mode_lists_one_step_key() -> None:
    from tests.helpers.wizbits_battle import resolving

    app = ScreenKeysApp(resolving())

    async def scenario(pilot: Any) -> None:
        await until(pilot, lambda: "Step" in footer_keys(app), "the Step key")
        assert "Next step" not in footer_keys(app)
        before = app.steps
        await pilot.press("space")
        assert app.steps == before + 1

    run(app, scenario)


# -- inspecting ---------------------------------------------------------------------------------


def test_i_inspects_cards_in_play_on_both_sides_and_pillar_units() -> None:
    game = nested()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        hand = names(app)
        await pilot.press("i")
        shown = names(app)
        assert any("Roo" in line and "Tidewhisper Sage" in line for line in shown)
        assert any("Merlin" in line and "Emberbeetle Squire" in line for line in shown)
        assert any(line.startswith("Pillar Pondskater Scout ability") for line in shown)
        card = table.query_one(WizbitsCard)
        assert card.card_id == game.state.cards[game.state.players[1].in_play[0].iid]  # the opponent's first
        # Down to the pillar's Scout ability: its card in full, its ability's text in the prompt.
        listing = table.query_one("#wb-list", OptionList)
        while not names(app)[listing.highlighted or 0].startswith("Pillar Pondskater"):
            await pilot.press("down")
        ability = CARDS_BY_ID["pondskater-scout"].abilities[0]
        assert card.card_id == "pondskater-scout" and ability_text(ability) in inspect_note(app)
        await pilot.press("enter")  # looking chooses nothing
        assert app.chosen == []
        await pilot.press("escape")
        assert names(app) == hand and not table.inspecting

    run(app, scenario)


# -- prompt, sides, replay, deck names ----------------------------------------------------------


def test_a_refusal_shows_first_and_clears_on_a_new_line_or_escape() -> None:
    game = opening()
    with_hand(game, "empty-thimble", "sparkswarm-volley", "empty-thimble")
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        await pilot.press("enter")
        assert prompt(app).startswith("Empty Thimble") and "can't be played" in prompt(app)
        await pilot.press("down")
        assert "can't be played" not in prompt(app)
        await pilot.press("down", "enter")
        assert "can't be played" in prompt(app)
        await pilot.press("escape")
        assert "can't be played" not in prompt(app) and app.table.stage == "hand"

    run(app, scenario)


def test_two_digit_counts_fit_the_side_box() -> None:
    game = opening()
    player = game.state.players[0]
    for _ in range(4):
        game.give(0, "sparkswarm-volley")
    while len(player.discard) < 11:
        game.give(0, "empty-thimble", "discard")
    del player.discard[11:]
    del player.deck[:len(player.deck) - 41]  # the rest leave the game: only the counts matter here
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        side = app.table.query_one("#wb-you", SidePanel)
        text = side.text.plain
        assert "Deck 41" in text and "Disc 11" in text and f"Hand {len(player.hand)}" in text
        room = side.size.width - 1  # a cell is kept for the scrollbar
        assert all(len(line) <= room for line in text.splitlines()[:2])

    run(app, scenario)


def test_the_replay_shows_no_building_or_stepping_hints() -> None:
    app = BattleApp(nested())
    app.table.keys_hint = "←/→ step through the game"

    async def scenario(pilot: Any) -> None:
        app.table.show(RULES.view(app.game.state, 0), None, [])  # a replay decides nothing
        await until(pilot, lambda: ('f:' not in app.table.query_one(PillarTree).explanation),
                    '"f:" not in tree.explanation and not tree.check_action("c...')
        tree = app.table.query_one(PillarTree)
        assert "f:" not in tree.explanation and not tree.check_action("cycle_foundation", (1,))
        assert "Next unit goes on Radiant Verdict" in tree.explanation
        assert prompt(app) == app.table.keys_hint and not app.table.check_action("toggle_step_mode", (1,))

    run(app, scenario)


def test_a_saved_deck_list_is_named_by_its_title() -> None:
    text = decklist(STARTER_DECKS["ember-dawn"].deck, "Cinder Rush")
    game = Game(1, {"deck_1": text, "deck_2": decklist(STARTER_DECKS["tidal-dusk"].deck)})
    assert game.state.players[0].deck_name == "Cinder Rush"
    assert game.state.players[1].deck_name == "Deck list"  # no title line: the category heading is no name
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        assert app.table.query_one("#wb-you", SidePanel).border_subtitle == "you · Cinder Rush"

    run(app, scenario)
