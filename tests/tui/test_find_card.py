"""The card lookup (ctrl+f): find any game's card by name from any screen and read its whole text.

The search and the texts are checked against the games' own card data, so a card that loses a value, a power or
an ability from its shown text fails here. The key is tried from the menu, a solo game, a one-keyboard game
(where a curtain lends the lookup nobody's eyes) and a shared table, all at 80x24.
"""

from __future__ import annotations

from textual.widgets import Input, OptionList

from engine.witchdraft.cards import COMPANIONS, INGREDIENT_CARDS, RECIPES, RECIPES_BY_ID
from engine.wizards_cup.actions import ChooseTeam
from engine.wizards_cup.cards import CARDS as WIZARDS
from engine.wizards_cup.cards import WIZARDS as WIZARD_LIST
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.text import ability_text
from saves import LiveSession, SeatInfo, SessionStore
from saves.tables import TableStore
from tests.helpers.find_card import lookup, open_lookup, rows, show_first, shown_text, type_name
from tests.helpers.host_here import host_here
from tests.helpers.narration import bot_move, game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.card_search import fold, search
from tui.games.base import GameTable
from tui.screens.curtain import CurtainScreen
from tui.screens.find_card import NOTHING_FOUND, FindCardScreen, all_cards
from tui.screens.game.screen import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.replay import ReplayScreen
from tui.screens.table_game import TableGameScreen

SIZE = (80, 24)


def names_found(typed: str) -> list[str]:
    return [card.entry.name for card in search(all_cards(), typed)]


def test_the_search_finds_each_game_s_cards_by_part_of_a_name_with_or_without_accents() -> None:
    wizard = next(w for w in WIZARD_LIST if w.power is not None)
    companion = COMPANIONS[0]
    wizbits = next(iter(CARDS_BY_ID.values()))
    for name in (wizard.name, companion.name, wizbits.name, RECIPES[0].name, INGREDIENT_CARDS[0].name):
        middle = name[2:-2]  # a part from inside the name
        assert name in names_found(middle.upper()), name
        first, *rest = name.split()
        accented = first[0] + first[1:].replace("e", "é").replace("a", "à").replace("o", "ö")
        assert name in names_found(accented), (name, accented)
        if rest:  # the start of each word is enough
            assert name in names_found(f"{first[:3]} {rest[-1][:2]}"), name
    games = {card.game_title for card in all_cards() if card.entry.name in (wizard.name, companion.name, wizbits.name)}
    assert len(games) == 3
    assert fold("Ćindérwing ARCH") == "cinderwing arch"
    assert names_found("zzqx") == []


def test_the_whole_text_of_a_card_of_each_game() -> None:
    cards = {(card.game_id, card.entry.key): card for card in all_cards()}
    for wizard in WIZARD_LIST:
        text = cards["wizards-cup", wizard.card_id].entry.text
        assert f"Value: {wizard.value}." in text and wizard.element.value in text
        if wizard.power is not None:
            body = wizard.power.text.split(": ", 1)[1]
            assert body[1:] in text, wizard.name
        else:
            assert "No Magic Power." in text
    for companion in COMPANIONS:
        text = cards["witchdraft", companion.card_id].entry.text
        assert companion.animal is not None and companion.colour is not None
        assert f"Companion: {companion.animal.value}. Colour: {companion.colour.value}." in text
        edges = [symbol for symbol in companion.edges if symbol is not None]
        assert text.count("half a ") == len(edges), companion.name
        for symbol in set(edges):
            assert text.count(f"half a {symbol.value}") == edges.count(symbol)
        gems = sum(half.gem for half in companion.halves)
        assert text.count("a gem") == gems
    for recipe in RECIPES:
        text = cards["witchdraft", recipe.card_id].entry.text
        assert f"{recipe.companion_points} brew points per card showing the {recipe.companion.value}" in text
        assert f"{recipe.colour_pair_points} per pair of {recipe.colour_pair[0].value}" in text
    for ingredients in INGREDIENT_CARDS:
        text = cards["witchdraft", ingredients.card_id].entry.text
        assert f"{ingredients.bond_points} brew points per bond" in text
        assert f"{ingredients.fire_root_points} per fire root" in text
    for card_id, card in CARDS_BY_ID.items():
        text = cards["wizbits", card_id].entry.text
        assert f"cost {card.cost}" in text and card.element.label in text
        for ability in (*card.abilities, *card.flip_abilities):
            assert " ".join(ability_text(ability).split()) in " ".join(text.split()), card.name
        for attribute in card.attributes:
            assert attribute.label in text
        if card.main_points is not None:
            assert f"SCN {card.main_points.scn}" in text


