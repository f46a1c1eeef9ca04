"""Settings: kept per player (and per SSH account), bad values fall back with one notice, themes prove their contrast."""

from __future__ import annotations

import pytest
from textual.filter import Monochrome
from textual.theme import BUILTIN_THEMES

from saves import SessionStore
from saves.preferences import PreferenceProblem, set_preference
from tests.helpers.preference_damage import plant
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.cli import main
from tui.player_settings import SETTINGS, THEMES, read_settings, setting, write_setting
from tui.screens.settings_screen import SettingsScreen
from tui.themes import COLOUR_BLIND, HIGH_CONTRAST, OKABE_ITO, contrast_ratio, theme_pairs


def test_each_player_keeps_their_own_settings(store: SessionStore) -> None:
    write_setting(store, None, "theme", "nord")
    write_setting(store, "ana", "theme", "coven-high-contrast")
    write_setting(store, "ana", "reduced_motion", True)
    assert read_settings(store, None)["theme"] == "nord"
    ana = read_settings(store, "ana")
    assert ana["theme"] == "coven-high-contrast" and ana["reduced_motion"] is True
    bo = read_settings(store, "bo")
    assert [bo[item.name] for item in SETTINGS] == [item.default for item in SETTINGS] and not bo.fell_back


def test_settings_survive_reopening() -> None:
    with SessionStore() as store:
        write_setting(store, None, "bot_level", "hard")
    with SessionStore() as store:
        assert read_settings(store, None)["bot_level"] == "hard"


@pytest.mark.parametrize(("name", "stored"), [
    ("theme", "purple"), ("theme", 7), ("glyphs", "yes"), ("glyphs", 1), ("notifications", None),
    ("bot_level", ["hard"]), ("wizbits.auto_pass", "off"),
])
def test_a_value_coven_does_not_offer_falls_back_and_is_named_once(
        store: SessionStore, name: str, stored: object) -> None:
    item = setting(name)
    if stored is None:
        stored = {"nested": True}
    set_preference(store, None, item.stored_key, stored)
    settings = read_settings(store, None)
    assert settings[name] == item.default and settings.fell_back == [name]
    notice = settings.notice()
    assert notice is not None and notice.count(item.label) == 1


@pytest.mark.parametrize("account", [None, "ana"])  # this machine's player, and a served account's
@pytest.mark.parametrize(("stored", "problem"), [
    (b"nord", PreferenceProblem.NOT_JSON), ('"' + "x" * 20000 + '"', PreferenceProblem.TOO_BIG),
    ("[" * 40 + "]" * 40, PreferenceProblem.TOO_DEEP), (b'"n\xffrd"', PreferenceProblem.BAD_TEXT),
    ("NaN", PreferenceProblem.NOT_A_NUMBER), ("Infinity", PreferenceProblem.NOT_A_NUMBER),
])
def test_a_value_that_cannot_be_read_falls_back_and_is_named_once(
        store: SessionStore, account: str | None, stored: bytes | str, problem: PreferenceProblem) -> None:
    write_setting(store, account, "glyphs", True)
    plant(account or "", "setting.theme", stored)
    settings = read_settings(store, account)
    assert settings["theme"] == "textual-dark" and settings["glyphs"] is True
    assert settings.unreadable == {"theme": problem} and settings.fell_back == []
    notice = settings.notice()
    assert notice is not None and "could not be read" in notice and notice.count("Theme") == 1
    other = read_settings(store, "bo" if account else "ana")  # nobody else's settings are named
    assert other.notice() is None and not other.unreadable
    write_setting(store, account, "theme", "nord")  # choosing it again writes over the damage
    again = read_settings(store, account)
    assert again["theme"] == "nord" and again.notice() is None


def test_writing_refuses_values_and_names_that_do_not_exist(store: SessionStore) -> None:
    with pytest.raises(ValueError, match="theme is one of"):
        write_setting(store, None, "theme", "purple")
    with pytest.raises(KeyError, match="no setting 'colour'"):
        write_setting(store, None, "colour", True)
    with pytest.raises(ValueError, match="on or off"):
        setting("glyphs").parse("maybe")
    assert setting("glyphs").parse(" YES ") is True and setting("bot_level").parse("easy") == "easy"


