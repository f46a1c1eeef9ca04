"""Where the Coven app goes: the places it opens and the sessions it loads.

:class:`CovenPlaces` is the base of :class:`tui.app.CovenApp`. It turns the
:mod:`tui.navigation` messages that screens post into the moves between screens:
the forms and lists opened over the main menu, the rules, a saved session's
game or replay (refused while a shared table plays it). The app itself keeps
construction, start-up and quitting. Screens are imported inside the methods
that open them, so start-up loads none it does not show.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.screen import Screen

from engine import get_game
from saves import LiveSession, SessionNotFoundError, SessionStore, StoreError
from tui.games import has_ui, playable_games
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
    ShowRules,
    StartGame,
)
from tui.resize_paint import OnePaintResizeApp
from tui.table_seating import TableSeating


class CovenPlaces(OnePaintResizeApp[None]):
    """The app's moves between screens; :class:`tui.app.CovenApp` sets the state they read."""

    store: SessionStore | None
    """The open session store, or None when it could not be opened."""
    store_problem: str | None
    """Why the store could not be opened, if it could not."""
    account: str | None
    """The served account whose sessions are visible, or None at this machine (all are)."""
    tables: TableSeating
    """The shared tables this process hosts or sits at."""
    auto_delay: float
    """Seconds between automatic steps."""

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
            "pillar_lab": self.action_pillar_lab,
            "settings": self.action_settings,
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

    @on(OpenJoinForm)
    def _join_form_asked(self, message: OpenJoinForm) -> None:
        from tui.screens.join_table import JoinTableScreen

        self.push_screen(JoinTableScreen(message.code))

    @on(OpenLobby)
    def _lobby_asked(self, message: OpenLobby) -> None:
        from tui.screens.lobby import LobbyScreen

        self.go_to_menu()
        self.push_screen(LobbyScreen(message.link, self.tables.serve_port, self.tables.serve_host))

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

    def go_to_menu(self) -> None:
        """Pop screens until the main menu is on top."""
        from tui.screens.menu import MainMenu

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MainMenu):
            self.pop_screen()

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

    def action_pillar_lab(self) -> None:
        """Open the Pillar Lab (it needs no session database)."""
        from tui.games.wizbits.lab.screen import PillarLabScreen

        self.go_to_menu()
        self.push_screen(PillarLabScreen(auto_pause=max(self.auto_delay, 0.05), store=self.store))

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

