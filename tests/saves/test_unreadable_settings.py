"""Settings that cannot be read: bit flips in stored values are read right or named, and ``coven doctor`` lists them."""

from __future__ import annotations

import io
import random
import sqlite3

import pytest

from saves import SessionStore, db_path
from saves.checkup import examine
from saves.preferences import PreferenceProblem, read_preference, set_preference, unreadable_preferences
from tests.helpers.damage_helpers import two_sessions, write_damage
from tests.helpers.preference_damage import Planter, flip, plant, stored_bytes
from tui.cli import main
from tui.cli.doctor import run
from tui.player_settings import SETTINGS, read_settings, write_setting

_CHOSEN = {  # a value other than the default wherever there is one, so a silent fall-back shows
    item.name: next((choice for choice in item.choices if choice != item.default), item.default) for item in SETTINGS
}
_KEY = {item.name: item.stored_key for item in SETTINGS}


def _named(store: SessionStore, account: str | None) -> dict[str, str]:
    """Each setting the player is told about, and whether it was unreadable or not offered."""
    settings = read_settings(store, account)
    named = {name: "unreadable" for name in settings.unreadable}
    named.update({name: "not offered" for name in settings.fell_back})
    notice = settings.notice() or ""
    assert all(_label(name) in notice for name in named)
    return named


def _label(name: str) -> str:
    return next(item.label for item in SETTINGS if item.name == name)


def _doctor_finds(account: str) -> set[str]:
    """The keys of ``account`` the doctor's check names, through a read-only connection as the doctor's is."""
    conn = sqlite3.connect(f"{db_path().as_uri()}?mode=ro", uri=True)
    try:
        return {found.key for found in unreadable_preferences(conn) if found.account == account}
    finally:
        conn.close()


@pytest.mark.parametrize("account", [None, "ana"])
def test_every_single_bit_flip_of_every_setting_is_read_right_or_named(
        store: SessionStore, account: str | None) -> None:
    for name, value in _CHOSEN.items():
        write_setting(store, account, name, value)
    with Planter() as planter:
        for item in SETTINGS:
            good = stored_bytes(account or "", item.stored_key)
            for bit in range(len(good) * 8):
                planter.plant(account or "", item.stored_key, flip(good, bit))
                named = _named(store, account)
                assert set(named) <= {item.name}, (item.name, bit, named)  # no other setting is touched
                if item.name not in named:
                    assert read_settings(store, account)[item.name] == _CHOSEN[item.name], (item.name, bit)
                unreadable = read_preference(store, account, item.stored_key).problem is not None
                assert (named.get(item.name) == "unreadable") is unreadable
                assert (item.stored_key in _doctor_finds(account or "")) is unreadable
            planter.plant(account or "", item.stored_key, good)
    assert _named(store, account) == {}


def test_seeded_random_flips_across_all_settings_are_read_right_or_named(store: SessionStore) -> None:
    rng = random.Random(22)
    for name, value in _CHOSEN.items():
        write_setting(store, "ana", name, value)
    good = {item.name: stored_bytes("ana", item.stored_key) for item in SETTINGS}
    kinds: set[str] = set()
    with Planter() as planter:
        for _ in range(60):
            for item in SETTINGS:
                data = good[item.name]
                for bit in rng.sample(range(len(data) * 8), rng.randint(0, min(3, len(data) * 8))):
                    data = flip(data, bit)
                planter.plant("ana", item.stored_key, data, as_text=rng.random() < 0.7)
            named = _named(store, "ana")
            settings = read_settings(store, "ana")
            for item in SETTINGS:
                if item.name in named:
                    assert settings[item.name] == item.default
                else:
                    assert settings[item.name] == _CHOSEN[item.name]
            assert _doctor_finds("ana") == {_KEY[name] for name, kind in named.items() if kind == "unreadable"}
            kinds.update(named.values())
    assert kinds == {"unreadable", "not offered"}  # the flips reached both ways of falling back


