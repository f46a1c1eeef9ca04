"""What the game screen decides: who acts next, and what an action changes.

After every change :meth:`GameLoop.advance` looks at the session and picks
one thing to do: show the result, let a bot think (in a worker thread), ask
a human (behind a pass-and-play curtain when another human shares the
keyboard), or wait for the table's automatic step. Applying an action and
putting up a round's result live here too. How it all looks (layout, status
line, log, keys) is :class:`~tui.screens.game.screen.GameScreen`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, ClassVar, Protocol

from textual import on
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from engine import ActionError, Event
from engine.core import seeded_rng
from engine.core.bot_budget import with_think_time
from saves import LiveSession, StoreError
from saves.series import series_score
from tui.context import coven_or_none
from tui.games import game_ui
from tui.games.base import GameTable, GameUI, noted
from tui.player_settings import read_settings, think_time
from tui.screens.curtain import CurtainScreen
from tui.turn_notice import TurnNotices, notice_escape, wanted
from tui.widgets.game_over import GameOverScreen


class HeldMove(Protocol):
    """What the loop asks of the screen's :class:`~tui.screens.game.save_retry.SaveRetry` (a protocol, so neither imports the other)."""

    @property
    def failing(self) -> bool:
        """True while a move whose save failed is held: nothing else may happen."""

    def failed(self, seat: int | None, action: Any, error: StoreError) -> bool:
        """Hold ``action`` if its save may work later, else say why it was refused; True when held."""


