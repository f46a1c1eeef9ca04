"""Mutes at a shared table outlive the visit: kept per player and per table, bounded, and read back with suspicion."""

from __future__ import annotations

import asyncio

import pytest

from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.tables_chat_tui import notes, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.chat_mutes import KEY, MAX_NAMES, MAX_TABLES, muted_at, remember_muted
from tui.screens.lobby import LobbyScreen

CODES = ["ABCD", "EFGH", "JKMN", "PQRS", "TUVW", "XYZA", "BCDE", "FGHJ", "KMNP", "QRST"]


def test_mutes_are_kept_per_account_and_per_table(store: SessionStore) -> None:
    assert remember_muted(store, "ana", "ABCD", {"bea", "cy"})
    assert remember_muted(store, "ana", "EFGH", {"dee"})
    assert remember_muted(store, "hal", "ABCD", {"ana"})
    assert muted_at(store, "ana", "ABCD") == {"bea", "cy"}
    assert muted_at(store, "ana", "EFGH") == {"dee"}
    assert muted_at(store, "hal", "ABCD") == {"ana"}
    assert muted_at(store, None, "ABCD") == set() and muted_at(store, "ana", "JKMN") == set()
    assert remember_muted(store, "ana", "ABCD", set())  # the last unmute forgets the table
    assert muted_at(store, "ana", "ABCD") == set()
    assert [code for code, _ in get_preference(store, "ana", KEY)] == ["EFGH"]


def test_only_the_most_recent_tables_are_kept(store: SessionStore) -> None:
    for code in CODES[:MAX_TABLES + 2]:
        assert remember_muted(store, "ana", code, {f"troll-{code.lower()}"})
    kept = [code for code in CODES if muted_at(store, "ana", code)]
    assert kept == CODES[2:MAX_TABLES + 2]
    assert remember_muted(store, "ana", CODES[2], {"again"})  # changing a table makes it the most recent
    assert get_preference(store, "ana", KEY)[0] == [CODES[2], ["again"]]


def test_when_the_mutes_outgrow_one_preference_the_oldest_tables_give_way(store: SessionStore) -> None:
    long_names = {("ж" * 60) + f"{n:02d}" for n in range(MAX_NAMES)}  # 62 characters of two bytes each
    for code in CODES[:MAX_TABLES]:
        assert remember_muted(store, "ana", code, long_names)
    newest = CODES[MAX_TABLES - 1]
    assert muted_at(store, "ana", newest) == long_names
    assert not muted_at(store, "ana", CODES[0])


@pytest.mark.parametrize("stored", [
    "not a list", 42, None, {"ABCD": ["bea"]},
    [["ABCD"]], [["ABCD", "bea"]], [[1234, ["bea"]]], [["abcd", ["bea"]]], [["AB1D", ["bea"]]],
    [["ABCD", ["Bea", "", "x" * 193, 7, "tab\there", "\x1b[2J"]]],
], ids=repr)
def test_damaged_or_hostile_stored_mutes_are_dropped(store: SessionStore, stored: object) -> None:
    set_preference(store, "ana", KEY, stored)
    assert muted_at(store, "ana", "ABCD") == set()
    assert remember_muted(store, "ana", "EFGH", {"cy"})  # and the damage does not stop a new mute
    assert muted_at(store, "ana", "EFGH") == {"cy"}


def test_good_entries_survive_beside_damaged_ones(store: SessionStore) -> None:
    set_preference(store, "ana", KEY, [["ABCD", ["bea", "Bad", "x" * 193]], ["nope", ["cy"]], ["ABCD", ["dup"]],
                                       ["EFGH", ["dee"]]])
    assert muted_at(store, "ana", "ABCD") == {"bea"}
    assert muted_at(store, "ana", "EFGH") == {"dee"}


def test_without_a_store_a_mute_is_for_the_visit_only() -> None:
    assert muted_at(None, "ana", "ABCD") == set()
    assert not remember_muted(None, "ana", "ABCD", {"bea"})


def test_any_name_a_player_could_have_can_be_muted(store: SessionStore) -> None:
    names = {"ß" * 40, "ana bee", "ana\u00a0bee", "zoë", "李"}
    folded = {name.casefold() for name in names}
    assert max(len(name) for name in folded) == 80  # ß folds to ss: past the 64 a name may have
    assert remember_muted(store, "ana", "ABCD", folded)
    assert muted_at(store, "ana", "ABCD") == folded
    assert remember_muted(store, "ana", "ABCD", {f"n{number:02d}" for number in range(MAX_NAMES + 5)})
    assert muted_at(store, "ana", "ABCD") == {f"n{number:02d}" for number in range(MAX_NAMES)}  # the cap