def test_seeded_random_flips_of_a_larger_value_are_read_as_json_or_named(store: SessionStore) -> None:
    form = {"game": "wizbits", "names": ["Ëmber ✨", "Bo"], "seats": [None, "bot:hard"], "ratio": 0.25, "n": 12}
    set_preference(store, None, "new-game.last", form)
    good = stored_bytes("", "new-game.last")
    rng = random.Random(40)
    problems = set()
    with Planter() as planter:
        for _ in range(300):
            data = good
            for bit in rng.sample(range(len(good) * 8), rng.randint(1, 4)):
                data = flip(data, bit)
            planter.plant("", "new-game.last", data, as_text=rng.random() < 0.5)
            found = read_preference(store, None, "new-game.last")
            if found.problem is None:
                set_preference(store, "check", "k", found.value)  # what reads is a value Coven could itself write
            problems.add(found.problem)
            assert ({"new-game.last"} if found.problem else set()) == _doctor_finds("")
    assert {None, PreferenceProblem.NOT_JSON, PreferenceProblem.BAD_TEXT} <= problems


# -- coven doctor ------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_doctor_lists_each_unreadable_setting_and_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with SessionStore() as store:
        write_setting(store, None, "theme", "nord")
        write_setting(store, "ana", "glyphs", True)
    plant("", "setting.theme", b"nord")
    plant("ana", "setting.glyphs", b"\xfe", as_text=False)
    plant("ana", "setting.linear", "[" * 17 + "]" * 17)
    plant("bo", "setting.coach", '"' + "x" * 17000 + '"')
    plant("bo", "new-game.last", '{"ratio": NaN}')
    before = db_path().read_bytes()
    assert run(move=False, stdin=io.StringIO("y\n")) == 1  # not a terminal: never asks, changes nothing
    out = capsys.readouterr().out
    assert "Nothing is wrong" not in out and "[y/N]" not in out
    assert "coven doctor --repair" in out and "Move the database aside" not in out  # never for settings
    for line in (
        "Setting 'theme' of this machine's player cannot be read (not JSON)",
        "Setting 'glyphs' of account 'ana' cannot be read (bad text: not UTF-8)",
        "Setting 'linear' of account 'ana' cannot be read (too deep: nested over 16 levels)",
        "Setting 'coach' of account 'bo' cannot be read (too big: over 16 KiB)",
        "Stored preference 'new-game.last' of account 'bo' cannot be read (not a number: NaN, Infinity",
    ):
        assert sum(line in shown for shown in out.splitlines() if shown.startswith("  PROBLEM  ")) == 1, line
    assert "coven settings set NAME VALUE" in out and "It was left as it is." in out
    assert db_path().read_bytes() == before
    assert examine(db_path()).unreadable_preferences[0].key == "setting.theme"
    with SessionStore() as store:
        write_setting(store, None, "theme", "nord")
        write_setting(store, "ana", "glyphs", True)
        write_setting(store, "ana", "linear", True)
        write_setting(store, "bo", "coach", False)
        set_preference(store, "bo", "new-game.last", {})
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "Every stored setting and preference reads as it should." in out and "Nothing is wrong" in out


def test_doctor_names_settings_beside_damaged_sessions_and_offers_the_repair(
        fake_spec: object, capsys: pytest.CaptureFixture[str]) -> None:
    _, bad = two_sessions()
    write_damage("UPDATE sessions SET status = 'weird' WHERE id = ?", bad)
    plant("", "setting.bot_level", "Infinity")
    assert run(move=False, stdin=io.StringIO("")) == 1
    out = capsys.readouterr().out
    assert f"Session {bad} cannot be opened" in out
    assert "Setting 'bot_level' of this machine's player cannot be read (not a number" in out
    assert "coven doctor --repair" in out and "--move-aside" not in out  # confined damage: the repair keeps the rest


def test_doctor_counts_what_it_does_not_list_of_many(capsys: pytest.CaptureFixture[str]) -> None:
    SessionStore().close()
    for number in range(25):
        plant(f"player{number}", "setting.theme", "{")
    assert main(["doctor"]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  PROBLEM  ")]
    assert len(lines) == 21 and lines[-1] == "  PROBLEM  ... and 5 more stored preferences that cannot be read."