class GameLoop(Screen[None]):
    """The decisions of a game screen: bots, humans, curtains, automatic steps and applying actions."""

    AT_A_TABLE: ClassVar[bool] = False
    """True for a shared table's screen, where a player may be told that it has become their turn."""

    auto_play: reactive[bool] = reactive(False)
    """When True the table's automatic steps play by themselves, one per ``auto_delay``."""

    status_text: reactive[str] = reactive("")
    """What the screen is waiting for, shown above the table."""

    saving: HeldMove
    """Holds a move whose save failed; while it waits, nothing else happens (set by the screen)."""

    def __init__(self, live: LiveSession, auto_delay: float = 0.8) -> None:
        """Play ``live``; ``auto_delay`` is the pause between automatic steps."""
        super().__init__()
        self.live = live
        # Textual timers divide by their delay, so a zero delay becomes "as soon as possible".
        self.auto_delay = max(auto_delay, 0.001)
        self.ui: GameUI[Any] = game_ui(live.spec.game_id)
        self.table: GameTable[Any] = self.ui.make_table()
        self.table.checker = self.check_choice
        self.revealed_seat: int | None = None
        """The seat whose secrets the table may currently show (after its curtain)."""
        self._curtain_up = False
        self._bot_log_length: int | None = None
        self._result_shown = False
        self._round_events: list[Event] = []
        self._last_events: list[Event] = []
        self._auto_timer: Timer | None = None
        self._pending_modal: Screen[None] | None = None
        self._bot_failed = False
        self._turn_notices = TurnNotices()

    # -- drawing, done by the screen ----------------------------------------------

    def _show(self, view_seat: int | None, deciding: int | None, legal: Sequence[Any]) -> None:
        """Draw the table from ``view_seat``'s view, ``deciding`` choosing among ``legal``."""
        raise NotImplementedError

    def update_status(self) -> None:
        """Redraw the status line."""
        raise NotImplementedError

    def write_log(self, lines: Sequence[str]) -> None:
        """Add ``lines`` to the game log."""
        raise NotImplementedError

    # -- who is who -----------------------------------------------------------

    @property
    def human_seats(self) -> list[int]:
        """Seats played by people at this terminal."""
        return [index for index, seat in enumerate(self.live.seats) if not seat.is_bot]

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""
        return seat in self.human_seats

    @property
    def drives_table(self) -> bool:
        """True when this screen plays the bots and the table's automatic steps."""
        return True

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides: the only human, else a spectator."""
        humans = self.human_seats
        return humans[0] if len(humans) == 1 else None

    def _keeps_secrets_from_others_here(self, seat: int) -> bool:
        """True when another human shares this terminal and ``seat`` has something to hide from them."""
        return len(self.human_seats) > 1 and bool(self.live.rules.seat_has_secrets(self.live.state, seat))

    def _needs_curtain(self, seat: int) -> bool:
        """True when ``seat`` decides in secret and another human shares the terminal."""
        if len(self.human_seats) < 2 or self.revealed_seat == seat:
            return False
        return bool(self.live.rules.seat_has_secrets(self.live.state, seat))

    # -- the loop -------------------------------------------------------------

    def advance(self) -> None:
        """Decide what happens next after any change."""
        if not self.is_current or self._curtain_up or self._bot_log_length is not None or self.saving.failing:
            return
        if self._pending_modal is not None:
            modal, self._pending_modal = self._pending_modal, None
            self.app.push_screen(modal)
            return
        live = self.live
        self.refresh_bindings()
        self.update_status()
        result = live.result
        if result is not None:
            self.auto_play = False
            self._show(self.viewer_seat, None, [])
            self.status_text = "Game over. Press escape for the menu."
            if not self._result_shown:
                self._result_shown = True
                view = live.rules.view(live.state, self.viewer_seat)
                self.app.push_screen(self.prepare_result(self.ui.game_result(view, result, self._last_events)))
            return
        to_act = live.to_act
        bots = [seat for seat in to_act if live.seats[seat].is_bot]
        humans = [seat for seat in to_act if self.plays_here(seat)]
        if not humans:
            self._turn_notices.due(set(), live.last_mover)  # the next time a seat here is asked, it is news
        if bots and self.drives_table:
            if self._bot_failed:
                self.status_text = "A bot failed; its game cannot go on."
            else:
                self._start_bot(bots[0])
            return
        if humans:
            seat = humans[0]
            name = live.seats[seat].name
            legal = live.rules.legal_actions(live.state, seat)
            if self._play_automatic(seat, legal):  # before any curtain: a pass the seat asked for raises none
                return
            self._notice_turn(set(humans))
            if self._needs_curtain(seat):
                self._show(None, None, [])
                self._curtain_up = True
                self.status_text = f"Passing to {name}"
                context = " · ".join(part for part in (live.spec.title, live.progress) if part)
                self.app.push_screen(CurtainScreen(name, context), partial(self._curtain_lifted, seat))
                return
            self.revealed_seat = seat
            self._show(seat, seat, legal)
            self.status_text = f"{name} to choose"
            return
        if to_act:  # played at other terminals (or by their bots): their actions arrive through the store
            self._show(self.viewer_seat, None, [])
            self.status_text = self.waiting_text(to_act)
            return
        if live.table_action is not None and not self.drives_table:
            self._show(self.viewer_seat, None, [])
            self.status_text = self.waiting_text(())
            return
        if live.table_action is not None:
            self._show(self.viewer_seat, None, [])
            by_itself = self.table.plays_by_itself(live.table_action)
            if self.auto_play or by_itself:
                self.status_text = "Playing automatically (a to stop)" if self.auto_play else "Playing the next step…"
                if self._auto_timer is None:
                    self._auto_timer = self.set_timer(self.auto_delay, self._auto_step)
            else:
                self.status_text = "Space: next step · a: automatic play"

    def prepare_result(self, screen: Screen[None]) -> Screen[None]:
        """Give a final screen the finished game (for ``p``, play again) and the series score."""
        if isinstance(screen, GameOverScreen):
            screen.live = self.live
            score = series_score(self.live.store, self.live.session_id)
            screen.series = score.text if score is not None and score.games > 1 else None
        return screen

    def _notice_turn(self, asked: set[int]) -> None:
        """At a table, ring and ask the terminal for a desktop notice when a seat here is newly asked to choose."""
        if not self.AT_A_TABLE or not self._turn_notices.due(asked, self.live.last_mover):
            return
        context = coven_or_none(self)
        if context is None:
            return
        if wanted(read_settings(context.store, context.account)["notifications"], context.served):
            context.send_to_terminal(notice_escape())

    def waiting_text(self, seats: Sequence[int]) -> str:
        """The status while ``seats`` (or, when empty, the table's driver) act elsewhere."""
        names = [self.live.seats[seat].name for seat in seats]
        return f"Waiting for {' and '.join(names)}…" if names else "Waiting for the table…"

    def _play_automatic(self, seat: int, legal: Sequence[Any]) -> bool:
        """Apply the table's automatic choice for ``seat`` (e.g. a pass it yields), if it has one; True when applied."""
        live = self.live
        choice = self.table.automatic_choice(seat, live.rules.view(live.state, seat), legal)
        if choice is None or (not choice.asked_for and self._keeps_secrets_from_others_here(seat)):
            # Passing at once (and logging why) would tell whoever looks at this shared screen that the seat
            # had nothing else to do: with a hidden hand, a secret. The seat is asked, behind its curtain.
            return False
        return self._apply(seat, choice.action, note=choice.note)

    def _curtain_lifted(self, seat: int, _: object = None) -> None:
        """The right person is looking: reveal ``seat``'s view."""
        self._curtain_up = False
        self.revealed_seat = seat
        self.advance()

    def _auto_step(self) -> None:
        """One automatic step, if auto play is still on and nothing else is needed."""
        self._auto_timer = None
        pending = self.live.table_action
        by_itself = pending is not None and self.table.plays_by_itself(pending)
        if (self.auto_play or by_itself) and self.is_current and not self.live.to_act:
            self.action_step()

    def action_step(self) -> None:
        """Play the table's waiting automatic step."""
        live = self.live
        if not self.is_current or self._bot_log_length is not None or live.to_act or self.saving.failing:
            return
        pending = live.table_action
        if pending is not None:
            self._apply(None, pending)

    # -- bots -------------------------------------------------------------------

    def _start_bot(self, seat: int) -> None:
        """Let ``seat``'s bot choose in a worker thread."""
        live = self.live
        info = live.seats[seat]
        bot = live.spec.bots.get(info.bot_level or "") or next(iter(live.spec.bots.values()), None)
        if bot is None:
            self.notify(f"{live.spec.title} has no bots; {info.name} cannot play.", severity="error")
            return
        self._show(self.viewer_seat if self.revealed_seat is None else self.revealed_seat, None, [])
        self.status_text = f"{info.name} is thinking…"
        self._bot_log_length = len(live.log)
        if self.table.bot_pause:  # the table wants a bot's turn to read as steps: pause before each action
            self.set_timer(self.auto_delay, partial(self._run_bot, seat, bot))
        else:
            self._run_bot(seat, bot)

    def _run_bot(self, seat: int, bot: Any) -> None:
        """Start ``bot``'s worker for ``seat`` (its log length was noted by :meth:`_start_bot`)."""
        live = self.live
        rng = seeded_rng(live.seed, "bot", seat, len(live.log))
        context = coven_or_none(self)
        store, account = (None, None) if context is None else (context.store, context.account)
        bot = with_think_time(bot, think_time(store, account))
        view = live.rules.view(live.state, seat)
        legal = live.rules.legal_actions(live.state, seat)
        self.run_worker(partial(bot, view, legal, rng), name=f"bot:{seat}", group="bot", thread=True, exit_on_error=False)

    @on(Worker.StateChanged)
    def _bot_finished(self, event: Worker.StateChanged) -> None:
        """Apply the bot's choice once its worker is done."""
        worker = event.worker
        if worker.group != "bot" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        expected, self._bot_log_length = self._bot_log_length, None
        seat = int(worker.name.split(":")[1])
        if event.state is WorkerState.SUCCESS and expected == len(self.live.log):
            self._apply(seat, worker.result)
        elif event.state is WorkerState.ERROR:
            self._bot_failed = True
            self.notify(f"The bot failed: {worker.error}", severity="error", timeout=15)
        self.advance()

    # -- applying actions -------------------------------------------------------

    def _apply(self, seat: int | None, action: Any, note: str | None = None) -> bool:
        """Apply, save and show an action (``note``: why it was taken without asking); notify and return False if rejected."""
        try:
            events = self.live.apply(seat, action)
        except ActionError as error:
            self.notify(error.reason, title="Not allowed", severity="error")
            return False
        except StoreError as error:
            return self.save_failed(seat, action, error)
        self.show_new_events(events, note=note)
        return True

    def save_failed(self, seat: int | None, action: Any, error: StoreError) -> bool:
        """Hold an action whose save may work later, or say why it was refused (a shared table may retry first)."""
        return self.saving.failed(seat, action, error)

    def show_new_events(self, events: list[Event], *, then_advance: bool = True, note: str | None = None) -> bool:
        """Log and show the events of one saved action, then (unless told not to) decide what happens next.

        ``note`` (why an automatic choice was taken) follows the action's first log line.

        Returns:
            True when a round's result was put up (or queued) and the game waits for it to close.
        """
        self._last_events = events
        self.update_status()
        lines = self.ui.log_lines(events, self.viewer_seat)
        if note is not None and lines:
            lines[0] = noted(lines[0], note)
        self.write_log(lines)
        self.table.show_events(events)
        self._round_events.extend(events)
        if any(self.ui.ends_round(event) for event in events):
            round_events, self._round_events = self._round_events, []
            view = self.live.rules.view(self.live.state, self.viewer_seat)
            self._show(self.viewer_seat, None, [])
            modal = self.ui.round_result(view, round_events)
            if modal is not None:
                if self.is_current:
                    self.app.push_screen(modal)
                else:  # e.g. the rules are open: show it on return
                    self._pending_modal = modal
                return True
        if then_advance:
            self.advance()
        return False

    def check_choice(self, seat: int, action: dict[str, Any]) -> str | None:
        """The rules' reason ``seat`` may not take ``action`` (JSON) now, or None if they may (the table's checker)."""
        live = self.live
        if seat not in live.to_act:
            return f"It is not {live.seats[seat].name}'s turn to choose."
        try:
            live.rules.check_action(live.state, seat, live.rules.parse_action(action))
        except ActionError as error:
            return error.reason
        return None
