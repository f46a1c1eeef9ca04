"""No meaning by colour alone: key screens drawn without colour still say what their colours mean.

Each screen is rendered, every line passed through Textual's ``Monochrome``
filter (what the "No colour" setting adds), and the rows read as text: the
legal or illegal spot of the potion ghost, whose side and whose unit, the
threatened card, the current phase and who won or lost must all be words or
glyphs there. The menu is drawn by Coven's own app with "No colour" on.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.app import App
from textual.color import Color
from textual.filter import Monochrome

from engine import Result
from engine.witchdraft.geometry import Placement
from saves import SessionStore
from tests.helpers.pillar_tree import Host, two_subpillars
from tests.helpers.potion_grid import GridApp, drafted, hand_card
from tests.helpers.tui_fakes import ScreenApp
from tests.helpers.waiting import until
from tests.helpers.witchdraft_tui import Game as DraftGame
from tests.helpers.witchdraft_tui import score_app
from tests.helpers.wizards_cup_tui import duel_app, swap_game, tiebreak_game
from tests.helpers.wizbits_battle import BIG, SMALL, BattleApp, opening, resolving, run
from tests.helpers.wizbits_game import RULES
from tui.app import CovenApp
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.games.wizards_cup.table import WizardsCupUI
from tui.games.wizbits.results import WizbitsResultScreen
from tui.player_settings import write_setting

SIZE = (80, 24)


def _grey(segment: Segment) -> bool:
    style = segment.style
    if style is None:
        return True
    for colour in (style.color, style.bgcolor):
        if colour is not None and colour.triplet is not None:
            red, green, blue = colour.triplet
            if not red == green == blue:
                return False
    return True


def colourless_rows(app: App[Any]) -> list[str]:
    """The screen's rows as text, after checking they hold no colour once Monochrome has passed over them."""
    background = Color.parse(app.current_theme.background or "#000000")
    rows = []
    for strip in app.screen._compositor.render_strips():
        mono = strip.apply_filter(Monochrome(), background)
        assert all(_grey(segment) for segment in mono), "a colour survived the Monochrome filter"
        rows.append(mono.text)
    return rows


def grid_rows(app: GridApp) -> list[str]:
    """The potion grid's own rows without its status line (which says the verdict in words anyway)."""
    grid = app.query_one(PotionGrid)
    top, height = grid.region.y, grid.region.height
    return [row[grid.region.x:grid.region.right] for row in colourless_rows(app)[top:top + height - 1]]


async def test_the_potion_ghost_says_legal_or_illegal_without_colour() -> None:
    state = drafted(4)
    legal = GridApp(state, card=hand_card(state))
    async with legal.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: (
            legal.query_one(PotionGrid).reason is None
            and any("░" in row for row in grid_rows(legal)) and not any("✗" in row for row in grid_rows(legal))
            and "✓ Legal" in "\n".join(colourless_rows(legal))
        ), 'legal.query_one(PotionGrid).reason is None')
        assert legal.query_one(PotionGrid).reason is None
        assert any("░" in row for row in grid_rows(legal)) and not any("✗" in row for row in grid_rows(legal))
        assert "✓ Legal" in "\n".join(colourless_rows(legal))
    illegal = GridApp(state, card=hand_card(state), start=Placement(1, 0, 0))
    async with illegal.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: (illegal.query_one(PotionGrid).reason is not None
                                    and any("✗" in row for row in grid_rows(illegal))
                                    and "✗ Illegal" in "\n".join(colourless_rows(illegal))),
                    'illegal.query_one(PotionGrid).reason is not None')
        assert illegal.query_one(PotionGrid).reason is not None
        assert any("✗" in row for row in grid_rows(illegal)), "the illegal ghost is told apart only by its red"
        assert "✗ Illegal" in "\n".join(colourless_rows(illegal))
        await pilot.press("z")  # the detailed zoom puts the verdict inside each half
        await until(pilot, lambda: (sum(row.count("✗") for row in grid_rows(illegal)) >= 1),
                    'sum(row.count("✗") for row in grid_rows(illegal)) >= 1')


async def test_a_wizards_cup_duel_and_round_result_read_without_colour() -> None:
    app = duel_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: '(you)' in '\n'.join(colourless_rows(app)), '"(you)" in text')
        text = "\n".join(colourless_rows(app))
        assert "(you)" in text  # whose side
        assert "Round 1 · Duel 3" in text  # the phase, in words
        assert "beats" in text or "both discarded" in text  # the last duel's outcome
        assert "✗ discarded" in text  # the beaten card, by its caption
    game = swap_game()
    screen = WizardsCupUI().round_result(game.view(0), game.events)
    assert screen is not None
    result_app = ScreenApp(screen)
    async with result_app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ("wins the round" in "\n".join(colourless_rows(result_app))),
                    '"wins the round" in "\\n".join(colourless_rows(result_app))')


