"""Behaviour tests for the WitchDraft side panel (DraftHand) and the final score screen.

Views and scores come from driving the engine with fixed seeds and the normal bot,
so the tests only change when the UI (or the engine) does.
"""

from __future__ import annotations

from textual.widgets import OptionList, Static

from engine.witchdraft.cards import CARDS
from engine.witchdraft.geometry import Placement, cells
from engine.witchdraft.scoring import score_so_far, total
from tests.helpers.waiting import until
from tests.helpers.witchdraft_tui import (
    NAMES,
    Game,
    HandApp,
    four_player_face_up_app,
    score_app,
    tie_game,
    two_player_app,
)
from tui.games.witchdraft.draft_hand import DraftHand
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.games.witchdraft.results import WitchDraftScoreScreen, winners_sentence


def text_of(widget: Static) -> str:
    return str(widget.render())


# --- DraftHand -----------------------------------------------------------------------------


async def test_choosing_a_card_posts_card_chosen() -> None:
    app = two_player_app()
    hand_cards = app.start.players[0].hand
    assert hand_cards
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.chosen == [hand_cards[1]], 'app.chosen == [hand_cards[1]]')
        await pilot.press("up", "space")
        await until(pilot, lambda: (app.chosen == [hand_cards[1], hand_cards[0]]),
                    'app.chosen == [hand_cards[1], hand_cards[0]]')


async def test_hand_lists_every_card_with_its_details() -> None:
    app = two_player_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (
            app.query_one('#dh-hand', OptionList).option_count == len(app.start.players[0].hand or ())
        ), 'options.option_count == len(hand_cards)')
        options = app.query_one("#dh-hand", OptionList)
        hand_cards = app.start.players[0].hand or ()
        assert options.option_count == len(hand_cards)
        for index, card_id in enumerate(hand_cards):
            row = str(options.get_option_at_index(index).prompt)
            card = CARDS[card_id]
            assert card.animal is not None and card.colour is not None
            assert card.animal.value in row and card.colour.value in row
        detail = text_of(app.query_one("#dh-card", Static))
        assert CARDS[hand_cards[0]].name in detail


async def test_no_card_chosen_once_the_pick_is_in() -> None:
    game = Game(2).rounds(1)
    game.pick(0)
    app = HandApp(game.view(0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: ("Your pick is in" in text_of(app.query_one("#dh-title", Static))),
                    '"Your pick is in" in text_of(app.query_one("#dh-title", S...')
        await pilot.press("enter", "space")
        await until(pilot, lambda: app.chosen == [], 'app.chosen == []')


async def test_brackets_post_watch_seat() -> None:
    app = four_player_face_up_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right_square_bracket", "right_square_bracket")
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await until(pilot, lambda: (app.watched == [1, 2, 1, 0, 3]
                                    and app.query_one(DraftHand).watching == 3),
                    'app.watched == [1, 2, 1, 0, 3]')
        assert app.watched == [1, 2, 1, 0, 3]
        assert app.query_one(DraftHand).watching == 3
        table = text_of(app.query_one("#dh-table", Static))
        assert "▶ Dee" in table


async def test_hidden_recipes_say_hidden() -> None:
    app = two_player_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(text_of(app.query_one("#dh-table", Static)).splitlines()) > 1, "the score table")
        table = text_of(app.query_one("#dh-table", Static)).splitlines()
        mine = total(score_so_far(app.start, 0) or [])
        assert table[0].split()[-2:] == [str(mine), "BP"]
        assert table[1].split()[-1] == "hidden"
        score = text_of(app.query_one("#dh-score", Static))
        assert score.startswith(f"Your brew so far {mine} BP")
        for words in ("bond", "scale", "grass", "root"):  # the ingredient card's points, line by line
            assert words in score
        await pilot.press("right_square_bracket")  # Bo's cards are secret: the score stays yours
        await until(pilot, lambda: (
            text_of(app.query_one('#dh-score', Static)).splitlines()[0] == f'Yours {mine} BP · Bo: hidden'
        ), 'score.splitlines()[0] == f"Yours {mine} BP · Bo: hidden"')
        score = text_of(app.query_one("#dh-score", Static))
        assert score.splitlines()[0] == f"Yours {mine} BP · Bo: hidden"


async def test_face_up_recipes_are_shown() -> None:
    app = four_player_face_up_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: 'hidden' not in text_of(app.query_one('#dh-table', Static)), '"hidden" not in table')
        table = text_of(app.query_one("#dh-table", Static))
        assert "hidden" not in table
        assert table.count(" BP") == 4
        await pilot.press("right_square_bracket")
        await until(pilot, lambda: score_so_far(app.start, 1) is not None, 'bo is not None')
        score = text_of(app.query_one("#dh-score", Static))
        bo = score_so_far(app.start, 1)
        assert bo is not None
        assert score.startswith(f"Bo's brew so far {total(bo)} BP")
        lines = score.splitlines()[1:]
        assert [f"{line.count}×{line.points}={line.brew:>2}" in lines[index % 4] for index, line in enumerate(bo)] \
            == [True] * 8


