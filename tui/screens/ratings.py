"""The Ratings screen: the players rated at shared tables, game by game, best conservative estimate first.

Ratings are read from the store (:mod:`saves.ratings`): account names are plain text, never markup, and a
damaged row is counted, left out and said. ``[`` and ``]`` go from game to game; ``;`` says the highlighted
player in a sentence, and linear mode reads every row as one.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from engine import GameSpec, all_games
from saves import StoreError
from saves.ratings import Rating, RatingList, ratings
from tui.context import coven, leave_to_menu
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter

NAME_WIDTH = 30
"""Columns kept for an account's name in a row (longer names are cut with an ellipsis)."""

EMPTY = ("Nobody is rated at {game} yet. A finished game between signed-in players at a rated table "
         "(coven serve) counts.")


def rating_row(place: int, rating: Rating) -> str:
    """One player's row: place, account, conservative estimate, mu, sigma and games."""
    name = rating.account if len(rating.account) <= NAME_WIDTH else rating.account[: NAME_WIDTH - 1] + "…"
    return (f"{place:>3}  {name:<{NAME_WIDTH}}  {rating.ordinal:>6.1f}  {rating.skill.mu:>5.1f}"
            f"  {rating.skill.sigma:>5.2f}  {rating.games:>5}")


def heading_row() -> str:
    """The headings over :func:`rating_row`'s columns."""
    return f"{'#':>3}  {'Player':<{NAME_WIDTH}}  {'Rating':>6}  {'mu':>5}  {'sigma':>5}  {'Games':>5}"


def rating_sentence(place: int, rating: Rating) -> str:
    """One player's row in words, for linear mode and ``;``."""
    games = f"{rating.games} rated game{'s' if rating.games != 1 else ''}"
    return (f"{place}. {rating.account}: rating {rating.ordinal:.1f} (mu {rating.skill.mu:.1f}, "
            f"sigma {rating.skill.sigma:.2f}), {games}.")


class RatingsScreen(Screen[None]):
    """Each game's rated players, by the conservative estimate mu - 3 sigma."""
    HELP_TITLE = "Ratings"
    HELP = ("Players rated at shared tables, one game at a time, best first. A rating counts only finished games "
            "between signed-in players at tables their host marked rated; the Rating column is the cautious "
            "estimate mu - 3 sigma, which stays low until a player has a few games. [ and ] show another game; "
            "; says the highlighted player in words.")

    DEFAULT_CSS = """
    RatingsScreen #ratings-game { height: 1; padding: 0 1; text-style: bold; }
    RatingsScreen #ratings-heading { height: 1; padding: 0 1; color: $text-muted; text-style: bold; }
    RatingsScreen #ratings { height: 1fr; border: none; }
    RatingsScreen #ratings-empty { height: auto; padding: 0 1; color: $text-muted; }
    RatingsScreen #ratings-said { height: auto; max-height: 3; padding: 0 1; }
    """

    BINDINGS = [
        Binding("left_square_bracket", "game(-1)", "Game", key_display="["),
        Binding("right_square_bracket", "game(1)", "Game", key_display="]"),
        Binding("semicolon", "announce", "Say it", key_display=";"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        """Nothing read until mount."""
        super().__init__()
        self.games: list[GameSpec] = list(all_games())
        self.game_index = 0
        self.listing = RatingList([])
        self.said = ""
        """The last sentence the screen spoke (on its status line), for the narrator and tests."""
        self.linear = False

    def compose(self) -> ComposeResult:
        """The game shown, the headings, the list, what is missing, what the screen said, and the Footer."""
        yield Header()
        yield Static("", id="ratings-game")
        yield Static(plain(heading_row()), id="ratings-heading")
        yield OptionList(id="ratings")
        yield Static("", id="ratings-empty")
        yield Static("", id="ratings-said")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Read the ratings, starting at the first game anyone is rated at."""
        self.title = "Ratings"
        context = coven(self)
        self.linear = bool(read_settings(context.store, context.account)["linear"])
        self.query_one("#ratings-heading").display = not self.linear
        self.query_one("#ratings", OptionList).focus()
        every = self._read(None)
        rated = {rating.game_id for rating in every.ratings}
        self.game_index = next((index for index, spec in enumerate(self.games) if spec.game_id in rated), 0)
        self.show()

    def _read(self, game_id: str | None) -> RatingList:
        store = coven(self).store
        if store is None:
            return RatingList([])
        try:
            return ratings(store, game_id)
        except StoreError as error:
            self._say(str(error))
            return RatingList([])

    @property
    def game(self) -> GameSpec:
        """The game whose ratings are shown."""
        return self.games[self.game_index]

    def show(self) -> None:
        """Read and draw the shown game's ratings, then say which game it is and how many are rated."""
        self.listing = self._read(self.game.game_id)
        rows = [rating_sentence(place, rating) if self.linear else rating_row(place, rating)
                for place, rating in enumerate(self.listing.ratings, start=1)]
        menu = self.query_one("#ratings", OptionList)
        menu.clear_options()
        menu.add_options([Option(plain(text)) for text in rows])  # account names: never markup
        if rows:
            menu.highlighted = 0
        where = f"{self.game.title} ({self.game_index + 1} of {len(self.games)}; [ and ] for another game)"
        self.query_one("#ratings-game", Static).update(plain(where))
        empty = EMPTY.format(game=self.game.title) if not rows else ""
        if self.listing.damaged:
            were = "row was" if self.listing.damaged == 1 else "rows were"
            empty = f"{empty} {self.listing.damaged} damaged rating {were} left out.".strip()
        self.query_one("#ratings-empty", Static).update(plain(empty))
        self._say(self._count_sentence())

    def _count_sentence(self) -> str:
        count = len(self.listing.ratings)
        rated = f"{count} player{'s are' if count != 1 else ' is'} rated" if count else "Nobody is rated yet"
        return f"{self.game.title}: {rated}."

    def _say(self, text: str) -> None:
        """Put ``text`` on the screen's status line, where a screen reader finds it."""
        self.said = text
        self.query_one("#ratings-said", Static).update(plain(text))

    def highlighted(self) -> tuple[int, Rating] | None:
        """The place and rating under the cursor, or None when the list is empty."""
        menu = self.query_one("#ratings", OptionList)
        if menu.highlighted is None or not self.listing.ratings:
            return None
        return menu.highlighted + 1, self.listing.ratings[menu.highlighted]

    @on(OptionList.OptionHighlighted, "#ratings")
    def _moved(self) -> None:
        if self.linear:
            self.action_announce()  # linear mode reads the row the cursor reaches

    def action_game(self, step: int) -> None:
        """Show the previous or next game's ratings."""
        self.game_index = (self.game_index + step) % len(self.games)
        self.show()

    def action_announce(self) -> None:
        """Say the highlighted player in words."""
        mine = self.highlighted()
        if mine is None:
            self._say(self._count_sentence())
            return
        self._say(f"{self._count_sentence()} {rating_sentence(*mine)}")

    def action_back(self) -> None:
        """Back to the main menu."""
        leave_to_menu(self)
