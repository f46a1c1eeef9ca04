"""The main menu, and the screen shown when the session database cannot be used."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from saves import StoreError
from tui.ahead import ahead_of_fork
from tui.context import coven
from tui.navigation import OpenPlace, QuitCoven, ShowRules
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter

MENU_ITEMS: tuple[tuple[str, str], ...] = (
    ("new", "New game            n"),
    ("continue", "Continue            c"),
    ("sessions", "Sessions            s"),
    ("host", "Host a table        h"),
    ("join", "Join a table        j"),
    ("tables", "Open tables         t"),
    ("ratings", "Ratings             a"),
    ("decks", "Decks               d"),
    ("lab", "Pillar Lab          l"),
    ("learn", "Learn               e"),
    ("rules", "Rules               r"),
    ("settings", "Settings            o"),
    ("quit", "Quit                q"),
)
"""(option id, label) of the menu entries, in order."""

TAGLINE = "A table for wizarding card games"
"""The line under the title, unless a signed-in player has a rating to see there."""

RATING_ROOM = 44
"""Characters on one line inside the menu box (its width less border and padding)."""

NO_CONTINUE = "No unfinished game to continue. Press n to start a new one."
"""Why Continue is disabled."""


class MainMenu(Screen[None]):
    """The first screen: new game, continue, sessions, tables, decks, the Pillar Lab, rules, quit."""
    HELP_TITLE = "Main menu"
    HELP = ("Coven's front door: start or continue a game, open your saved sessions, host or join a table "
            "over the network (or pick one from the open tables; y lists your turn-based tables, and the line under the "
            "menu says at how many it is your move), see the players' ratings, build decks, try plays in the Pillar Lab or read the rules. Each "
            "line's letter opens it from anywhere on this screen.")

    # menu.tcss is loaded by the app: this screen is its bottom screen, which Textual gives no CSS_PATH.
    BINDINGS = [
        Binding("n", "app.new_game", "New"),
        Binding("c", "app.continue", "Continue"),
        Binding("s", "app.sessions", "Sessions"),
        Binding("h", "app.host_table", "Host"),
        Binding("j", "app.join_table", "Join"),
        # Its menu line shows the key: the compact footer is full at 80 columns.
        Binding("t", "app.open_tables", "Tables", show=False),
        Binding("a", "app.ratings", "Ratings", show=False),  # its menu line shows the key, as Tables' does
        # The hint line under the menu says "Your move at N tables: press y" to a player who has some.
        Binding("y", "app.your_tables", "Your tables", show=False),
        Binding("d", "app.decks", "Decks"),
        Binding("l", "app.pillar_lab", "Lab"),
        Binding("e", "app.learn", "Learn"),
        Binding("r", "app.rules", "Rules"),
        # Like Quit, its menu line shows the key: the compact footer is full at 80 columns.
        Binding("o", "app.settings", "Settings", show=False),
        # The menu's own "Quit q" line shows this key; the footer has no room left at 80 columns.
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        """Title, the menu and a hint line."""
        yield Header()
        with Center():
            with Vertical(id="menu-box"):
                yield Static("C O V E N", id="menu-title")
                yield Static(TAGLINE, id="menu-tagline")
                yield OptionList(*(Option(label, id=key) for key, label in MENU_ITEMS), id="menu")
                yield Static("", id="continue-hint", classes="hint")
        yield FittingFooter(compact=True)  # nine keys and the palette fit 80 columns only without padding

    def on_mount(self) -> None:
        """Focus the menu and enable Continue if there is something to continue."""
        self.query_one("#menu", OptionList).focus()
        self.refresh_continue()
        self.refresh_rating()
        self.refresh_learn()

    def on_screen_resume(self) -> None:
        """Sessions, ratings and lessons may have changed while another screen was up."""
        self.refresh_continue()
        self.refresh_rating()
        self.refresh_learn()

    def refresh_learn(self) -> None:
        """Learn's line says how many of the lessons the player has finished (the files are counted, not read)."""
        from engine.core.lessons.load import shipped_lesson_ids
        from saves.lessons import lesson_progress
        from tui.screens.learn import learn_label

        context = coven(self)
        ids = shipped_lesson_ids()
        progress = lesson_progress(context.store, context.account)
        done = sum(1 for lesson_id in ids if lesson_id in progress and progress[lesson_id].done)
        self.query_one("#menu", OptionList).replace_option_prompt("learn", f"{learn_label(done, len(ids))} e")

    def refresh_rating(self) -> None:
        """A signed-in player's own rating at each game they have one for, in the tagline's place; else the tagline.

        The tagline's place keeps the menu inside 24 rows; a rating line that wraps gives up the gap below it.
        """
        from saves.ratings import ratings

        line = self.query_one("#menu-tagline", Static)
        context = coven(self)
        account = context.tables.rated_account
        mine = []
        if context.store is not None and account is not None:
            try:
                mine = ratings(context.store, account=account).ratings
            except StoreError:
                mine = []  # the ratings are a courtesy here: the Ratings screen says what is wrong
        text = "Your rating: " + ", ".join(f"{context.game_title(r.game_id)} {r.ordinal:.1f}" for r in mine)
        line.update(plain(text if mine else TAGLINE))
        line.styles.margin = (0, 0, 0 if mine and len(text) > RATING_ROOM else 1, 0)

    def refresh_awaiting(self) -> bool:
        """Say on the hint line at how many turn-based tables it is the signed-in player's move; whether it did.

        The hint line, not a new one: the menu fills 24 rows already. A player without such tables keeps
        the Continue hint there.
        """
        from saves.turn_based import my_turn_tables
        from tui.screens.awaiting_tables import your_move_line

        seating = coven(self).tables
        if seating.rated_account is None or coven(self).store is None:
            return False
        tables = seating.store()
        try:
            mine = my_turn_tables(tables) if tables is not None else []
        except StoreError:
            return False  # a courtesy line: the list itself (y) says what is wrong
        if not mine:
            return False
        self.query_one("#continue-hint", Static).update(your_move_line(mine))
        return True

    def refresh_continue(self) -> None:
        """Enable Continue only when an unfinished session exists."""
        menu = self.query_one("#menu", OptionList)
        hint = self.query_one("#continue-hint", Static)
        latest: int | None = None
        context = coven(self)
        store = context.store
        if store is not None:
            try:
                latest = store.latest_unfinished(context.account)
            except StoreError as error:
                hint.update(str(error))
                menu.disable_option("continue")
                return
        if latest is None:
            menu.disable_option("continue")
            hint.update(NO_CONTINUE)
        else:
            menu.enable_option("continue")
            hint.update(f"Continue resumes session {latest}.")
        self.refresh_awaiting()

    @on(OptionList.OptionSelected, "#menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Run the chosen menu entry."""
        choices: dict[str | None, Message] = {
            "new": OpenPlace("new_game"),
            "continue": OpenPlace("continue"),
            "sessions": OpenPlace("sessions"),
            "host": OpenPlace("host_table"),
            "join": OpenPlace("join_table"),
            "tables": OpenPlace("open_tables"),
            "ratings": OpenPlace("ratings"),
            "decks": OpenPlace("decks"),
            "lab": OpenPlace("pillar_lab"),
            "learn": OpenPlace("learn"),
            "rules": ShowRules(),
            "settings": OpenPlace("settings"),
            "quit": QuitCoven(),
        }
        message = choices.get(event.option.id)
        if message is not None:
            self.app.post_message(message)


class StoreProblemScreen(Screen[None]):
    """Explains why Coven cannot open its database (e.g. written by a newer Coven)."""
    HELP_TITLE = "Saved games unavailable"
    HELP = ("Coven could not open its database of saved games; the message says why and what to do. "
            "Nothing was changed.")

    # menu.tcss is loaded by the app: this screen is its bottom screen, which Textual gives no CSS_PATH.
    BINDINGS = [Binding("q,escape", "app.quit", "Quit")]

    def __init__(self, message: str) -> None:
        """Remember the message to show."""
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        """The message, centred, with a way out."""
        yield Header()
        with Center():
            with Vertical(id="problem-box"):
                yield Static("Coven cannot open your saved games", id="problem-title")
                yield Static(plain(self.message), id="problem-message")  # holds paths and SQLite's words: never markup
                yield Static("Nothing was changed. Press q to quit.", classes="hint")
        yield FittingFooter()


@ahead_of_fork
def count_lessons_ahead() -> None:
    """List the lesson files once before coven serve forks: the resource readers it imports are then shared."""
    from engine.core.lessons.load import shipped_lesson_ids

    shipped_lesson_ids()