async def test_spectator_sees_no_hand_and_hidden_recipes() -> None:
    app = HandApp(Game(3).rounds(1).view(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (not app.query_one("#dh-hand", OptionList).display
                                    and text_of(app.query_one("#dh-table", Static)).count("hidden") == 3
                                    and "recipes hidden" in text_of(app.query_one("#dh-score", Static))),
                    'not app.query_one("#dh-hand", OptionList).display')
        assert not app.query_one("#dh-hand", OptionList).display
        assert text_of(app.query_one("#dh-table", Static)).count("hidden") == 3
        assert "recipes hidden" in text_of(app.query_one("#dh-score", Static))
        await pilot.press("enter")
        assert app.chosen == []


# --- score screen --------------------------------------------------------------------------


def test_winners_sentence() -> None:
    assert winners_sentence(["Ana"]) == "Ana wins"
    assert winners_sentence(["Ana", "Bo"]) == "Ana and Bo share the victory"
    assert winners_sentence(["Ana", "Bo", "Cy"]) == "Ana, Bo and Cy share the victory"


async def test_score_screen_shows_totals_and_shared_victory() -> None:
    game = tie_game()
    totals = [total(lines) for lines in game.scores()]
    assert game.result().winners == (1, 2) and totals[1] == totals[2]
    app = score_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (isinstance(app.screen, WitchDraftScoreScreen)),
                    'isinstance(screen, WitchDraftScoreScreen)')
        screen = app.screen
        assert isinstance(screen, WitchDraftScoreScreen)
        assert "Bo and Cy share the victory" in text_of(screen.query_one("#wd-title", Static))
        await pilot.press("t")  # from the potions to the whole sheet
        await pilot.pause()
        sheet = screen.query_one("#wd-table", Static)
        rendered = "\n".join(line.text for line in sheet.render_lines(sheet.region.reset_offset))
        for value in totals:
            assert f"{value} BP" in rendered
        first = game.scores()[0][0]
        assert f"{first.count} x {first.points} = {first.brew}" in rendered
        await pilot.press("enter")
        await until(pilot, lambda: app.dismissed, 'app.dismissed')


async def test_score_screen_single_winner_five_seats_fits() -> None:
    game = Game(5, seed=3).rounds()
    result = game.result()
    app = score_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WitchDraftScoreScreen), "the score screen")
        screen = app.screen
        title = text_of(screen.query_one("#wd-title", Static))
        if len(result.winners) == 1:
            assert f"{NAMES[result.winners[0]]} wins" in title
        await pilot.press("t")
        await until(pilot, lambda: (
            screen.query_one('#wd-table', Static).display and screen.query_one('#wd-table', Static).region.width > 0
        ), 'sheet.display and sheet.region.width > 0')
        sheet = screen.query_one("#wd-table", Static)
        assert sheet.display and sheet.region.width > 0
        assert sheet.region.right <= 80 and sheet.region.bottom <= 23
        await pilot.press("escape")
        await until(pilot, lambda: app.dismissed, 'app.dismissed')


async def test_score_screen_shows_every_potion_beside_its_lines() -> None:
    """``]`` walks the seats: each potion whole on its grid, its eight lines and total beside it, at 80x24 and up."""
    game = Game(5, seed=3).rounds()
    scores = game.scores()
    for size in ((80, 24), (120, 40)):
        app = score_app(game)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda app=app: (isinstance(app.screen, WitchDraftScoreScreen)),
                        'isinstance(screen, WitchDraftScoreScreen)')
            screen = app.screen
            assert isinstance(screen, WitchDraftScoreScreen)
            grid, lines = screen.query_one(PotionGrid), screen.query_one("#wd-lines", Static)
            for step in range(5):
                seat = step  # the screen opens on the viewer's own potion, Ana's (seat 0)
                player = game.state.players[seat]
                assert [card for card, *_ in grid.area] == [card for card, *_ in player.area]
                for _card, x, y, rotation in grid.area:
                    for cell in cells(Placement(x, y, rotation)):
                        assert grid.is_cell_visible(cell), f"seat {seat}'s potion is cut at {size}"
                text = text_of(lines)
                assert text.startswith(f"{player.name}'s potion")
                for line in scores[seat]:
                    assert f"{line.category}" in text and f"{line.count} x {line.points} = {line.brew:>2}" in text
                assert f"{total(scores[seat])} BP" in text.splitlines()[-1]
                assert screen.region.contains_region(lines.region) and screen.region.contains_region(grid.region)
                assert lines.region.bottom <= size[1] - 1 and grid.region.bottom <= size[1] - 1  # above the footer
                await pilot.press("right_square_bracket")
                following = game.state.players[(seat + 1) % 5].name
                await until(pilot, lambda lines=lines, following=following:
                            text_of(lines).startswith(f"{following}'s potion"), f"{following}'s potion")
            assert [card for card, *_ in grid.area] == [card for card, *_ in game.state.players[0].area]  # round
            await pilot.press("left_square_bracket")
            await until(pilot, lambda lines=lines: text_of(lines).startswith(f"{game.state.players[4].name}'s potion"),
                        'text_of(lines).startswith(f"{game.state.players[4].name}\'...')
            await pilot.press("enter")
            await until(pilot, lambda app=app: app.dismissed, 'app.dismissed')