def test_a_store_that_cannot_be_read_is_never_taken_for_no_mutes(store: SessionStore,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.chat_mutes

    assert remember_muted(store, "ana", "ABCD", {"bea"}) and remember_muted(store, "ana", "EFGH", {"cy"})
    real = tui.chat_mutes.get_preference

    def failing(*args: object, strict: bool = False) -> object:
        if strict:
            raise StoreError("database is locked")
        return None

    monkeypatch.setattr(tui.chat_mutes, "get_preference", failing)
    assert muted_at(store, "ana", "ABCD") is None
    assert not remember_muted(store, "ana", "JKMN", {"dee"})  # writing now would drop ABCD and EFGH
    monkeypatch.setattr(tui.chat_mutes, "get_preference", real)
    assert muted_at(store, "ana", "ABCD") == {"bea"} and muted_at(store, "ana", "EFGH") == {"cy"}


def test_a_mute_holds_when_the_player_comes_back_to_the_table(other: TableStore) -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            other.take_seat(code, 1, "Bea")
            table_id = other.find(code).table_id
            await pilot.press("c")
            await pilot.press(*"/mute BEA", "enter")
            await until(pilot, lambda: "BEA's lines are hidden" in notes(app), "the mute's word")
            assert "could not be saved" not in notes(app)
            other.say(table_id, "you cannot hear me")

            # Back at the table as after a dropped connection: a new link, the same player.
            app.tables.open_lobby(code, lobby.link.token)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen is not lobby, "the lobby")
            again = app.screen
            assert isinstance(again, LobbyScreen) and again.link is not lobby.link
            await until(pilot, lambda: again.chat.is_mounted and again.link.muted == {"bea"}, "the mutes read back")
            other.say(table_id, "still muted?")
            await until(pilot, lambda: again.chat._last_id == other.chat_since(table_id)[-1].line_id, "the poll")
            await pilot.press("c")
            await pilot.press(*"hello", "enter")
            await until(pilot, lambda: "Ana: hello" in screen_text(app), "Ana's own line")
            text = screen_text(app)
            assert "you cannot hear me" not in text and "still muted?" not in text

            # The limits are said in words, and nothing is muted by them.
            await pilot.press(*f"/mute {'x' * 65}", "enter")
            await until(pilot, lambda: "No one at a table has a name like that" in notes(app), "the long name")
            for number in range(MAX_NAMES - 1):
                again.chat._command("/mute", f"name{number}")
            assert len(again.link.muted) == MAX_NAMES
            await pilot.press("ctrl+u", *"/mute one-more", "enter")  # a refused line stays to be mended: clear it
            await until(pilot, lambda: f"You have muted {MAX_NAMES} names" in notes(app), "the limit")
            assert "one-more" not in again.link.muted and len(muted_at(app.store, None, code)) == MAX_NAMES

    asyncio.run(scenario())


@pytest.mark.parametrize("signed_in", [False, True], ids=["shared account", "signed in"])
def test_over_ssh_mutes_are_kept_only_for_a_signed_in_account(other: TableStore, signed_in: bool) -> None:
    # Under `coven serve --auth none` everyone who joins with `ssh KXMP@host` is account "kxmp":
    # one player's mutes must not reach the others through it.
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, serve_port=2222, account="kxmp", signed_in=signed_in)
        assert app.account_is_private is signed_in
        async with app.run_test(size=(80, 24)) as pilot:
            code = await host_here(pilot, app)
            other.take_seat(code, 1, "Bea")
            await pilot.press("c")
            await pilot.press(*"/mute bea", "enter")
            await until(pilot, lambda: "bea's lines are hidden" in notes(app), "the mute's word")
            assert ("kept between visits only for a signed-in account" in notes(app)) is not signed_in
            assert "could not be saved" not in notes(app)
            assert muted_at(app.store, "kxmp", code) == ({"bea"} if signed_in else set())
            assert get_preference(app.store, None, KEY) is None  # never this machine's own

    asyncio.run(scenario())