def test_every_offered_theme_exists() -> None:
    known = set(BUILTIN_THEMES) | {HIGH_CONTRAST.name, COLOUR_BLIND.name}
    assert set(THEMES) <= known and setting("theme").default in THEMES


def test_the_high_contrast_theme_meets_wcag_aaa_for_every_text_pair() -> None:
    pairs = list(theme_pairs(HIGH_CONTRAST))
    assert len(pairs) >= 25  # every pair it draws, elements included
    failing = [(text, back, round(ratio, 2)) for text, back, ratio in pairs if ratio < 7.0]  # as the README says
    assert failing == []
    assert len(list(theme_pairs(BUILTIN_THEMES["textual-dark"]))) > 0
    # The arithmetic itself: black on white is 21:1, a colour on itself 1:1.
    from textual.color import Color
    assert round(contrast_ratio(Color(0, 0, 0), Color(255, 255, 255)), 1) == 21.0
    assert contrast_ratio(Color(10, 20, 30), Color(10, 20, 30)) == 1.0
    assert any(ratio < 4.5 for _, _, ratio in theme_pairs(BUILTIN_THEMES["textual-dark"]))  # the test can fail


def test_the_colour_blind_theme_draws_from_okabe_ito() -> None:
    palette = {value.upper() for value in OKABE_ITO.values()}
    for hue in (COLOUR_BLIND.primary, COLOUR_BLIND.secondary, COLOUR_BLIND.accent, COLOUR_BLIND.warning,
                COLOUR_BLIND.error, COLOUR_BLIND.success):
        assert hue is not None and hue.upper() in palette
    elements = [COLOUR_BLIND.variables[f"element-{name}"] for name in
                ("fire", "water", "nature", "light", "shadow", "void")]
    assert len(set(elements)) == 6 and all(hue.upper() in palette for hue in elements)


# -- in the app ------------------------------------------------------------------------------


async def test_the_settings_screen_changes_the_theme_at_once_and_keeps_it(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the Settings screen")
        assert app.theme == "textual-dark"
        await pilot.press("right")
        await until(pilot, lambda: app.theme == THEMES[1], "the next theme, previewed at once")
        assert read_settings(store, None)["theme"] == THEMES[1]
        await pilot.press("down", "down", "enter")  # No colour: on
        await until(pilot, lambda: any(isinstance(f, Monochrome) for f in app.get_line_filters()), "no colour")
        await pilot.press("down", "space")  # Reduced motion: on
        await until(pilot, lambda: app.animation_level == "none" and app.auto_delay == 0.0, "reduced motion")
        await pilot.press("r")
        await until(pilot, lambda: app.theme == "textual-dark" and app.animation_level == "full", "the defaults")
        assert not any(isinstance(f, Monochrome) for f in app.get_line_filters())
        assert app.auto_delay == app.base_auto_delay


async def test_a_bad_stored_value_starts_coven_with_one_notice(store: SessionStore) -> None:
    set_preference(store, None, "setting.theme", "no-such-theme")
    set_preference(store, None, "setting.glyphs", "sometimes")
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (
            len([str(note.message) for note in app._notifications if note.title == 'Settings']) == 1
        ), 'len(notices) == 1 and "Theme" in notices[0] and "Colour-b...')
        notices = [str(note.message) for note in app._notifications if note.title == "Settings"]
        assert len(notices) == 1 and "Theme" in notices[0] and "Colour-blind letters" in notices[0]
        assert app.theme == "textual-dark"


async def test_a_setting_that_cannot_be_read_is_named_in_the_same_notice(store: SessionStore) -> None:
    plant("", "setting.theme", b'"nord\xff"')
    plant("", "setting.reduced_motion", "tru")
    set_preference(store, None, "setting.glyphs", "sometimes")
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any(note.title == "Settings" for note in app._notifications), "the notice")
        notices = [str(note.message) for note in app._notifications if note.title == "Settings"]
        assert len(notices) == 1
        assert "could not be read (damaged) were set back to their defaults: Theme, Reduced motion." in notices[0]
        assert "does not offer were set back to their defaults: Colour-blind letters." in notices[0]
        assert app.theme == "textual-dark" and app.animation_level == "full"


