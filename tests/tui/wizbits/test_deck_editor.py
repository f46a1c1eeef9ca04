"""The Wizbits deck editor: the pool filters, editing, live validation, the deck store, files, New game."""

from __future__ import annotations

from textual.widgets import OptionList, Select, Static

from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist, parse_decklist, validate_deck
from engine.wizbits.terms import Attribute, Category, Element
from engine.wizbits.text import ability_text, main_points_text
from saves import LiveSession, SessionStore
from saves.decks import DeckStore
from tests.helpers.deck_editor_helpers import (
    SIZE,
    answer_prompt,
    build_legal_deck,
    checks,
    editor,
    message,
    open_starter,
    pool_ids,
    type_text,
)
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.decks.card_pool import PoolFilter, cycled, filter_cards
from tui.games.wizbits.decks.deck_list import DeckDraft, DeckList, by_category, by_cost, by_element
from tui.games.wizbits.decks.editor import DeckEditorScreen
from tui.games.wizbits.decks.picker import DeckChoice, DeckPicker
from tui.games.wizbits.table import WizbitsTable
from tui.screens.help import HelpScreen
from tui.screens.new_game import NewGameScreen
from tui.widgets.confirm import PromptScreen


def test_each_filter_keeps_only_matching_cards() -> None:
    assert {c.category for c in filter_cards(PoolFilter(category=Category.ELEMENT))} == {Category.ELEMENT}
    assert {c.element for c in filter_cards(PoolFilter(element=Element.WATER))} == {Element.WATER}
    assert {c.cost for c in filter_cards(PoolFilter(cost=3))} == {3}
    assert all(Attribute.WARD in c.attributes for c in filter_cards(PoolFilter(attribute=Attribute.WARD)))
    both = filter_cards(PoolFilter(category=Category.CHARACTER, element=Element.FIRE))
    assert both and all(c.is_character and c.element is Element.FIRE for c in both)
    assert len(both) < len(filter_cards(PoolFilter(category=Category.CHARACTER)))


def test_search_reads_names_and_rules_text() -> None:
    assert [c.name for c in filter_cards(PoolFilter(text="sage"))] == ["Tidewhisper Sage"]
    secession = filter_cards(PoolFilter(text="secession POINT"))
    assert secession and all("secession point" not in c.name.lower() for c in secession)
    assert filter_cards(PoolFilter(text="no card says this")) == []


def test_cycling_a_filter_visits_every_value_then_all() -> None:
    seen, current = [], PoolFilter()
    for _ in range(len(Category) + 1):
        current = cycled(current, "category")
        seen.append(current.category)
    assert seen == [*Category, None]


def test_draft_counts_limits_and_main_character() -> None:
    draft = DeckDraft()
    for _ in range(4):
        assert draft.add("sparkswarm-volley") is None
    assert draft.add("sparkswarm-volley") == "At most 4 copies of Sparkswarm Volley in a deck."
    assert draft.copies("sparkswarm-volley") == 4
    assert "Only a Character" in (draft.toggle_main("sparkswarm-volley") or "")
    assert draft.toggle_main("ashmoth-duelist") is None
    assert draft.main == "ashmoth-duelist" and draft.copies("ashmoth-duelist") == 1
    assert "no Main Character" in (draft.remove("ashmoth-duelist") or "")
    assert draft.main is None
    assert by_category(draft)[Category.ELEMENT] == 4 and by_element(draft)[Element.FIRE] == 4
    assert by_cost(draft)[2] == 4


def test_draft_problems_agree_with_the_engine() -> None:
    draft = DeckDraft()
    problems = draft.problems()
    assert any("needs at least 60 (add 60 more)" in p for p in problems)
    assert any("press m" in p for p in problems)
    legal = DeckDraft(STARTER_DECKS["ember-dawn"].deck)
    assert legal.problems() == [] == validate_deck(legal.deck())
    assert parse_decklist(legal.text("Ember Dawn")) == legal.deck()


def test_card_view_shows_the_whole_card() -> None:
    data = CARDS_BY_ID["emberbeetle-squire"]  # a Character with an attribute and a flip ability
    assert data.attributes and data.flip_abilities and data.main_points is not None
    card = WizbitsCard(data.card_id)
    text = str(card.render())
    assert f"cost {data.cost}" in text and data.category.label in text and data.element.label in text
    assert all(f"{attribute.label} — {attribute.rule}" in text for attribute in data.attributes)
    assert main_points_text(data) in text and f"{data.tone.value} tone" in text
    for ability in data.abilities:
        assert ability_text(ability) in text
    assert text.count("FLIP") == len(data.flip_abilities)
    card.show("no-such-card")
    assert card.card is None


# -- the editor on screen ----------------------------------------------------------------