def test_the_wizbits_battlefield_reads_without_colour() -> None:
    app = BattleApp(resolving(), viewer=1)

    async def scenario(pilot: Any) -> None:
        rows = colourless_rows(app)
        text = "\n".join(rows)
        scout = next(index for index, row in enumerate(rows) if "Pondskater Scout" in row)
        assert "◎" in rows[scout] and "targeted" in rows[scout] + rows[scout + 1]  # the threatened card
        assert "you" in text  # whose side: the viewer's side says so on its border
        timeline = next(row for row in rows if "Priority" in row and "›" in row)
        assert "[Play 1: Elements]" in timeline, timeline  # the current phase, not only in reverse video
        tree = [row for row in rows if "Ripple" in row or "Sparkswarm" in row]  # names cut to fit their targets
        assert any("Bo card" in row for row in tree) and any("Ana card" in row for row in tree)  # each unit's owner

    run(app, scenario, BIG)


def test_the_compact_battlefield_marks_the_phase_and_unplayable_cards_without_colour() -> None:
    app = BattleApp(opening(), viewer=0)

    async def scenario(pilot: Any) -> None:
        rows = colourless_rows(app)
        timeline = next(row for row in rows if row.startswith("Rec›Test›"))
        assert "›[Play 1: Elements]›" in timeline, timeline
        # A card that cannot be played now says so in words, not only by being dimmed.
        assert "not now" in next(row for row in rows if "Bellows of the Hive" in row)
        assert "not now" not in next(row for row in rows if "Kindled Resolve" in row)

    run(app, scenario, SMALL)


async def test_the_pillar_tree_names_each_units_owner_without_colour() -> None:
    app = Host(two_subpillars())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ('◆ Wildfire Cascade Bo card' in '\n'.join(colourless_rows(app))),
                    '"◆ Wildfire Cascade Bo card" in text and "Next unit goes ...')
        text = "\n".join(colourless_rows(app))
        # The foundation for the next unit is ◆ (other legal ones ◇), not only its background.
        assert "◆ Wildfire Cascade Bo card" in text and "Next unit goes on Wildfire Cascade" in text
        assert "◇ S2 Glowworm Warden Ana abil" in text  # each unit's owner, by name


async def test_each_final_screen_says_who_won_and_lost_in_words() -> None:
    game, result = tiebreak_game()
    cup = ScreenApp(WizardsCupUI().game_result(game.view(0), result, game.events))
    async with cup.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ('wins the Wizards Cup' in '\n'.join(colourless_rows(cup))),
                    '"wins the Wizards Cup" in text and "★ won" in text and "·...')
        text = "\n".join(colourless_rows(cup))
        assert "wins the Wizards Cup" in text and "★ won" in text and "· lost" in text
    draft = score_app(DraftGame(5, seed=3).rounds())
    async with draft.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: (
            (' wins' in '\n'.join(colourless_rows(draft)) or 'share the victory' in '\n'.join(colourless_rows(draft)))
        ), '" wins" in text or "share the victory" in text')
        text = "\n".join(colourless_rows(draft))
        assert " wins" in text or "share the victory" in text
        assert "★" in text
    view = RULES.view(opening().state, 0)
    bits = ScreenApp(WizbitsResultScreen(view, Result((1,), "Ana's Main Character fell."), []))
    async with bits.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ('Bo wins!' in '\n'.join(colourless_rows(bits))),
                    '"Bo wins!" in text and "Bo ★ won" in text and "Ana · lost...')
        text = "\n".join(colourless_rows(bits))
        assert "Bo wins!" in text and "Bo ★ won" in text and "Ana · lost" in text


async def test_the_menu_with_no_colour_draws_in_greys_and_still_shows_the_highlight(store: SessionStore) -> None:
    write_setting(store, None, "no_color", True)
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.colourless, 'app.colourless')
        rows = [strip for strip in app.screen._compositor.render_strips()]
        for strip in rows:  # the app's own filter already drew them without colour
            assert all(_grey(segment) for segment in strip), strip.text
        text = "\n".join(strip.text for strip in rows)
        assert "New game" in text
        # The highlighted entry still stands out in greys: its row's background differs from the next one's.
        first = next(strip for strip in rows if "New game" in strip.text)
        below = rows[rows.index(first) + 1]

        def backgrounds(strip: Any) -> set[Any]:
            return {segment.style.bgcolor for segment in strip if segment.style and segment.text.strip()}

        assert backgrounds(first) != backgrounds(below)