async def test_a_served_account_is_told_of_its_own_unreadable_settings(store: SessionStore) -> None:
    plant("ana", "setting.linear", "[" * 30 + "]" * 30)
    ana = CovenApp(store=store, serve_port=2222, account="ana", signed_in=True)
    async with ana.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any(note.title == "Settings" for note in ana._notifications), "Ana's notice")
        [notice] = [str(note.message) for note in ana._notifications if note.title == "Settings"]
        assert "could not be read" in notice and "Linear mode" in notice
    other = CovenApp(store=SessionStore(), serve_port=2222, account="bo", signed_in=True)  # Ana's app closed the store it had
    async with other.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (other.theme == "textual-dark"
                                    and not [note for note in other._notifications if note.title == "Settings"]),
                    'other.theme == "textual-dark"')
        assert other.theme == "textual-dark"
        assert not [note for note in other._notifications if note.title == "Settings"]


async def test_a_served_account_reads_its_own_settings(store: SessionStore) -> None:
    write_setting(store, "ana", "theme", "coven-high-contrast")
    app = CovenApp(store=store, serve_port=2222, account="ana", signed_in=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.theme == "coven-high-contrast", 'app.theme == "coven-high-contrast"')
    other = CovenApp(store=store, serve_port=2222, account="bo", signed_in=True)
    async with other.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: other.theme == "textual-dark", 'other.theme == "textual-dark"')


# -- the command ------------------------------------------------------------------------------


def test_the_settings_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settings", "set", "theme", "nord"]) == 0
    assert main(["settings", "get", "theme"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "nord"
    assert main(["settings", "--account", "ana", "set", "glyphs", "on"]) == 0
    assert main(["settings", "get", "glyphs"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "off"  # Ana's, not this machine's
    assert main(["settings", "list"]) == 0
    listed = capsys.readouterr().out
    assert "theme" in listed and "nord" in listed and "(default textual-dark)" in listed
    assert main(["settings", "reset"]) == 0
    assert main(["settings", "get", "theme"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "textual-dark"
    assert main(["settings", "set", "theme", "purple"]) == 2
    assert main(["settings", "get", "colour"]) == 2
    assert main(["settings", "--account", "a\x1b[31m", "list"]) == 2
    errors = capsys.readouterr().err
    assert "theme is one of" in errors and "no setting 'colour'" in errors and "\x1b" not in errors


async def test_colour_blind_letters_and_the_theme_s_element_hues_reach_the_cards(store: SessionStore) -> None:
    from engine.wizards_cup.cards import Element
    from tui.games.wizards_cup.wizard_card import ELEMENT_COLOURS, ELEMENT_GLYPHS, wizard_name

    write_setting(store, None, "glyphs", True)
    write_setting(store, None, "theme", "coven-high-contrast")
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (
            ELEMENT_GLYPHS[Element.FIRE] == "▲F" and ELEMENT_COLOURS[Element.FIRE] == "#FF7A4D"
        ), 'ELEMENT_GLYPHS[Element.FIRE] == "▲F" and ELEMENT_COLOURS[...')
        line = wizard_name("pyre-lord").plain
        assert line.startswith("▲F ")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the Settings screen")
        await pilot.press("down", "right")  # letters off
        await until(pilot, lambda: ELEMENT_GLYPHS[Element.FIRE] == "▲", "the letters gone")


async def test_new_game_offers_the_default_bot_level_and_forgets_when_told(store: SessionStore) -> None:
    from textual.widgets import Input

    from tests.helpers.new_game_memory import form, open_form
    from tui.screens.game.screen import GameScreen

    write_setting(store, None, "bot_level", "easy")
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(app, pilot)
        assert form(app)["rows"][1][1] == "bot:easy"
        app.screen.query_one("#seat-name-0", Input).value = "Zed"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.press("escape")
        await open_form(app, pilot)
        assert form(app)["rows"][0][0] == "Zed"  # remembered while the setting is on
        await pilot.press("escape")
    reopened = SessionStore()  # the app closed the store it was given as it ended
    write_setting(reopened, None, "remember_names", False)
    again = CovenApp(store=reopened, auto_delay=60.0)
    async with again.run_test(size=(80, 24)) as pilot:
        await open_form(again, pilot)
        rows = form(again)["rows"]
        assert rows[0][0] != "Zed" and rows[1][1] == "bot:easy"


async def test_a_theme_chosen_from_the_palette_is_kept_as_the_setting(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = "nord"  # what the palette's "Change theme" does
        await until(pilot, lambda: read_settings(store, None)["theme"] == "nord", "the theme kept")
