"""The new-game form: game, seats (name, human or bot level), seed and options.

The screen draws the form and starts the game; the defaults and the checks
are in :mod:`tui.screens.new_game_form`. Each option's choices come from the
game's :class:`~tui.games.base.GameUI`, so the form knows no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, Select, Static

from engine import GameSpec, get_game
from saves import LiveSession, SessionStore, StoreError
from saves.records import MAX_NAME_LENGTH
from tui.context import coven, coven_or_none
from tui.games import game_ui, playable_games
from tui.navigation import StartGame
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.screens import new_game_memory as memory
from tui.screens.new_game_form import HUMAN, NewGameChoices, Problem, default_kind, default_name, validate
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside

NAME_FIELD_LIMIT = 4 * MAX_NAME_LENGTH
"""What a name field takes: more than a name may hold, so a name too long is refused with a message when the
game starts, rather than cut silently (mid-word) as it is typed or pasted."""

__all__ = ["HUMAN", "NewGameChoices", "NewGameScreen", "Problem", "default_kind", "default_name", "validate"]
"""The form's own names are re-exported: the shared-table form and seating import them from here."""


class NewGameScreen(Screen[None]):
    """Set up a game and start it."""
    HELP = ("Choose a game, its options and who sits at each seat (you, another player at this keyboard, "
            "or a bot), then start it. Tab moves between fields.")

    SCREEN_TITLE = "New game"
    START_LABEL = "Start game"
    CSS_PATH = css_beside(__file__, "new_game.tcss")
    BINDINGS = [
        Binding("ctrl+s", "start", "Start game"),
        Binding("escape", "app.pop_screen", "Back"),
    ]
    REMEMBERS = True
    """Whether the form offers what this account chose last (and remembers what it starts)."""

    def __init__(self) -> None:
        """Start with the first registered game (or, once composed, the one this account played last)."""
        super().__init__()
        self.spec: GameSpec = get_game(playable_games()[0].game_id)
        self._seat_count = self.spec.seat_counts[0]
        self._default_names: dict[int, str] = {}
        """The name the form itself put in each seat; any other name was typed and is kept."""
        self._memory: dict[str, Any] = {}
        self._bot_level = "normal"
        """The bot level a new bot seat starts with (the "Default bot level" setting)."""
        self._remembering = self.REMEMBERS
        """Whether the form offers, and keeps, what was chosen last (the "Remember New game" setting)."""
        self._offered: dict[str, list[tuple[str, Any]]] = {}
        """Each option's choices as offered now (label, value): what a remembered choice is found among."""
        self._parked: dict[str, Any] = {}
        """The choice of each option disabled at this seat count, given back when the count allows it."""

    def _store_and_account(self) -> tuple[SessionStore | None, str | None]:
        context = coven_or_none(self)
        return (None, None) if context is None else (context.store, context.account)

    def compose(self) -> ComposeResult:
        """The form, built for the current game."""
        settings = read_settings(*self._store_and_account())
        self._bot_level = str(settings["bot_level"])
        self._remembering = self.REMEMBERS and bool(settings["remember_names"])
        if self._remembering:
            self._memory = memory.read_memory(*self._store_and_account())
            last = memory.last_game(self._memory, [spec.game_id for spec in playable_games()])
            if last is not None:
                self.spec = get_game(last)
                self._seat_count = self.spec.seat_counts[0]
            recalled = self._recall()
            if recalled is not None and recalled.seats is not None:
                self._seat_count = recalled.seats  # the Select starts there: no change of count to undo later
        yield Header()
        with VerticalScroll(id="new-game-form"):
            yield Static(self.SCREEN_TITLE, classes="screen-title")
            yield Static("", id="form-errors", classes="error")
            with Horizontal(classes="form-row"):
                yield Label("Game", classes="form-label")
                yield Select(
                    [(spec.title, spec.game_id) for spec in playable_games()],
                    value=self.spec.game_id, allow_blank=False, id="game-select",
                )
            yield Static(self.spec.summary, id="game-summary", classes="hint")
            with Horizontal(classes="form-row"):
                yield Label("Seats", classes="form-label")
                yield Select(
                    [(str(count), count) for count in self.spec.seat_counts],
                    value=self._seat_count, allow_blank=False, id="seat-count",
                )
            yield Vertical(id="seat-rows")
            with Horizontal(classes="form-row"):
                yield Label("Seed", classes="form-label")
                yield Input(placeholder="blank = random", id="seed", classes="seed-input")
            yield Vertical(id="option-rows")
            yield from self.compose_extra()
            with Horizontal(id="form-buttons"):
                yield Button(self.START_LABEL, variant="primary", id="start")
                yield Button("Back", id="back")
        yield FittingFooter()

    def compose_extra(self) -> ComposeResult:
        """Rows a variant of the form adds after the options (none here)."""
        yield from ()

    async def on_mount(self) -> None:
        """Fill in seats and options for the first game."""
        await self._rebuild_seats(self._recalled_rows())
        await self._rebuild_options()
        self.query_one("#form-errors", Static).display = False
        self.query_one("#seat-name-0", Input).focus()

    # -- building the dynamic parts -------------------------------------------

    def _kind_options(self) -> list[tuple[str, str]]:
        """Select options for a seat's kind: Human, then each bot level."""
        return [("Human", HUMAN)] + [(f"Bot – {level}", f"bot:{level}") for level in self.spec.bot_levels]

    def _default_kind(self, index: int) -> str:
        """The kind a new seat row starts with."""
        return default_kind(self.spec, index, self._bot_level)

    def _default_name(self, index: int, kind: str, taken: Sequence[str]) -> str:
        """The name a seat row starts with (see :func:`default_name`); seat 1's human is this player."""
        context = coven_or_none(self)
        if index == 0 and kind == HUMAN and context is not None:
            return context.tables.player_name  # the SSH user's name when served, else the login name
        return default_name(index, kind, taken)

    def _recall(self) -> memory.Recalled | None:
        """What this account chose last for the current game, checked; None when nothing was kept."""
        if not self._remembering:
            return None
        return memory.recall(self._memory, self.spec, {value for _, value in self._kind_options()})

    def _recalled_rows(self) -> list[tuple[str, str]]:
        """The seat rows remembered for the current game (the seat count too); [] when none were kept.

        A part that did not pass the checks is the form's default again.
        """
        recalled = self._recall()
        if recalled is None or recalled.seats is None:
            return []
        self._seat_count = recalled.seats
        counts = self.query("#seat-count")
        if counts:
            counts.first(Select).value = recalled.seats
        rows: list[tuple[str, str]] = []
        names: list[str] = []
        for index in range(recalled.seats):
            name, kind = recalled.rows[index] if index < len(recalled.rows) else (None, None)
            kind = kind or self._default_kind(index)
            default = self._default_name(index, kind, names)
            if name is None or name == default:
                name = self._default_names[index] = default
            rows.append((name, kind))
            names.append(name)
        return rows

    def _current_rows(self) -> list[tuple[str, str]]:
        """(name, kind) of each seat row as currently filled in."""
        rows = []
        for row in self.query(".seat-row"):
            name = row.query_one(Input).value
            value = row.query_one(Select).value
            rows.append((name, value if isinstance(value, str) else HUMAN))
        return rows

    async def _rebuild_seats(self, keep: list[tuple[str, str]]) -> None:
        """Recreate one row per seat, keeping what was typed where possible."""
        container = self.query_one("#seat-rows", Vertical)
        await container.remove_children()
        kinds = {value for _, value in self._kind_options()}
        rows = []
        names = [name for name, _ in keep[: self._seat_count]]
        self._default_names = {index: name for index, name in self._default_names.items() if index < len(names)}
        for index in range(self._seat_count):
            if index < len(keep):
                name, kind = keep[index]
            else:
                kind = self._default_kind(index)
                name = self._default_names[index] = self._default_name(index, kind, names)
                names.append(name)
            if kind not in kinds:
                kind = self._default_kind(index)
            rows.append(
                Horizontal(
                    Label(f"Seat {index + 1}", classes="form-label"),
                    Input(name, placeholder="name", id=f"seat-name-{index}", classes="seat-name",
                          max_length=NAME_FIELD_LIMIT),
                    Select(self._kind_options(), value=kind, allow_blank=False, id=f"seat-kind-{index}",
                           classes="seat-kind"),
                    classes="form-row seat-row",
                )
            )
        await container.mount_all(rows)

    async def _rebuild_options(self) -> None:
        """Recreate one Select per game option, with its help line."""
        container = self.query_one("#option-rows", Vertical)
        await container.remove_children()
        widgets: list[Widget] = []
        context = coven_or_none(self)
        store = None if context is None else context.store
        ui = game_ui(self.spec.game_id)
        recalled = self._recall()
        for option in self.spec.options:
            # A game may offer more than an option's own choices (its saved decks, say), by the game's UI.
            choices = ui.option_choices(option, store)
            self._offered[option.name] = choices
            value = memory.pick(recalled.options.get(option.name) if recalled else None, choices)
            widgets.append(
                Horizontal(
                    Label(option.label, classes="form-label"),
                    Select(choices, value=option.default if value is memory.MISSING else value,
                           allow_blank=False, id=f"option-{option.name}", classes="option-select"),
                    classes="form-row",
                )
            )
            if option.help or option.seats:
                widgets.append(Static(option.help, classes="hint option-help", id=f"option-help-{option.name}"))
        await container.mount_all(widgets)
        self._fit_options_to_seats()

    def _fit_options_to_seats(self) -> None:
        """Disable each option that changes nothing at this seat count, its help line saying why.

        Its choice is put aside and comes back when the count allows it again;
        meanwhile the game starts with the option's default.
        """
        for option in self.spec.options:
            selects = self.query(f"#option-{option.name}").results(Select)
            select = next(selects, None)
            if select is None:
                continue
            why = option.not_here(self._seat_count)
            if why is not None and not select.disabled:
                self._parked[option.name] = select.value
                select.value = option.default
                select.disabled = True
            elif why is None and select.disabled:
                select.disabled = False
                if option.name in self._parked:
                    select.value = self._parked.pop(option.name)
            hints = self.query(f"#option-help-{option.name}").results(Static)
            hint = next(hints, None)
            if hint is not None:
                hint.update(" ".join(part for part in (option.help, why) if part))

    # -- events -----------------------------------------------------------------

    @on(Select.Changed, "#game-select")
    async def _game_changed(self, event: Select.Changed) -> None:
        """Rebuild seats and options for the newly chosen game."""
        if not isinstance(event.value, str) or event.value == self.spec.game_id:
            return
        self.spec = get_game(event.value)
        self.query_one("#game-summary", Static).update(self.spec.summary)
        counts = self.query_one("#seat-count", Select)
        counts.set_options([(str(count), count) for count in self.spec.seat_counts])
        self._seat_count = self.spec.seat_counts[0]
        counts.value = self._seat_count
        # This game's own remembered seats when there are some, else the names typed so far carry over.
        await self._rebuild_seats(self._recalled_rows() or self._current_rows())
        await self._rebuild_options()

    @on(Select.Changed, "#seat-count")
    async def _count_changed(self, event: Select.Changed) -> None:
        """Add or remove seat rows."""
        if not isinstance(event.value, int) or event.value == self._seat_count or event.value != event.select.value:
            return  # no change, or a stale one (the form set another count since)
        self._seat_count = event.value
        await self._rebuild_seats(self._current_rows())
        self._fit_options_to_seats()

    @on(Select.Changed, ".seat-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        """A new kind of player: a name the form filled in follows (bot names for bots); a typed one stays."""
        if not isinstance(event.value, str) or event.select.id is None:
            return
        index = int(event.select.id.rpartition("-")[2])
        found = self.query(f"#seat-name-{index}").filter("Input")
        if not event.select.is_attached or not found:
            return  # the row went while this news was on its way (the seat count changed meanwhile)
        name_input = found.first(Input)
        current = name_input.value.strip()
        if current and current != self._default_names.get(index):
            return
        others = [name for number, (name, _) in enumerate(self._current_rows()) if number != index]
        name_input.value = self._default_names[index] = self._default_name(index, event.value, others)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter in a field moves on to the next one; only ctrl+s or the Start button starts the game.

        Enter used to start at once, and a name confirmed with Enter left a stray session behind.
        """
        event.stop()
        self.focus_next()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        """The Start button starts the game."""
        self.action_start()

    @on(Button.Pressed, "#back")
    def _back_pressed(self) -> None:
        """The Back button returns to the menu."""
        self.app.pop_screen()

    # -- starting ------------------------------------------------------------------

    def read_form(self) -> tuple[NewGameChoices | None, list[Problem]]:
        """Validate what is on screen."""
        options: dict[str, Any] = {}
        for option in self.spec.options:
            select = self.query_one(f"#option-{option.name}", Select)
            value = select.value
            # A disabled option changes nothing at this seat count: the game keeps its default.
            options[option.name] = option.default if value is Select.NULL or select.disabled else value
        seed_text = self.query_one("#seed", Input).value
        return validate(self.spec, self._current_rows(), seed_text, options)

    def action_start(self) -> None:
        """Create the session and open its game screen, or show what is wrong."""
        choices, problems = self.read_form()
        if choices is None:
            self._show_problems(problems)
            return
        self._show_problems([])
        context = coven(self)
        if context.store is None:
            self.notify("No session database is open.", severity="error")
            return
        try:
            live = LiveSession.create(context.store, choices.game_id, choices.options, choices.seed, choices.seats,
                                      owner=context.account)
        except (StoreError, ValueError) as error:
            self._show_problems([Problem("game-select", f"Could not start the game: {error}")])
            return
        self._remember(choices)
        self.app.post_message(StartGame(live))

    def _remember(self, choices: NewGameChoices) -> None:
        """Keep what was just started, so the form offers it next time (for this account when served)."""
        if not self._remembering:
            return
        rows = [(seat.name, f"bot:{seat.bot_level}" if seat.is_bot else HUMAN) for seat in choices.seats]
        options: dict[str, dict[str, Any]] = {}
        for option in self.spec.options:
            marker = memory.marker_for(choices.options.get(option.name), option.choices,
                                       self._offered.get(option.name, []))
            if marker is not None:
                options[option.name] = marker
        memory.remember(*self._store_and_account(), self._memory, choices.game_id, rows, options)

    def _show_problems(self, problems: list[Problem]) -> None:
        """List ``problems`` at the top of the form and in a notification, then focus the first bad field.

        The form is taller than 24 rows, so the list alone could be out of
        sight; the notification always shows, and focusing the field scrolls to it.
        """
        errors = self.query_one("#form-errors", Static)
        errors.update(plain("\n".join(problem.message for problem in problems)))  # they quote names: never markup
        errors.display = bool(problems)
        if not problems:
            return
        self.notify("\n".join(problem.message for problem in problems), title="Can't start yet",
                    severity="error", timeout=8)
        fields = self.query(f"#{problems[0].field}")
        if fields:
            fields.first().focus()