async def test_with_colour_blind_letters_each_potion_card_names_its_colour() -> None:
    from engine.witchdraft.cards import CARDS as POTIONS
    from tui.games.witchdraft.look import COLOUR_LETTERS, legend_text
    from tui.widgets.element_look import set_element_look

    state = drafted(4)
    colours = {POTIONS[str(card)].colour for card, *_ in state.players[0].area} - {None}
    assert len(colours) >= 2
    plain = GridApp(state)
    async with plain.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: (
            not any(letter in row for row in grid_rows(plain) for letter in COLOUR_LETTERS.values())
        ), 'not any(letter in row for row in grid_rows(plain) for let...')
    set_element_look(True, {})
    lettered = GridApp(state)
    async with lettered.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: any(COLOUR_LETTERS[colour] in "".join(grid_rows(lettered))
                                       for colour in colours if colour is not None), "the colour letters")
        shown = "".join(grid_rows(lettered))
        assert {colour for colour in colours if colour is not None and COLOUR_LETTERS[colour] in shown} == colours
        assert not {letter for colour, letter in COLOUR_LETTERS.items() if colour not in colours} & set(shown)
    assert "z azure" in legend_text().plain


async def test_a_witchdraft_hand_says_its_phase_and_whose_seat_in_words() -> None:
    from tests.helpers.witchdraft_tui import two_player_app

    app = two_player_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ('Your hand · phase 1, pick 3' in '\n'.join(colourless_rows(app))),
                    '"Your hand · phase 1, pick 3" in text')
        text = "\n".join(colourless_rows(app))
        assert "Your hand · phase 1, pick 3" in text
        assert "Ana (you)" in text
        assert "Amber" in text and "Violet" in text  # each card's colour by name in the hand


def placed_draft(store: SessionStore) -> Any:
    """A WitchDraft game of Ana (here) against a bot, both potions holding cards of at least two colours."""
    from engine.witchdraft.cards import CARDS as POTIONS
    from saves import LiveSession
    from tests.helpers.tui_fakes import play_until, seats

    live = LiveSession.create(store, "witchdraft", None, 5, seats("Ana", "Merlin:easy"))
    for _ in range(60):
        area = live.rules.view(live.state, 0).players[0].area
        if len({POTIONS[card].colour for card, *_ in area} - {None}) >= 2 and 0 in live.to_act:
            return live
        play_until(live, 1)
    raise AssertionError("Ana's potion never held two colours")


def grid_letters(app: App[Any]) -> set[str]:
    from tui.games.witchdraft.look import COLOUR_LETTERS

    grid = app.screen.query(PotionGrid).first()
    top, bottom = grid.region.y, grid.region.bottom
    drawn = "".join(row[grid.region.x:grid.region.right] for row in colourless_rows(app)[top:bottom])
    return {letter for letter in COLOUR_LETTERS.values() if letter in drawn}


async def test_with_no_colour_the_potion_grid_names_each_cards_colour_in_both_zooms(store: SessionStore) -> None:
    from engine.witchdraft.cards import CARDS as POTIONS
    from tui.games.witchdraft.look import COLOUR_LETTERS
    from tui.screens.game.screen import GameScreen

    write_setting(store, None, "no_color", True)  # and the colour-blind letters left off
    live = placed_draft(store)
    colours = {POTIONS[card].colour for card, *_ in live.rules.view(live.state, 0).players[0].area} - {None}
    wanted = {COLOUR_LETTERS[colour] for colour in colours if colour is not None}
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_session(live.session_id)
        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.query(PotionGrid)
                    and wanted <= grid_letters(app), "each placed card's colour letter on the grid")
        grid = app.screen.query(PotionGrid).first()
        zoom = grid.zoom
        grid.action_toggle_zoom()
        await until(pilot, lambda: grid.zoom != zoom and wanted <= grid_letters(app), "the letters in the other zoom")


async def test_no_color_from_the_environment_turns_the_colour_letters_on(
        store: SessionStore, monkeypatch: Any) -> None:
    from tui.widgets.element_look import LOOK

    monkeypatch.setenv("NO_COLOR", "1")
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: LOOK.letters, "the colour letters on")