async def test_from_the_menu_type_pick_read_and_go_back_at_80x24(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        screen = await open_lookup(pilot)
        box = screen.query_one("#find-box")
        assert 0 < box.region.height and box.region.bottom <= SIZE[1] - 1  # the dialog fits above the Footer
        wizard = next(w for w in WIZARD_LIST if w.power is not None)
        await type_name(pilot, wizard.name[:4].lower())
        await until(pilot, lambda: any(row.startswith(wizard.name) and "Wizards Cup" in row for row in rows(screen)),
                    "the wizard found, with its game")
        assert "Show card" in app.export_screenshot().replace("&#160;", " ")  # the Footer names enter
        await pilot.press("down")  # into the list: a screen reader's cursor follows the focus
        await until(pilot, lambda: isinstance(app.focused, OptionList), "the list focused")
        index = next(i for i, card in enumerate(screen.found) if card.entry.name == wizard.name)
        screen.query_one(OptionList).highlighted = index
        await pilot.press("semicolon")  # says the highlighted card
        await until(pilot, lambda: bool(app._notifications), "the card said")
        said = list(app._notifications)[-1].message
        assert wizard.name in said and f"Value: {wizard.value}." in said
        await pilot.press("enter")
        await until(pilot, lambda: screen.shown is not None, "the card shown")
        text = shown_text(screen)
        assert text == said and "Now:" not in text  # nothing is in play at the menu
        await until(pilot, lambda: box.region.bottom <= SIZE[1] - 1 and screen.query_one("#find-card").region.height,
                    "the card's text fits above the Footer")
        await until(pilot, lambda: "Show card" not in app.export_screenshot().replace("&#160;", " "),
                    "enter gone from the Footer over the card")
        shot = app.export_screenshot().replace("&#160;", " ")
        for key in ("Back", "Say"):
            assert key in shot, key
        await pilot.press("escape")  # back to the list, then out
        await until(pilot, lambda: screen.shown is None and screen.query_one(OptionList).display, "the list again")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is menu, "the menu again")


async def test_hostile_typing_is_plain_text_and_never_a_crash(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lookup(pilot)
        field = screen.query_one(Input)
        field.value = "[bold]x\x1b[31m\x00\x07" + "é" * 5000
        await until(pilot, lambda: rows(screen) == [NOTHING_FOUND], "nothing found")
        field.value = ""
        await type_name(pilot, "[/]")  # Rich's closing tag: typed, it is three characters, and no letter to match
        await until(pilot, lambda: len(rows(screen)) == len(all_cards()), "every card listed")
        assert "[/]" in app.export_screenshot().replace("&#160;", " ")  # shown as typed, not read as markup
        await pilot.press("enter")
        await until(pilot, lambda: screen.shown is not None, "a card shown")
        assert isinstance(app.screen, FindCardScreen)


async def test_help_and_the_command_palette_offer_it(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the menu's help")
        help_rows = [str(row[2]) for row in app.screen.rows] if isinstance(app.screen, HelpScreen) else []
        assert any("ctrl+f" in row and "Find card" in row for row in help_rows), help_rows
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")
        await pilot.press("ctrl+p")
        await type_name_in_palette(pilot, "Find a card")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, FindCardScreen), "the lookup from the palette")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the lookup's help")
        assert isinstance(app.screen, HelpScreen) and "accents" in app.screen.about


async def type_name_in_palette(pilot: object, text: str) -> None:
    from textual.command import CommandPalette

    app = pilot.app  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    await pilot.press(*("space" if char == " " else char for char in text))  # type: ignore[attr-defined]
    await until(pilot, lambda: "Find a card" in app.export_screenshot().replace("&#160;", " "), "the entry listed")