async def test_filters_and_search_narrow_the_pool(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await until(pilot, lambda: len(pool_ids(app)) == len(CARDS), 'len(pool_ids(app)) == len(CARDS)')
        await pilot.press("c")  # Characters
        assert {CARDS_BY_ID[i].category for i in pool_ids(app)} == {Category.CHARACTER}
        await pilot.press("e")  # the first element
        first = list(Element)[0]
        assert pool_ids(app) and all(CARDS_BY_ID[i].element is first and CARDS_BY_ID[i].is_character
                                     for i in pool_ids(app))
        await pilot.press("f")
        assert len(pool_ids(app)) == len(CARDS)
        await pilot.press("slash")
        await type_text(pilot, "sage")
        await until(pilot, lambda: pool_ids(app) == ["tidewhisper-sage"], 'pool_ids(app) == ["tidewhisper-sage"]')
        await pilot.press("enter")
        assert app.screen.query_one(WizbitsCard).card_id == "tidewhisper-sage"
        await pilot.press("o")  # a cost filter that the Sage doesn't have: nothing left
        assert pool_ids(app) == []
        await pilot.press("plus")  # nothing highlighted: nothing happens, nothing breaks
        assert editor(app).draft.size == 0


async def test_add_remove_and_the_copy_limit(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        first = pool_ids(app)[0]
        await pilot.press("plus", "plus", "enter")
        assert editor(app).draft.copies(first) == 3
        assert app.screen.query_one(DeckList).highlighted_card == first
        await pilot.press("minus")
        assert editor(app).draft.copies(first) == 2
        await pilot.press("plus", "plus", "plus")
        assert editor(app).draft.copies(first) == 4
        assert f"At most 4 copies of {CARDS_BY_ID[first].name}" in message(app)
        await pilot.press("tab")  # from the pool to the deck list
        assert app.focused is app.screen.query_one(DeckList).option_list
        await pilot.press("minus", "minus", "minus", "minus", "minus")
        assert editor(app).draft.size == 0


async def test_marking_the_main_character(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("down", "m")
        second = pool_ids(app)[1]
        assert editor(app).draft.main == second and editor(app).draft.copies(second) == 1
        assert "is the Main Character" in message(app)
        await pilot.press("c", "c")  # Elements
        await pilot.press("m")
        assert "Only a Character can be the Main Character" in message(app)
        assert editor(app).draft.main == second


async def test_live_validation_messages_then_build_a_legal_deck_and_start_a_game_with_it(
        store: SessionStore) -> None:
    # One deck built by keyboard serves both: the validation pane follows each edit, then the deck is played.
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await until(pilot, lambda: ("needs at least 60" in checks(app) and "No Main Character" in checks(app)),
                    '"needs at least 60" in checks(app) and "No Main Character...')
        await build_legal_deck(pilot)
        legal = "✓ Legal: 60 cards, Main Character Cinderwing Archmage."
        assert checks(app) == legal
        await pilot.press("up", "minus")
        assert editor(app).draft.size == 59
        assert "it needs at least 60 (add 1 more)" in checks(app) and "Main Character" not in checks(app)
        await pilot.press("home", "m")  # unmarks the Main Character
        assert "No Main Character is marked" in checks(app)
        # Legal again: the Main Character marked once more, and a copy of the pool's last card for the one taken.
        await pilot.press("m", "end", "plus")
        assert editor(app).draft.size == 60 and checks(app) == legal
        await pilot.press("ctrl+s")
        await answer_prompt(pilot, "Four of each")
        saved = DeckStore(store).load_deck("Four of each")
        assert parse_decklist(saved.text) == editor(app).draft.deck()
        editor_main = editor(app).draft.main
        await pilot.press("escape")  # saved: leaves without a question
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen), 'isinstance(form, NewGameScreen)')
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#game-select", Select).value = "wizbits"
        await until(pilot, lambda: (
            'Four of each (saved)' in [str(prompt) for prompt, _ in form.query_one('#option-deck_1', Select)._options]
        ), '"Four of each (saved)" in labels and "Ember Dawn (starter...')
        deck_select = form.query_one("#option-deck_1", Select)
        labels = [str(prompt) for prompt, _ in deck_select._options]
        assert "Four of each (saved)" in labels and "Ember Dawn (starter)" in labels
        assert not any("\n" in label for label in labels)  # never the raw text
        deck_select.focus()
        await pilot.press("enter")
        await pilot.pause()
        for _ in range(labels.index("Four of each (saved)") - labels.index("Ember Dawn (starter)")):
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: deck_select.value == saved.text, 'deck_select.value == saved.text')
        await pilot.press("ctrl+s")
        await until(pilot, lambda: store.latest_unfinished() is not None, 'session_id is not None')
        session_id = store.latest_unfinished()
        assert session_id is not None
        live = LiveSession.load(store, session_id)
        assert live.spec.game_id == "wizbits" and live.options["deck_1"] == saved.text
        assert live.options["deck_2"] == "tidal-dusk"
        shown = game_screen(app)  # the battlefield, dealt from the deck built above
        assert shown.live.session_id == session_id and isinstance(shown.table, WizbitsTable)
        state = shown.live.state
        assert state.cards[state.players[0].main] == editor_main


