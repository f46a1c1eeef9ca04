"""Themes reach every widget: element borders and a winner's frame follow the theme's variables.

Coven's app lays ``tui/themed.tcss`` over the widgets' fixed hues, and gives
every theme (Textual's own included) the variables it uses, so switching to
any offered theme never fails on an undefined variable.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.color import Color
from textual.screen import Screen

from engine import Result
from saves import SessionStore
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import opening
from tests.helpers.wizbits_game import RULES
from tui.app import CovenApp
from tui.games.wizards_cup.wizard_card import WizardCard
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.results import WizbitsResultScreen
from tui.player_settings import THEMES
from tui.themed import VICTORY, theme_variable_defaults
from tui.themes import COLOUR_BLIND, HIGH_CONTRAST, OKABE_ITO
from tui.widgets.element_look import ELEMENT_HUES, LOOK, set_element_look

SIZE = (80, 24)


class Cards(Screen[None]):
    """A fire wizard and a water Wizbits card."""

    def compose(self) -> ComposeResult:
        yield WizardCard("ember-adept", id="wizard")
        yield WizbitsCard("tidewhisper-sage", id="wizbit")


def border_colour(widget: WizardCard | WizbitsCard) -> Color:
    return widget.styles.border_top[1]


def test_every_variable_has_a_default_for_themes_that_do_not_name_it() -> None:
    defaults = theme_variable_defaults()
    assert {f"element-{name}" for name in ELEMENT_HUES} | {"victory"} == set(defaults)
    assert defaults["element-fire"] == ELEMENT_HUES["fire"] and defaults["victory"] == VICTORY
    for theme in (HIGH_CONTRAST, COLOUR_BLIND):  # Coven's own name every one of them
        assert set(defaults) <= set(theme.variables), theme.name


async def test_element_borders_follow_the_theme(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(Cards())
        await until(pilot, lambda: app.screen.query("#wizard") and Color.parse(ELEMENT_HUES["fire"])
                    == border_colour(app.screen.query_one("#wizard", WizardCard)), "the cards' fire border")
        wizard, wizbit = app.screen.query_one("#wizard", WizardCard), app.screen.query_one("#wizbit", WizbitsCard)
        assert border_colour(wizard) == Color.parse(ELEMENT_HUES["fire"])  # textual-dark: the default hue
        for theme in (COLOUR_BLIND, HIGH_CONTRAST):
            app.theme = theme.name
            await until(pilot, lambda theme=theme: (
                border_colour(wizard) == Color.parse(theme.variables["element-fire"])
                and border_colour(wizbit) == Color.parse(theme.variables["element-water"])
            ), f"the {theme.name} element borders")
            assert border_colour(wizard) == Color.parse(theme.variables["element-fire"]), theme.name
            assert border_colour(wizbit) == Color.parse(theme.variables["element-water"]), theme.name


async def test_every_offered_theme_loads_coven_styles(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(Cards())
        for name in THEMES:
            app.theme = name  # an undefined variable would fail here, in the stylesheet's parse
            expected = app.current_theme.variables.get("element-fire", ELEMENT_HUES["fire"])
            await until(pilot, lambda expected=expected: border_colour(app.screen.query_one("#wizard", WizardCard))
                        == Color.parse(expected), f"the {name} fire border")
            wizard = app.screen.query_one("#wizard", WizardCard)
            assert border_colour(wizard) == Color.parse(expected), name


async def test_a_theme_chosen_from_the_palette_reaches_the_element_text(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = COLOUR_BLIND.name  # as the palette's "Change theme" does, without the Settings screen
        await until(pilot, lambda: (LOOK.hues["fire"] == COLOUR_BLIND.variables["element-fire"]),
                    'LOOK.hues["fire"] == COLOUR_BLIND.variables["element-fire"]')
        app.theme = "nord"
        await until(pilot, lambda: (LOOK.hues["fire"] == ELEMENT_HUES["fire"]),
                    'LOOK.hues["fire"] == ELEMENT_HUES["fire"]')


async def test_the_winners_frame_follows_the_theme(store: SessionStore) -> None:
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = COLOUR_BLIND.name
        await pilot.pause()
        await app.push_screen(WizbitsResultScreen(RULES.view(opening().state, 0), Result((0,), "A test."), []))
        await until(pilot, lambda: (
            app.screen.query_one('#wr-title').styles.border_top[1] == Color.parse(COLOUR_BLIND.variables['victory'])
        ), 'title.styles.border_top[1] == Color.parse(COLOUR_BLIND.va...')
        title = app.screen.query_one("#wr-title")
        assert title.styles.border_top[1] == Color.parse(COLOUR_BLIND.variables["victory"])
        row = next(strip for strip in app.screen._compositor.render_strips() if "Ana wins!" in strip.text)
        words = {segment.style.color.triplet.hex for segment in row  # type: ignore[union-attr]
                 if "wins" in segment.text and segment.style and segment.style.color}
        assert words == {COLOUR_BLIND.variables["victory"].lower()}  # the title's words too, not only its frame
        app.theme = "textual-dark"
        await until(pilot, lambda: (title.styles.border_top[1] == Color.parse(VICTORY)),
                    'title.styles.border_top[1] == Color.parse(VICTORY)')


def test_potion_cards_chips_and_the_ghost_follow_the_theme() -> None:
    from engine.witchdraft.cards import CARDS as POTIONS
    from engine.witchdraft.cards import Colour, Ingredient
    from tui.games.witchdraft.look import INGREDIENT_STYLES
    from tui.games.witchdraft.potion_cells import ghost_palette, palette_of

    crimson = next(card_id for card_id, card in POTIONS.items() if card.colour is Colour.CRIMSON)
    assert palette_of(crimson).fg == "#ff6b81" and ghost_palette(False).bg == "#b02a2a"  # no theme's hues yet
    set_element_look(False, COLOUR_BLIND.variables)
    assert palette_of(crimson).fg == COLOUR_BLIND.variables["potion-crimson"]
    assert palette_of(crimson).bg == COLOUR_BLIND.variables["potion-crimson-background"]
    assert INGREDIENT_STYLES[Ingredient.FIRE_ROOT] == COLOUR_BLIND.variables["potion-fire-root"]
    assert (ghost_palette(True).bg, ghost_palette(False).bg) == (OKABE_ITO["blue"], OKABE_ITO["vermillion"])
    assert ghost_palette(False).mark == "✗" and ghost_palette(True).mark == "✓"
    set_element_look(False, HIGH_CONTRAST.variables)
    assert palette_of(crimson).fg == HIGH_CONTRAST.variables["potion-crimson"]


async def test_named_colours_in_rich_text_follow_coven_themes(store: SessionStore) -> None:
    from rich.text import Text
    from textual.widgets import Static

    from tui.themed import ANSI_COLOURS

    class Said(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Static(Text().append("✓ success", style="green"), id="said")  # a span, as widgets write them

    def drawn_colour() -> str | None:
        strip = next(row for row in app.screen._compositor.render_strips() if "✓ success" in row.text)
        colours = {segment.style.color.triplet.hex for segment in strip
                   if segment.style and segment.style.color and segment.style.color.triplet and segment.text.strip()}
        assert len(colours) == 1, colours
        return colours.pop()

    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(Said())
        await pilot.pause()
        textual_green = drawn_colour()
        app.theme = COLOUR_BLIND.name
        await until(pilot, lambda: (app.ansi_theme_dark is ANSI_COLOURS[COLOUR_BLIND.name]
                                    and drawn_colour() == OKABE_ITO["bluish-green"].lower()),
                    'app.ansi_theme_dark is ANSI_COLOURS[COLOUR_BLIND.name]')
        assert app.ansi_theme_dark is ANSI_COLOURS[COLOUR_BLIND.name]
        assert drawn_colour() == OKABE_ITO["bluish-green"].lower()
        app.theme = "textual-dark"
        await until(pilot, lambda: drawn_colour() == textual_green, 'drawn_colour() == textual_green')