async def test_in_a_solo_game_the_card_in_play_shows_where_it_stands(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = CovenApp(store=store, auto_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game(live)
        await until(pilot, lambda: 0 in live.to_act and any(isinstance(s, GameScreen) for s in app.screen_stack),
                    "Ana asked to choose")
        screen = game_screen(app)
        await open_lookup(pilot)
        mine = WIZARDS[live.state.players[0].displayed].name
        text = await show_first(pilot, mine)
        assert "Now: Your displayed wizard" in text
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is screen, "back at the game")


async def test_at_one_keyboard_the_curtain_lends_the_lookup_no_eyes(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, [SeatInfo("Ana"), SeatInfo("Bo")])
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=SIZE) as pilot:
        app.start_game(live)
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ana",
                    "Ana's curtain")
        ana = WIZARDS[live.state.players[0].displayed].name
        await open_lookup(pilot)  # on the curtain: printed text only, not even the displayed wizard's place
        text = await show_first(pilot, ana)
        assert "Now:" not in text
        await pilot.press("escape", "escape")
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen), "the curtain again")
        await pilot.press("enter")
        screen = game_screen(app)
        await until(pilot, lambda: app.screen is screen, "Ana's curtain lifted")
        await open_lookup(pilot)
        text = await show_first(pilot, ana)
        assert "Now: Your displayed wizard" in text  # Ana, shown, looks through her own eyes
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is screen, "back at the game")
        ana_state = live.state.players[0]
        team = tuple(card for card in WIZARDS if card != ana_state.displayed)[:5]
        screen.table.post_message(GameTable.ActionChosen(0, ChooseTeam(team)))
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bo",
                    "Bo's curtain")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "Bo's curtain lifted")
        bo_state = live.state.players[1]
        bo_team = tuple(card for card in reversed(tuple(WIZARDS)) if card != bo_state.displayed)[:5]
        screen.table.post_message(GameTable.ActionChosen(1, ChooseTeam(bo_team)))
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ana",
                    "Ana's curtain for her lineup")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "Ana's curtain lifted again")
        public = {ana_state.displayed, bo_state.displayed}
        secret = WIZARDS[next(card for card in bo_team if card not in team and card not in public)].name
        await open_lookup(pilot)
        text = await show_first(pilot, secret)
        assert "Now:" not in text, text  # in Bo's team, his alone: through Ana's eyes it is nowhere


async def test_at_a_shared_table_the_lookup_reads_the_seat_here(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        code = await host_here(pilot, app)
        other.take_seat(code, 1, "Bea")
        await until(pilot, lambda: "Press s to start" in app.export_screenshot().replace("&#160;", " "), "Bea seated")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        await until(pilot, lambda: 0 in game.live.to_act, "Ana asked to choose")
        await open_lookup(pilot)
        bea = WIZARDS[game.live.state.players[1].displayed].name
        text = await show_first(pilot, bea)
        assert "Now:" in text and "Bea's displayed wizard" in text
        assert lookup(app).now is not None


async def test_in_a_replay_the_lookup_sees_through_the_viewpoint(store: SessionStore) -> None:
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    while live.result is None:
        bot_move(live)
    recipe = RECIPES_BY_ID[live.state.players[0].recipe].name
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        replay = ReplayScreen(live, start=6)
        app.push_screen(replay)
        await until(pilot, lambda: app.screen is replay, "the replay")
        await open_lookup(pilot)
        assert "Now:" not in await show_first(pilot, recipe)  # a spectator: Ana's recipe is her secret at step 6
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is replay, "the replay again")
        await pilot.press("v")
        await until(pilot, lambda: replay.viewpoint == 0, "Ana's view")
        await open_lookup(pilot)
        assert "Now: Your recipe." in await show_first(pilot, recipe)


async def test_from_the_deck_editor_and_the_pillar_lab(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        for open_place in (app.action_decks, app.action_pillar_lab):
            open_place()
            await until(pilot, lambda: len(app.screen_stack) > 1 and not isinstance(app.screen, FindCardScreen),
                        "the place open")
            place = app.screen
            await open_lookup(pilot)  # even where a text field has the cursor, ctrl+f opens the lookup
            card = next(iter(CARDS_BY_ID.values()))
            text = await show_first(pilot, card.name)
            assert f"cost {card.cost}" in text and "Now:" not in text
            await pilot.press("escape", "escape")
            await until(pilot, lambda opened=place: app.screen is opened, "back where it was opened")
            app.pop_screen()
            await until(pilot, lambda: len(app.screen_stack) == 1, "the menu again")


async def test_the_longest_card_scrolls_by_keys_at_80x24(store: SessionStore) -> None:
    longest = max(all_cards(), key=lambda card: len(card.entry.text))
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lookup(pilot)
        await show_first(pilot, longest.entry.name)
        scroll = screen.query_one("#find-card")
        await until(pilot, lambda: scroll.region.height > 0, "the card laid out")
        assert app.focused is scroll and screen.query_one("#find-box").region.bottom <= SIZE[1] - 1
        if scroll.virtual_size.height > scroll.scrollable_content_region.height:
            await pilot.press("end")
            await until(pilot, lambda: scroll.scroll_y > 0, "the card scrolled to its end")
        last_line = longest.entry.text.splitlines()[-1]
        assert last_line[:30] in app.export_screenshot().replace("&#160;", " ")
