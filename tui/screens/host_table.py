"""Host a table: the new-game form, with seats for remote players, that opens a lobby."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Label, Select

from engine.core.clock import PRESETS, Fischer
from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference
from saves.table_records import PACE_DAYS
from saves.turn_pace import SIGNED_IN_ONLY
from tui.context import coven
from tui.player_settings import read_settings
from tui.screens.new_game import HUMAN, NewGameScreen, Problem

REMOTE = "remote"
"""Select value of a seat a friend fills from another terminal."""

HOST_KEY = "host-table"
"""The preference that keeps the host's last Spectators, Coach and Listing choices.

{"spectators": bool, "coach": bool, "listed": bool, "pace": int, "timeout_bot": str}; a preference from before
Listing existed has no "listed", one from before turn-based tables no "pace" nor "timeout_bot".
"""

PACE_CHOICES: list[tuple[str, int]] = [("Live: everyone plays at once", 0)] + [
    (f"Turn-based: {days} day{'s' if days != 1 else ''} per move", days) for days in (1, 3, 7)]
"""The Pace row's choices: 0 is a live table, else the days each seat has per move (signed-in players only)."""

HOST_CHOICES = ("spectators", "coach", "listed")

NO_CLOCK = "none"
"""Select value of a table without a clock (the default: a clock is the host's choice to add)."""

CLOCK_CHOICES = [("No clock", NO_CLOCK)] + [
    (f"{preset.label} ({preset.words})", preset.label) for preset in PRESETS
]
"""The host form's clock choices: none, then each Fischer preset by its usual name and in words."""


CLOCK_IS_LIVE_ONLY = "A clock is for a live table: a turn-based table gives each seat its days per move instead."
"""Said when a host asks for a clock and a turn-based pace together."""


def chosen_clock(value: object) -> Fischer | None:
    """The Fischer clock the form's value names (None: no clock, or anything the form does not offer)."""
    return next((preset for preset in PRESETS if preset.label == value), None)
"""The host's switches the form remembers, each off until chosen."""


def read_host_pace(store: SessionStore | None, account: str | None) -> tuple[int, str | None]:
    """The host's last Pace (0: live) and time-out bot; live, and no bot, unless a known pace is stored."""
    stored = get_preference(store, account, HOST_KEY) if store is not None else None
    stored = stored if isinstance(stored, dict) else {}
    pace, level = stored.get("pace"), stored.get("timeout_bot")
    if type(pace) is not int or pace not in PACE_DAYS:
        return 0, None
    return pace, level if isinstance(level, str) else None


def read_host_choices(store: SessionStore | None, account: str | None) -> dict[str, bool]:
    """The host's last Spectators, Coach and Listing choices; whatever is not a stored true or false reads as off."""
    stored = get_preference(store, account, HOST_KEY) if store is not None else None
    stored = stored if isinstance(stored, dict) else {}
    return {name: stored.get(name) is True for name in HOST_CHOICES}