async def test_every_key_in_every_pane_at_80x24(store: SessionStore) -> None:
    keys = ["plus", "minus", "backspace", "m", "c", "e", "o", "t", "f", "r", "d", "delete", "enter", "space",
            "up", "down", "pageup", "pagedown", "home", "end", "left", "right", "z", "9", "ctrl+o", "i", "x",
            "ctrl+s", "slash"]
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        screen = editor(app)
        for pane in ("#pool-list", "#deck-list", "#card-scroll", "#pool-search"):
            for key in keys:
                screen.query_one(pane).focus()
                await pilot.press(key)
                while app.screen is not screen:  # a dialog opened: close it without answering
                    await pilot.press("escape")
                    await pilot.pause()
        assert app.screen is screen
        draft = screen.draft  # whatever was pressed, the deck kept to the editor's own limits
        assert draft.counts and all(1 <= copies <= 4 for copies in draft.counts.values())
        assert draft.main is None or (CARDS_BY_ID[draft.main].is_character and draft.copies(draft.main) >= 1)


async def test_the_command_palette_opens_the_editor(store: SessionStore) -> None:
    from tui.commands import CovenCommands

    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        commands = {name: callback for name, _, callback in CovenCommands(app.screen)._commands()}
        commands["Decks"]()
        await until(pilot, lambda: isinstance(app.screen, DeckEditorScreen), 'isinstance(app.screen, DeckEditorScreen)')


async def test_the_deck_cursor_stays_near_a_card_that_leaves(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await open_starter(pilot, 0)
        await pilot.press("tab", "down", "down", "down")  # the fourth Character, alphabetically
        deck = app.screen.query_one(DeckList)
        leaving = deck.highlighted_card
        assert leaving is not None
        names = sorted(CARDS_BY_ID[i].name for i, _ in STARTER_DECKS["ember-dawn"].deck.counts
                       if CARDS_BY_ID[i].is_character)
        assert CARDS_BY_ID[leaving].name == names[3]
        for _ in range(editor(app).draft.copies(leaving)):
            await pilot.press("minus")
        assert editor(app).draft.copies(leaving) == 0
        assert deck.highlighted_card is not None and CARDS_BY_ID[deck.highlighted_card].name == names[4]


def footer_shown(app: CovenApp) -> list[str]:
    """The descriptions of the Footer keys drawn wholly inside the screen (a key past the edge is cut)."""
    from textual.widgets._footer import FooterKey

    width = app.size.width
    return [key.description for key in app.screen.query(FooterKey) if key.region.width and key.region.right <= width]


async def test_the_footer_shows_rename_copy_delete_for_a_saved_deck_at_80_columns(store: SessionStore) -> None:
    DeckStore(store).save_deck("Embers", decklist(STARTER_DECKS["ember-dawn"].deck))
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await until(pilot, lambda: (
            {'Add', 'Remove', 'Main', 'Save', 'Open', 'Import', 'Export', 'Keys', 'Back'} <= set(footer_shown(app))
        ), '{"Add", "Remove", "Main", "Save", "Open", "Import", "Expo...')
        shown = footer_shown(app)
        assert {"Add", "Remove", "Main", "Save", "Open", "Import", "Export", "Keys", "Back"} <= set(shown), shown
        await pilot.press("r")  # not in the Footer for an unsaved deck, but still a key
        await until(pilot, lambda: "isn't saved yet" in message(app), '"isn\'t saved yet" in message(app)')
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, DeckPicker), 'isinstance(picker, DeckPicker)')
        picker = app.screen
        assert isinstance(picker, DeckPicker)
        picker.dismiss(DeckChoice("saved", "Embers"))
        await until(pilot, lambda: editor(app).deck_name == "Embers", 'editor(app).deck_name == "Embers"')
        shown = footer_shown(app)
        assert {"Add", "Remove", "Main", "Save", "Open", "Rename", "Copy", "Delete", "Keys", "Back"} <= set(shown), shown
        title = str(app.screen.query_one("#editor-title", Static).render())
        assert "i import" in title and "x export" in title
        await pilot.press("i")  # the other way round: hidden, yet it works
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), 'isinstance(app.screen, PromptScreen)')
        await pilot.press("escape", "question_mark")  # and "?" lists every key, pressing the one chosen
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), 'isinstance(keys, HelpScreen)')
        keys = app.screen
        assert isinstance(keys, HelpScreen)
        options = keys.query_one(OptionList)
        listed = [options.get_option_at_index(n).id for n in range(options.option_count)]
        assert {"i", "x", "r", "d", "delete", "m", "c", "e", "o", "t", "f", "slash"} <= set(listed), listed
        options.highlighted = listed.index("x")
        await pilot.press("enter")
        await pilot.pause()
        await until(pilot, lambda: (isinstance(app.screen, PromptScreen) and "Export" in str(app.screen.prompt_title)),
                    'isinstance(app.screen, PromptScreen) and "Export" in str(...')
