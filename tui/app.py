"""The Coven application: opens the session store and routes between screens.

``coven`` with no arguments calls :func:`run`. Screens never open the store
and never import this module: they read the shared state through
:func:`tui.context.coven` (typed by :class:`tui.context.CovenContext`, which
:class:`CovenApp` satisfies) and post :mod:`tui.navigation` messages, which
the app's handlers turn into the moves between screens: the forms and lists
opened over the main menu, the rules, a saved session's game or replay (refused
while a shared table plays it). Screens are imported inside the methods that
open them, so start-up loads none it does not show.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.driver import Driver
from textual.filter import LineFilter, Monochrome, NoColor
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from engine import get_game
from engine.core.game_caches import forget_games
from saves import LiveSession, NewerSchemaError, SessionNotFoundError, SessionStore, StoreError
from saves.preferences import begin_visit
from tui import css_cache
from tui.ahead import ahead_of_fork
from tui.alarm import Alarm, set_alarm
from tui.commands import CovenCommands
from tui.contrast_floor import ContrastFloor
from tui.focus_cursor import FocusCursor
from tui.games import has_ui, playable_games
from tui.heap import give_back, limit_arenas
from tui.kept_seat import SeatTakeBack
from tui.key_order import OrderedKeys
from tui.lean_strips import make_strips_lean
from tui.navigation import (
    GoToMenu,
    OpenHelp,
    OpenJoinForm,
    OpenLobby,
    OpenPlace,
    OpenReplay,
    OpenSession,
    OpenTableGame,
    PlayAgain,
    QuitCoven,
    ShowRules,
    StartGame,
    StartLesson,
)
from tui.player_settings import SETTINGS, read_settings, write_setting
from tui.render_memos import forget_render_memos
from tui.resize_paint import OnePaintResizeApp
from tui.safe_text import plain_lines
from tui.serve_status import dropped_notice, serve_status
from tui.served import refuses_files
from tui.settings_apply import apply_settings
from tui.style_cache import mend_style_cache
from tui.table_seating import TableSeating
from tui.themed import ANSI_COLOURS, theme_variable_defaults
from tui.themes import COVEN_THEMES, HIGH_CONTRAST
from tui.widgets.element_look import LOOK, set_element_look

if TYPE_CHECKING:
    from tui.context import CovenContext

MIN_WIDTH = 80
"""Narrowest terminal Coven lays out properly."""

MIN_HEIGHT = 24
"""Shortest terminal Coven lays out properly."""

GIVE_BACK_SECONDS = 1.0
"""After leaving a game, the wait before its freed memory is handed back (Textual removes its screen meanwhile)."""

AUTO_DELAY_ENV = "COVEN_AUTO_DELAY"
"""Environment variable overriding the pause (seconds) between automatic steps."""


def _default_auto_delay() -> float:
    """The pause between automatic steps: ``COVEN_AUTO_DELAY`` or 0.8 s."""
    try:
        return max(0.0, float(os.environ.get(AUTO_DELAY_ENV, "0.8")))
    except ValueError:
        return 0.8


class CovenApp(FocusCursor, OrderedKeys[None], OnePaintResizeApp[None]):
    """A terminal table for card games (a resize repaints it once: see :mod:`tui.resize_paint`).

    Every paint puts the terminal cursor on the focused item, for screen readers (:mod:`tui.focus_cursor`).
    """

    TITLE = "Coven"
    SUB_TITLE = "a terminal table for card games"
    # The menu is the bottom screen (get_default_screen), which Textual gives no stylesheet of its own.
    # themed.tcss: meanings coloured by theme variables (tui/themed.py), over the widgets' fixed hues.
    CSS_PATH = ["app.tcss", "screens/menu.tcss", "themed.tcss"]
    COMMANDS = App.COMMANDS | {CovenCommands}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        # Priority, so a modal dialog answers them too; "?" is let through to a field being typed in.
        Binding("question_mark", "help(True)", "Help", key_display="?", show=False, priority=True),
        Binding("f1", "help", "Help", show=False, priority=True),
        # Priority, so every screen and dialog answers it (no screen binds ctrl+f; an Input does not either).
        Binding("ctrl+f", "find_card", "Find card", key_display="ctrl+f", show=False, priority=True),
    ]

    def __init__(
        self,
        store: SessionStore | None = None,
        *,
        store_path: str | os.PathLike[str] | None = None,
        auto_delay: float | None = None,
        min_size: tuple[int, int] = (MIN_WIDTH, MIN_HEIGHT),
        player_name: str | None = None,
        join_code: str | None = None,
        serve_port: int | None = None,
        account: str | None = None,
        serve_host: str | None = None,
        signed_in: bool = False,
        serve_browser: bool = False,
    ) -> None:
        """Create the app.

        Args:
            store: An already open store (tests); otherwise one is opened.
            store_path: Database file to open instead of the default location.
            auto_delay: Seconds between automatic steps in auto play.
            min_size: Smallest (width, height) laid out normally.
            player_name: The name offered when joining a table (else the login name).
            join_code: A table to offer to join at once (``ssh CODE@host``).
            serve_port: The SSH port of ``coven serve``, for the lobby's join hint. Set when
                Coven runs for an SSH connection, which then may touch no files.
            account: The ``coven serve`` account of an SSH connection: it sees only its own
                sessions (and finished tables'). None at this machine, which sees all.
            serve_host: The address ``coven serve`` listens on, for the lobby's join hint.
            signed_in: True when ``coven serve`` proved the account (password or key), so that
                the account is this player's alone; without it anyone may use the name.
            serve_browser: True when ``serve_port`` and ``serve_host`` are ``coven web``'s (no SSH door).
        """
        limit_arenas()  # before any worker thread: a seat's heap then comes back after each game (tui.heap)
        css_cache.install()  # CSS parsed once per process (and, served, once in the warm parent)
        mend_style_cache()  # Textual's style cache would keep 1,024 gone widgets' lines (tui.style_cache)
        make_strips_lean()  # a drawn line makes its seven caches only when it uses them (tui.lean_strips)
        # Over SSH every repaint is carried to the player, so the first screen is painted once.
        super().__init__(hold_first_screen=serve_port is not None)
        self.store = store
        """The open session store, or None when it could not be opened."""
        self.tables = TableSeating(self, player_name, serve_port, serve_host, serve_browser=serve_browser)
        """The shared tables this process hosts or sits at."""
        self.join_code = join_code
        self.served = serve_port is not None
        self.account_is_private = not self.served or (signed_in and account is not None)
        if self.served and not self.account_is_private:
            # Nobody proved the name (--auth none): everyone typing `ssh KXMP@host` would share it. This visit
            # keeps its own settings, form memory and sessions, starting from the host's own settings.
            account = begin_visit(seeded=[item.stored_key for item in SETTINGS])
        self.account = account if self.served else None
        """The served account whose sessions are visible, or None at this machine (all are)."""
        # Only an account coven serve proved is rated: a visit or a local player could be anyone.
        self.tables.rated_account = account if self.served and self.account_is_private else None
        self.store_problem: str | None = None
        """Why the store could not be opened, if it could not."""
        self.auto_delay = _default_auto_delay() if auto_delay is None else auto_delay
        """Seconds between automatic steps."""
        self.base_auto_delay = self.auto_delay
        """The pause between automatic steps when reduced motion is off."""
        self.colourless = False
        self._contrast_floor = ContrastFloor()
        """Draw without colour (the "No colour" setting; NO_COLOR in the environment does the same)."""
        self.textual_ansi_colours = self.ansi_theme_dark
        """Textual's mapping of named colours, for its own themes (Coven's map them their way: tui.themed)."""
        for theme in COVEN_THEMES:
            self.register_theme(theme)
        self.kept_theme: str | None = None
        """The theme the player's settings hold; one chosen elsewhere (the command palette) is kept too."""
        self._give_back_alarm: Alarm | None = None
        """The wait before a left game's memory goes back (:meth:`_give_back_soon`)."""
        self.min_size = min_size
        if self.store is None:
            try:
                # Served, the server read every page once as it started (tui.server.store_ready): a player's
                # Coven checks the rest, in the same time however large the file has grown.
                self.store = SessionStore(store_path, every_page=serve_port is None)
            except NewerSchemaError as error:
                self.store_problem = str(error)
            except StoreError as error:
                self.store_problem = f"Coven cannot open its session database. {error}"
            except OSError as error:
                self.store_problem = f"Coven cannot open its session database: {error}"

    @classmethod
    def parse_css_ahead(cls) -> int:
        """Parse Coven's CSS for the theme a new app starts with into the process's cache (:mod:`tui.css_cache`).

        No app runs and no store is opened: only Textual's part of an app is
        built, for its CSS paths and its theme's variables. ``coven serve``'s
        warm parent calls this before it forks. Returns the sources parsed.
        """
        app = cls.__new__(cls)
        super(CovenApp, app).__init__()  # OrderedKeys, OnePaintResizeApp, App: none opens or starts anything
        for theme in COVEN_THEMES:
            app.register_theme(theme)
        return css_cache.warm(app)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Show a toast. Its text is never read as markup: messages carry names and errors from outside."""
        super().notify(plain_lines(message), title=plain_lines(title), severity=severity, timeout=timeout,
                       markup=False)

    # -- what a served connection may not do ------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's system commands; over SSH without the screenshot, which writes a server file."""
        for command in super().get_system_commands(screen):
            if not (self.served and command.title == "Screenshot"):
                yield command

    def action_help(self, typed: bool = False) -> None:
        """Open the help for the screen in front: what it is for and every key (see :mod:`tui.screens.help`).

        ``typed`` is the "?" key, which a focused text field takes as a character instead.
        """
        from textual.actions import SkipAction
        from textual.widgets import Input, TextArea

        from tui.screens.help import open_help

        if typed and isinstance(self.focused, (Input, TextArea)):
            raise SkipAction()
        open_help(self.screen)

    def action_find_card(self) -> None:
        """Look up any card by name (:mod:`tui.screens.find_card`); in a game, with its current values.

        The screen in front answers where a card stands (``card_in_play``); a curtain or a menu has none, so the
        lookup then shows printed text only.
        """
        from tui.screens.find_card import CardNow, FindCardScreen

        if isinstance(self.screen, FindCardScreen):  # already open: back to its name field
            self.screen.query_one("#find-query").focus()
            return
        now: CardNow | None = getattr(self.screen, "card_in_play", None)
        self.push_screen(FindCardScreen(now if callable(now) else None))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Save a screenshot, except over SSH (it would land on the server)."""
        if not refuses_files(self):
            super().action_screenshot(filename, path)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Deliver a screenshot, except over SSH (it would land on the server) or into a pipe or device."""
        if refuses_files(self):
            return None
        from platformdirs import user_downloads_path  # where Textual saves when no folder is given
        from textual._files import generate_datetime_filename

        filename = filename or generate_datetime_filename(self.title, ".svg", time_format)
        target = Path(path or user_downloads_path()).expanduser() / filename
        # Textual writes in a thread that a FIFO would block forever (and with it, Coven's exit).
        if target.exists() and not target.is_file():
            self.notify(f"{target} is not a regular file; the screenshot was not saved.", title="Screenshot",
                        severity="error", timeout=10)
            return None
        return super().deliver_screenshot(filename, path, time_format)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Textual's defaults and the variables Coven's styles use (element hues, the winner's gold)."""
        return {**super().get_theme_variable_defaults(), **theme_variable_defaults()}

    def send_to_terminal(self, text: str) -> None:
        """Write ``text`` straight to the terminal (a bell or a desktop-notice escape); nothing without one."""
        driver = self._driver  # Textual's own bell() writes the same way
        if driver is not None:
            driver.write(text)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, no colour at all while the "No colour" setting is on, and the high-contrast
        theme's 7:1 floor for every drawn text (last: it holds whatever the others leave)."""
        filters = list(super().get_line_filters())
        if self.colourless and not any(isinstance(item, (Monochrome, NoColor)) for item in filters):
            filters.append(Monochrome())
        if self.theme == HIGH_CONTRAST.name:
            filters.append(self._contrast_floor)
        return filters

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver; on Unix, one that also quits when the terminal goes away (:mod:`tui.driver`)."""
        driver_class = super().get_driver_class()
        if driver_class.__module__ == "textual.drivers.linux_driver" and driver_class.__name__ == "LinuxDriver":
            from tui.driver import CovenDriver

            return CovenDriver
        return driver_class

    # -- startup and size -------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        """The main menu (or why the store cannot be used) is the bottom screen.

        Textual would otherwise put a blank screen beneath it, to be composed,
        laid out and painted at start and again at every resize.
        """
        from tui.screens.menu import MainMenu, StoreProblemScreen

        if self.store_problem is not None:
            return StoreProblemScreen(self.store_problem)
        return MainMenu()

    def on_mount(self) -> None:
        """Apply the player's settings, show any store notice, offer a table's seats when asked, check the size."""
        settings = read_settings(self.store, self.account)
        apply_settings(self, settings)
        self.theme_changed_signal.subscribe(self, self._follow_theme)
        self._follow_theme(self.current_theme)
        if settings.notice():
            self.notify(str(settings.notice()), title="Settings", severity="warning", timeout=10)
        folder = self.store.folder_notice if self.store is not None else None
        if folder is not None and not folder.exposed:
            # News, not a fault: the folder was open and is private now. Said once, here; the next start finds
            # it private. (Exposed data is a warning, in store.notice.)
            self.notify(folder.text, title="Data folder", timeout=10)
        if self.store is not None and self.store.notice:
            self.notify(self.store.notice, title="Session database", severity="warning", timeout=20)
        if self.join_code and self.store is not None:
            self.tables.offer_join(self.join_code)
            # The join form opens when its message is handled: check the size after that, so a too-small
            # notice still goes on top of it.
            self.call_later(self.check_size)
        else:
            self.check_size()
        if self.served:
            serve_status().tell("ready")  # the first screen is up: coven serve counts this terminal as arrived
            # The browser door hands a refreshed page's kept seat back on the same pipe.
            take_back = SeatTakeBack(self.tables, lambda text: self.notify(text, title="Your seat",
                                                                           severity="warning", timeout=15),
                                     partial(set_alarm, self))
            serve_status().listen(self._input_dropped, take_back.heard)

    def _input_dropped(self, characters: int) -> None:
        """``coven serve`` dropped part of a paste too long to pass; it says so once per flood, at a steady pace."""
        self.notify(dropped_notice(characters), title="Paste", severity="warning", timeout=10)

    def _follow_theme(self, theme: Theme) -> None:
        """Element hues and named colours follow a theme chosen anywhere (the palette's "Change theme" too)."""
        set_element_look(LOOK.letters, theme.variables)
        self.ansi_theme_dark = ANSI_COLOURS.get(theme.name, self.textual_ansi_colours)
        for screen in self.screen_stack:
            screen.refresh()
        if theme.name != self.kept_theme and self.store is not None:
            # Chosen from the palette: the player's setting, as if chosen on the Settings screen.
            self.kept_theme = theme.name
            try:
                write_setting(self.store, self.account, "theme", theme.name)
            except (StoreError, ValueError):  # a theme Coven does not offer, or no database: for this run only
                pass

    def on_unmount(self) -> None:
        """Give up this process's seats, then close the store when the app ends."""
        self.tables.close()
        if self.store is not None:
            self.store.close()

    def on_resize(self, event: events.Resize) -> None:
        """Show or hide the too-small notice as the terminal changes size."""
        self.check_size(event.size.width, event.size.height)

    def is_too_small(self, width: int, height: int) -> bool:
        """True when ``width`` x ``height`` is below :attr:`min_size`."""
        return width < self.min_size[0] or height < self.min_size[1]

    def check_size(self, width: int | None = None, height: int | None = None) -> None:
        """Push the too-small notice when needed and remove it when not."""
        from tui.screens.too_small import TooSmallScreen

        if not self.screen_stack:
            return
        width = self.size.width if width is None else width
        height = self.size.height if height is None else height
        top = self.screen
        if self.is_too_small(width, height):
            if isinstance(top, TooSmallScreen):
                top.update_size(width, height)
            else:
                self.push_screen(TooSmallScreen(width, height, *self.min_size))
        elif isinstance(top, TooSmallScreen):
            self.pop_screen()

    # -- navigation messages (what screens post) -----------------------------

    @on(GoToMenu)
    def _go_to_menu_asked(self) -> None:
        self.go_to_menu()

    @on(OpenPlace)
    def _place_asked(self, message: OpenPlace) -> None:
        opens: dict[str, Callable[[], None]] = {
            "new_game": self.action_new_game,
            "continue": self.action_continue,
            "sessions": self.action_sessions,
            "decks": self.action_decks,
            "host_table": self.action_host_table,
            "join_table": self.action_join_table,
            "open_tables": self.action_open_tables,
            "pillar_lab": self.action_pillar_lab,
            "settings": self.action_settings,
            "ratings": self.action_ratings,
            "your_tables": self.action_your_tables,
            "learn": self.action_learn,
        }
        # Each opens just above the menu, closing what is open now: a screen with unsaved work asks first.
        self.leave_then(opens[message.place])

    @on(ShowRules)
    def _rules_asked(self, message: ShowRules) -> None:
        self.action_rules(message.game_id)

    @on(OpenHelp)
    def _help_asked(self) -> None:
        from tui.screens.help import open_help

        open_help(self.screen)

    @on(OpenSession)
    def _session_asked(self, message: OpenSession) -> None:
        self.open_session(message.session_id)

    @on(OpenReplay)
    def _replay_asked(self, message: OpenReplay) -> None:
        self.open_replay(message.session_id)

    @on(StartGame)
    def _game_asked(self, message: StartGame) -> None:
        self.start_game(message.live)

    @on(PlayAgain)
    def _rematch_asked(self, message: PlayAgain) -> None:
        self.play_again(message.live)

    @on(StartLesson)
    def _lesson_asked(self, message: StartLesson) -> None:
        from tui.screens.lesson import LessonScreen

        self.push_screen(LessonScreen(message.lesson, message.live, message.step, done_before=message.done_before,
                                      auto_delay=self.auto_delay))

    @on(OpenJoinForm)
    def _join_form_asked(self, message: OpenJoinForm) -> None:
        from tui.screens.join_table import JoinTableScreen

        self.push_screen(JoinTableScreen(message.code))

    @on(OpenLobby)
    def _lobby_asked(self, message: OpenLobby) -> None:
        from tui.screens.lobby import LobbyScreen

        self.go_to_menu()
        self.push_screen(LobbyScreen(message.link, self.tables.serve_port, self.tables.serve_host,
                                     browser=self.tables.serve_browser))

    @on(OpenTableGame)
    def _table_game_asked(self, message: OpenTableGame) -> None:
        from tui.screens.table_game import TableGameScreen

        shown = self.screen
        if isinstance(shown, TableGameScreen) and shown.live.session_id == message.live.session_id:
            return  # already open (a second poll saw the same start)
        self.go_to_menu()
        self.push_screen(TableGameScreen(message.live, message.link, auto_delay=self.auto_delay))

    # -- leaving and opening places -------------------------------------------

    def leave_then(self, then: Callable[[], object], doing: str = "Leave") -> None:
        """Run ``then``, which leaves the screens open now, once none of them holds unsaved work.

        A screen with unsaved work (the deck editor) has ``confirm_leave(then, doing)``,
        which runs ``then`` only if the player agrees; the nearest such screen is asked.
        """
        for screen in reversed(self.screen_stack):
            confirm = getattr(screen, "confirm_leave", None)
            if callable(confirm):
                confirm(then, doing)
                return
        then()

    async def _replace_screen(self, screen: Screen[Any]) -> Screen[Any]:
        """Textual's hand-over from a screen leaving the top; a removed one then drops its waiting callbacks.

        A widget's after-refresh callback waits in the screen on top when it was asked for (the game log
        scrolling to its end under a round's summary) until that screen refreshes again. A summary closed
        first never does, and Textual keeps the last message each widget handled, so one stale reference to
        the summary kept its callbacks, and through them the whole finished game's screen, alive at the menu.
        """
        replaced = await super()._replace_screen(screen)
        if not self.is_screen_installed(replaced) and all(replaced not in stack
                                                          for stack in self._screen_stacks.values()):
            replaced._callbacks.clear()  # it will never refresh again: these would never run
            if getattr(replaced, "live", None) is not None:
                self._give_back_soon()
        return replaced

    def _give_back_soon(self) -> None:
        """Give a left game's memory back :data:`GIVE_BACK_SECONDS` after its last screen was removed.

        Called once Textual has removed a game's screen (a game, its result, a replay), so the wait does not
        depend on how long the removal took; screens removed together share one give-back.
        """
        pending = self._give_back_alarm
        if pending is not None and pending.pending:
            pending.reset()
        else:
            self._give_back_alarm = set_alarm(self, GIVE_BACK_SECONDS, self._give_back_the_game)

    def go_to_menu(self) -> None:
        """Pop screens until the main menu is on top (a game's screens give their memory back once removed)."""
        from tui.screens.menu import MainMenu

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MainMenu):
            self.pop_screen()

    def _give_back_the_game(self) -> None:
        """Drop the games' caches (the Wizards Cup solver's teams) and the drawing memos, free the finished
        game, hand memory back.

        The game's widgets hold each other (parent and children), so only the collector frees them, and a
        full collection may come long after, in the next game: collected here, their blocks are reused by
        what comes next instead of new memory, and the C heap they held is free for :func:`give_back`.
        The drawing memos (Rich's, Textual's, Coven's) would keep a few blocks alive among them (:mod:`tui.render_memos`).
        """
        forget_games()
        forget_render_memos()
        gc.collect()
        give_back()

    def _require_store(self) -> SessionStore | None:
        """The open store, or None after telling the user why there is none."""
        if self.store is None:
            self.notify(self.store_problem or "No session database.", severity="error")
        return self.store

    def _open_over_menu(self, screen_type: Callable[[], Screen[None]]) -> None:
        """Show a new ``screen_type`` just above the main menu, if the session store is open."""
        if self._require_store() is None:
            return
        self.go_to_menu()
        self.push_screen(screen_type())

    def action_settings(self) -> None:
        """Open the Settings screen."""
        from tui.screens.settings_screen import SettingsScreen

        self.go_to_menu()
        self.push_screen(SettingsScreen())

    def action_new_game(self) -> None:
        """Open the new-game form."""
        from tui.screens.new_game import NewGameScreen

        self._open_over_menu(NewGameScreen)

    def action_continue(self) -> None:
        """Resume the most recently played unfinished session."""
        store = self._require_store()
        if store is None:
            return
        try:
            session_id = store.latest_unfinished(self.account)
        except StoreError as error:
            self.notify(str(error), severity="error")
            return
        if session_id is None:
            self.notify("There is no unfinished game to continue. Start a new one with n.")
            return
        self.open_session(session_id)

    def action_sessions(self) -> None:
        """Open the saved-sessions list."""
        from tui.screens.sessions import SessionsScreen

        self._open_over_menu(SessionsScreen)

    def action_decks(self) -> None:
        """Open the Wizbits deck editor."""
        from tui.games.wizbits.decks.editor import DeckEditorScreen

        self._open_over_menu(DeckEditorScreen)

    def action_host_table(self) -> None:
        """Open the host-a-table form."""
        from tui.screens.host_table import HostTableScreen

        self._open_over_menu(HostTableScreen)

    def action_join_table(self) -> None:
        """Open the join-a-table form."""
        from tui.screens.join_table import JoinTableScreen

        self._open_over_menu(JoinTableScreen)

    def action_open_tables(self) -> None:
        """Open the list of tables hosts listed for anyone to join."""
        from tui.screens.open_tables import OpenTablesScreen

        self._open_over_menu(OpenTablesScreen)

    def action_your_tables(self) -> None:
        """Open the signed-in player's turn-based tables, those awaiting their move first."""
        from tui.screens.awaiting_tables import AwaitingTablesScreen

        self._open_over_menu(AwaitingTablesScreen)

    def action_ratings(self) -> None:
        """Open the Ratings screen: the players rated at shared tables, game by game."""
        from tui.screens.ratings import RatingsScreen

        self._open_over_menu(RatingsScreen)

    def action_pillar_lab(self) -> None:
        """Open the Pillar Lab (it needs no session database)."""
        from tui.games.wizbits.lab.screen import PillarLabScreen

        self.go_to_menu()
        self.push_screen(PillarLabScreen(auto_pause=max(self.auto_delay, 0.05), store=self.store))

    def action_learn(self) -> None:
        """Open Learn: the lessons, each a guided first game (progress is kept in the session database)."""
        from tui.screens.learn import LearnScreen

        self._open_over_menu(LearnScreen)

    def action_rules(self, game_id: str = "") -> None:
        """Show the rules of ``game_id``, or let the user pick a game."""
        from tui.screens.rules import GamePicker, RulesScreen

        games = playable_games()
        if not game_id and len(games) == 1:
            game_id = games[0].game_id
        if game_id:
            self.push_screen(RulesScreen(game_id))
            return

        def chosen(picked: str | None) -> None:
            """Open the rules of the picked game."""
            if picked:
                self.push_screen(RulesScreen(picked))

        self.push_screen(GamePicker("Which game's rules?"), chosen)

    def _load_session(self, session_id: int, failure_title: str) -> LiveSession | None:
        """Load a session, or tell the user why it can't be and return None."""
        store = self._require_store()
        if store is None:
            return None
        try:
            if not store.visible_to(session_id, self.account):  # another account's game, over SSH
                raise SessionNotFoundError(session_id)
            live = LiveSession.load(store, session_id)
        except StoreError as error:
            self.notify(str(error), title=failure_title, severity="error")
            return None
        if not has_ui(live.spec.game_id):
            self.notify(f"{live.spec.title} can't be shown in this version of Coven yet.",
                        title=failure_title, severity="error")
            return None
        return live

    def refuse_live_table(self, session_id: int, doing: str) -> bool:
        """True (after saying why) when ``session_id`` is a live table's game, which only its table shows.

        Replaying, exporting or deleting it would show every seat's secrets, or pull
        the game from under its players.
        """
        table_code = self.tables.live_table_of(session_id)
        if table_code is None:
            return False
        join = " Join it from the menu's Join a table." if doing == "resume" else " Wait until it has ended."
        self.notify(f"Session {session_id} is being played at table {table_code}; it cannot {doing} now.{join}",
                    title="A shared table", timeout=10)
        return True

    def open_session(self, session_id: int) -> None:
        """Load a saved session and show its game screen (a shared table's is joined instead)."""
        if self.refuse_live_table(session_id, "resume"):
            return
        live = self._load_session(session_id, "Cannot resume")
        if live is not None:
            self.start_game(live)

    def start_game(self, live: LiveSession) -> None:
        """Show the game screen for ``live`` above the main menu."""
        from tui.screens.game.screen import GameScreen

        self.go_to_menu()
        self.push_screen(GameScreen(live, auto_delay=self.auto_delay))

    def play_again(self, live: LiveSession) -> None:
        """Store the rematch of ``live``'s finished game (see :mod:`saves.rematch`) and play it in its place."""
        from saves.rematch import start_rematch

        try:
            again = start_rematch(live, owner=self.account)
        except (StoreError, ValueError) as error:
            self.notify(str(error), title="Cannot play again", severity="error")
            return
        self.start_game(again)

    def open_replay(self, session_id: int) -> None:
        """Show the replay of a saved session."""
        from tui.screens.replay import ReplayScreen

        if self.refuse_live_table(session_id, "be replayed"):
            return
        live = self._load_session(session_id, "Cannot replay")
        if live is not None:
            self.push_screen(ReplayScreen(live))

    @staticmethod
    def game_title(game_id: str) -> str:
        """The display name of ``game_id``, or the id itself if unknown."""
        try:
            return get_game(game_id).title
        except ValueError:
            return game_id

    # -- quitting ----------------------------------------------------------

    @on(QuitCoven)
    def _quit_asked(self) -> None:
        self.request_quit()

    async def action_quit(self) -> None:
        """Quit Coven (ctrl+q), once a screen with unsaved work has asked."""
        self.request_quit()

    def request_quit(self) -> None:
        """Quit Coven, once a screen with unsaved work has asked (see :meth:`leave_then`)."""
        self.leave_then(self.exit, "Quit")


ahead_of_fork(CovenApp.parse_css_ahead)  # coven serve's warm parent parses the CSS once for every player


if TYPE_CHECKING:

    def _is_a_context(app: CovenApp) -> CovenContext:
        return app  # mypy checks here that the app gives screens all that CovenContext promises


NOT_A_TERMINAL = "coven: the card table reads keys from a terminal, and standard input is not one."
EXIT_NOT_A_TERMINAL = 2


def run(
    store_path: str | os.PathLike[str] | Path | None = None,
    *,
    player_name: str | None = None,
    join_code: str | None = None,
    serve_port: int | None = None,
    account: str | None = None,
    serve_host: str | None = None,
    signed_in: bool = False,
    serve_browser: bool = False,
) -> int:
    """Run Coven in the terminal until the user quits (see :class:`CovenApp` for the arguments).

    Returns:
        The exit status: 0, or 2 when standard input is not a terminal.
    """
    if not sys.stdin.isatty():
        # No key could ever come, and Textual would read end of file over and over.
        print(NOT_A_TERMINAL, file=sys.stderr)
        return EXIT_NOT_A_TERMINAL
    app = CovenApp(store_path=store_path, player_name=player_name, join_code=join_code, serve_port=serve_port,
                   account=account, serve_host=serve_host, signed_in=signed_in, serve_browser=serve_browser)
    app.run()
    return app.return_code or 0