class HostTableScreen(NewGameScreen):
    """Choose a game, options and seats (remote player, here, or bot), then open the table."""
    HELP = ("Like New game, but seats can wait for players who join from another terminal with the "
            "table's code. Listing puts the table on the Open tables screen for anyone to join; otherwise "
            "only people you give the code can. Signed in to a server, Rating (on unless you turn it off) lets "
            "a game between signed-in players there move their ratings. Pace: Live, or Turn-based with 1, 3 or 7 days "
            "per move for signed-in players, who come back to it from the menu's list of their tables (y); when a "
            "seat's time runs out, the bot chosen under Time runs out takes it until its player takes it back. Clock "
            "(live tables) adds a Fischer clock that runs only for the seats being asked; each player may ask for "
            "double time or none in their Settings. Opening the table shows its lobby; the game starts when every "
            "seat is filled.")

    SCREEN_TITLE = "Host a table"
    REMEMBERS = False  # the new-game form's memory is for games at this terminal
    START_LABEL = "Open the table"
    BINDINGS = [
        Binding("ctrl+s", "start", "Open table"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def compose_extra(self) -> ComposeResult:
        """Whether people without a seat may watch, whether the seated players may ask a game's coach, and
        whether the table is listed on the Open tables screen.

        Each starts as the host chose last time (when the form remembers, as New game's does).
        """
        last = read_host_choices(*self._store_and_account()) if self._remembering_host() else {}
        with Horizontal(classes="form-row"):
            yield Label("Spectators", classes="form-label")
            yield Select([("Not allowed", False), ("Allowed to watch", True)], value=last.get("spectators", False),
                         allow_blank=False, id="spectators", classes="option-select")
        with Horizontal(classes="form-row"):
            yield Label("Coach", classes="form-label")
            yield Select([("Not during play", False), ("Seated players may ask", True)], value=last.get("coach", False),
                         allow_blank=False, id="coach", classes="option-select")
        with Horizontal(classes="form-row"):
            yield Label("Listing", classes="form-label")
            yield Select([("By code only", False), ("Listed on Open tables", True)], value=last.get("listed", False),
                         allow_blank=False, id="listed", classes="option-select")
        signed_in = coven(self).tables.rated_account is not None
        # A remembered turn-based pace is offered only to a signed-in host: a visit could not host it.
        pace, level = read_host_pace(*self._store_and_account()) if self._remembering_host() and signed_in \
            else (0, None)
        with Horizontal(classes="form-row"):
            yield Label("Pace", classes="form-label")
            yield Select(PACE_CHOICES, value=pace, allow_blank=False, id="pace", classes="option-select")
        levels = self.spec.bot_levels
        with Horizontal(classes="form-row"):
            yield Label("Time runs out", classes="form-label")
            yield Select([(f"Bot – {level} takes the seat", level) for level in levels],
                         value=level if level in levels else "normal" if "normal" in levels else levels[0],
                         allow_blank=False, id="timeout-bot", classes="option-select")
        with Horizontal(classes="form-row"):
            yield Label("Clock", classes="form-label")
            yield Select(CLOCK_CHOICES, value=NO_CLOCK, allow_blank=False, id="clock", classes="option-select")
        if coven(self).tables.rated_account is not None:
            # Only a signed-in host is offered ratings, on by default: rated play is what accounts are for.
            with Horizontal(classes="form-row"):
                yield Label("Rating", classes="form-label")
                yield Select([("Rated", True), ("Not rated", False)], value=True,
                             allow_blank=False, id="rated", classes="option-select")

    def _remembering_host(self) -> bool:
        """Whether the "Remember New game" setting lets the form keep the host's choices."""
        return bool(read_settings(*self._store_and_account())["remember_names"])

    def _kind_options(self) -> list[tuple[str, str]]:
        """A remote player, a player at this terminal, then each bot level."""
        here = [("Remote player", REMOTE), ("This terminal", HUMAN)]
        return here + [(f"Bot – {level}", f"bot:{level}") for level in self.spec.bot_levels]

    def _default_kind(self, index: int) -> str:
        """The host sits in seat 1; every other seat waits for a friend."""
        return HUMAN if index == 0 else REMOTE

    def action_start(self) -> None:
        """Open the table and show its lobby, or show what is wrong."""
        from saves.tables import SeatPlan

        choices, problems = self.read_form()
        if choices is None:
            self._show_problems(problems)
            return
        rows = self._current_rows()
        if not any(kind == REMOTE for _, kind in rows):
            self._show_problems([Problem("seat-kind-1" if len(rows) > 1 else "seat-kind-0",
                                         "A table needs at least one remote player; "
                                         "for a game at this terminal only, use New game.")])
            return
        self._show_problems([])
        plan = []
        for seat, (_, kind) in zip(choices.seats, rows, strict=True):
            if kind == REMOTE:
                plan.append(SeatPlan("remote", seat.name))
            elif seat.is_bot:
                plan.append(SeatPlan("bot", seat.name, seat.bot_level))
            else:
                plan.append(SeatPlan("local", seat.name))
        seating = coven(self).tables
        tables = seating.store()
        if tables is None:
            return
        spectators = self.query_one("#spectators", Select).value is True
        coach = self.query_one("#coach", Select).value is True
        listed = self.query_one("#listed", Select).value is True
        clock = chosen_clock(self.query_one("#clock", Select).value)
        rated = seating.rated_account is not None and self.query_one("#rated", Select).value is True
        pace = self.query_one("#pace", Select).value
        pace_days = pace if isinstance(pace, int) else 0
        if pace_days and seating.rated_account is None:
            self._show_problems([Problem("pace", SIGNED_IN_ONLY)])  # said before anything is opened
            return
        if pace_days and clock is not None:  # a turn-based table's time is its days per move
            self._show_problems([Problem("clock", CLOCK_IS_LIVE_ONLY)])
            return
        level = self.query_one("#timeout-bot", Select).value
        timeout_bot = level if (pace_days or clock is not None) and isinstance(level, str) else None
        host_name = next((seat.name for seat, (_, kind) in zip(choices.seats, rows, strict=True) if kind == HUMAN),
                         seating.player_name)
        try:
            hosted = tables.host(choices.game_id, choices.options, choices.seed, plan,
                                 host_name=host_name, allow_spectators=spectators, allow_coach=coach,
                                 listed=listed, rated=rated, pace_days=pace_days, timeout_bot=timeout_bot,
                                 clock=clock)
        except (StoreError, ValueError) as error:
            self._show_problems([Problem("game-select", f"Could not open the table: {error}")])
            return
        store, account = self._store_and_account()
        if store is not None and self._remembering_host():
            try:
                set_preference(store, account, HOST_KEY, {"spectators": spectators, "coach": coach, "listed": listed,
                                                          "pace": pace_days, "timeout_bot": timeout_bot})
            except (StoreError, ValueError):
                pass  # remembering is a courtesy: the table is open, and the form's defaults still work
        seating.open_lobby(hosted.info.code, hosted.token)
