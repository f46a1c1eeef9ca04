"""New game is safe and remembers: Enter never starts a game, and the form offers what was started last."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.widgets import Input, Select

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from saves import SessionStore
from saves.decks import DeckStore
from saves.preferences import get_preference, set_preference
from tests.helpers.decks_store import EMBER_TEXT
from tests.helpers.new_game_memory import form, open_form
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.game.screen import GameScreen
from tui.screens.new_game import NewGameScreen


def in_game(app: CovenApp) -> bool:
    return isinstance(app.screen, GameScreen)


async def choose(pilot: Any, select: Select[Any], value: Any) -> None:
    select.value = value
    await pilot.pause()


async def test_enter_in_a_field_moves_on_and_never_starts_a_game(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        screen = app.screen
        assert screen.focused is not None and screen.focused.id == "seat-name-0"
        await pilot.press("enter")
        await until(pilot, lambda: (screen.focused is not None and screen.focused.id == "seat-kind-0"),
                    'screen.focused is not None and screen.focused.id == "seat...')
        screen.query_one("#seed", Input).focus()
        await pilot.press("enter", "enter")  # through the last field too
        await until(pilot, lambda: (app.screen is screen and store.list_sessions() == []),
                    'app.screen is screen and store.list_sessions() == []')
        await pilot.press("ctrl+s")  # the explicit key starts it
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert len(store.list_sessions()) == 1


async def test_the_form_offers_what_was_started_last(store: SessionStore) -> None:
    DeckStore(store).save_deck("Ember mine", EMBER_TEXT)
    starters = list(STARTER_DECKS)
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await choose(pilot, screen.query_one("#game-select", Select), "wizbits")
        await until(pilot, lambda: bool(screen.query("#option-deck_1")), "the Wizbits options")
        await choose(pilot, screen.query_one("#seat-kind-1", Select), "bot:easy")
        screen.query_one("#seat-name-0", Input).value = "Zed"
        await choose(pilot, screen.query_one("#option-deck_1", Select), EMBER_TEXT)
        await choose(pilot, screen.query_one("#option-deck_2", Select), starters[0])
        await choose(pilot, screen.query_one("#option-rtf", Select), 2)
        started = form(app)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.press("escape")
        await open_form(app, pilot)
        assert form(app) == started
        assert started["rows"][1][1] == "bot:easy" and started["options"]["deck_1"] == EMBER_TEXT
        # The store keeps the deck by name, not its text.
        kept = str(get_preference(store, None, "new-game"))
        assert "Ember mine (saved)" in kept and "Ember" not in kept.replace("Ember mine", "")


async def test_a_deleted_deck_is_dropped_and_an_edited_one_offered_as_it_is_now(store: SessionStore) -> None:
    decks = DeckStore(store)
    decks.save_deck("Mine", EMBER_TEXT)
    decks.save_deck("Gone", EMBER_TEXT.replace("\n", "\n\n", 1))
    set_preference(store, None, "new-game", {"game": "wizbits", "games": {"wizbits": {
        "seats": 2, "rows": [["Zed", "human"], ["Circe", "bot:easy"]],
        "options": {"deck_1": {"label": "Mine (saved)"}, "deck_2": {"label": "Gone (saved)"}}}}})
    decks.delete_deck("Gone")
    edited = EMBER_TEXT + "\n"
    decks.save_deck("Mine", edited, replace=True)
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        shown = form(app)
        assert shown["game"] == "wizbits"
        assert shown["rows"] == [("Zed", "human"), ("Circe", "bot:easy")]
        assert shown["options"]["deck_1"] == edited
        assert shown["options"]["deck_2"] == app.screen.spec.options[3].default  # type: ignore[attr-defined]


HOSTILE: list[object] = [
    "not a dict", [1, 2], {"game": 7}, {"game": "chess", "games": {"chess": {}}},
    {"game": "wizards-cup", "games": []},
    {"game": "wizards-cup", "games": {"wizards-cup": {
        "seats": 99, "rows": "x", "options": {"tokens_to_win": {"value": 99}}}}},
    {"game": "wizards-cup", "games": {"wizards-cup": {
        "seats": True, "rows": [["\x1b[31mEvil", "human"], [["nested"], "bot:godlike"], "row"],
        "options": {"tokens_to_win": {"label": 5}, "nope": {"value": 1}, "x": "y"}}}},
    {"game": "wizards-cup", "games": {"wizards-cup": {
        "seats": 2, "rows": [["A" * 500, "human"], ["\u202eBo", "bot:normal"]],
        "options": {"tokens_to_win": {"value": "2"}}}}},
]


async def test_hostile_memory_gives_the_defaults_without_a_crash(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        for value in HOSTILE:
            set_preference(store, None, "new-game", value)
            await open_form(app, pilot)
            shown = form(app)
            assert shown["game"] == "wizards-cup"
            assert shown["rows"] == [("Ana", "human"), ("Merlin", "bot:normal")], value
            assert shown["options"] == {"tokens_to_win": 2}, value
            await pilot.press("escape")


async def test_each_served_account_has_its_own_memory() -> None:
    # Each app opens the store itself, as each served connection's process does (and closes it on quitting).
    for account, name in (("bo", "Bohdan"), ("cy", "Cyra")):
        app = CovenApp(auto_delay=60.0, account=account, player_name=account, serve_port=2222, signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_form(app, pilot)
            assert form(app)["rows"][0][0] == account.capitalize()  # nothing remembered yet: the served name
            app.screen.query_one("#seat-name-0", Input).value = name
            await pilot.press("ctrl+s")
            await until(pilot, partial(in_game, app), "the game")
    for account, name in (("bo", "Bohdan"), ("cy", "Cyra")):
        app = CovenApp(auto_delay=60.0, account=account, player_name=account, serve_port=2222, signed_in=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_form(app, pilot)
            assert form(app)["rows"][0][0] == name
    app = CovenApp(auto_delay=60.0)  # this machine's own player remembers nothing of theirs
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        assert form(app)["rows"][0][0] == "Ana"


WITCHDRAFT_THREE = {"seats": 3, "rows": [["Zed", "human"], ["Circe", "bot:easy"], ["Bo", "human"]],
                    "options": {"face_up": {"value": True}}}


async def test_a_remembered_seat_count_comes_back_whole(store: SessionStore) -> None:
    expected = [("Zed", "human"), ("Circe", "bot:easy"), ("Bo", "human")]
    set_preference(store, None, "new-game", {"game": "witchdraft", "games": {"witchdraft": WITCHDRAFT_THREE}})
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        for _ in range(5):  # nothing settles it later to another count
            await pilot.pause()
        assert form(app)["rows"] == expected and form(app)["options"]["face_up"] is True
        assert app.screen.query_one("#seat-count", Select).value == 3
        # Reached by changing the game too.
        set_preference(store, None, "new-game", {"game": "wizards-cup", "games": {"witchdraft": WITCHDRAFT_THREE}})
        await pilot.press("escape")
        await open_form(app, pilot)
        assert form(app)["game"] == "wizards-cup"
        await choose(pilot, app.screen.query_one("#game-select", Select), "witchdraft")
        await until(pilot, lambda: len(app.screen.query(".seat-row")) == 3, "three seats")
        for _ in range(5):
            await pilot.pause()
        assert form(app)["rows"] == expected
        assert app.screen.query_one("#seat-count", Select).value == 3


def test_the_memory_keeps_at_most_max_games_newest_first(store: SessionStore) -> None:
    from tui.screens import new_game_memory as memory

    for number in range(memory.MAX_GAMES + 4):
        memory.remember(store, None, memory.read_memory(store, None), f"game-{number}", [("Ana", "human")], {})
    kept = memory.read_memory(store, None)
    newest = [f"game-{number}" for number in range(memory.MAX_GAMES + 3, 3, -1)]
    assert kept["game"] == newest[0] and kept["recent"] == newest and sorted(kept["games"]) == sorted(newest)
