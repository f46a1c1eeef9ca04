"""Wizards Cup screen parts: the table (team builder, lineup, duels, swaps) and result screens."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, OptionList

from engine import Event, Result
from engine.wizards_cup.actions import Action, ChooseTeam, KeepTeam, SetLineup, Swap
from engine.wizards_cup.state import Phase, WizardsCupView
from tui.coach_access import SETTING_OFF
from tui.games.base import NOT_YOUR_TURN, GameTable, GameUI
from tui.games.lookup import CardEntry
from tui.games.wizards_cup import lookup
from tui.games.wizards_cup.duel_zone import DuelZone
from tui.games.wizards_cup.lineup import LineupEditor
from tui.games.wizards_cup.narration import NARRATION
from tui.games.wizards_cup.results import RoundResultScreen, WizardsCupResultScreen
from tui.games.wizards_cup.swap_picker import SwapPicker
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.widgets.styles import load_css

GAME_ID = "wizards-cup"


class WizardsCupTable(GameTable[WizardsCupView, Action]):
    """The Wizards Cup table: one pane per decision, the duel zone otherwise.

    The panes only collect a choice; legality is the engine's, through the
    ``legal`` actions given to :meth:`show`.
    """

    DEFAULT_CSS = load_css(__file__)

    mode: reactive[str] = reactive("duel", init=False)
    """The pane on show: "team", "lineup", "swap" or "duel"."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WizardsCupView | None = None
        self.seat: int | None = None
        self.legal: list[Any] = []
        self.duel_log: list[Event] = []
        """Every duel event shown so far, oldest first (used by the round summary)."""
        self._loaded: tuple[Any, ...] | None = None
        self._notes: dict[str, Any] = {}
        """Where the seat now looking left each pane (its cursors), by pane id; other seats' are kept apart."""
        self._focus_wish: str | None = None

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="duel"):
            yield DuelZone(id="duel")
            # Out of view, a pane is disabled: the screen's auto-focus must not land in a hidden list, where it
            # would eat a key meant for the screen (a quick "space" after a game opened picked a wizard instead).
            for pane in (TeamBuilder(id="team"), LineupEditor(id="lineup"), SwapPicker(id="swap")):
                pane.disabled = True
                yield pane

    def show(self, view: WizardsCupView, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view``; open the decision pane for ``deciding_seat`` if there is one."""
        self.view, self.seat, self.legal = view, deciding_seat, list(legal)
        mode = self._mode_for(view, deciding_seat)
        zone = self.query_one(DuelZone)
        zone.show_view(view)
        zone.status = self._status(view, deciding_seat)
        key = (mode, deciding_seat, view.round, view.phase)
        if key != self._loaded:
            self._note_pane()
        fresh = key != self._loaded
        if mode != "duel" and fresh:
            self._load_pane(mode, view, deciding_seat)
        self._loaded = key
        self.query_one(LineupEditor).coach_shown = self.coach_refusal != SETTING_OFF  # the setting may change
        self.mode = mode
        self._focus_pane(fresh)
        self.call_after_refresh(self._focus_pane, fresh)  # again once the screen's auto-focus has run

    def remember(self) -> dict[str, Any]:
        """Where the seat looking now left each pane: the cursors of its lists, by pane id."""
        self._note_pane()
        return dict(self._notes)

    def restore(self, memo: object | None) -> None:
        """The panes open where the seat now looking left them (None: fresh), each when it is next loaded."""
        self._notes = dict(memo) if isinstance(memo, dict) else {}
        self._loaded = None  # loaded for the last seat: load again, for this one

    def _note_pane(self) -> None:
        """Note where the seat left the pane that was loaded for it, before another pane (or seat) takes over."""
        if self._loaded is not None and self._loaded[0] != "duel":
            self._notes[self._loaded[0]] = self._pane(self._loaded[0]).remember()

    def _pane(self, mode: str) -> TeamBuilder | LineupEditor | SwapPicker:
        panes: dict[str, type[TeamBuilder | LineupEditor | SwapPicker]] = {
            "team": TeamBuilder, "lineup": LineupEditor, "swap": SwapPicker}
        return self.query_one(f"#{mode}", panes[mode])

    COMPACT_BELOW = 20
    """Below this many rows the panes switch to their ``-compact`` layouts."""

    def on_resize(self) -> None:
        compact = self.size.height < self.COMPACT_BELOW
        for pane in self.query_one(ContentSwitcher).children:
            pane.set_class(compact, "-compact")

    def watch_mode(self, mode: str) -> None:
        switcher = self.query_one(ContentSwitcher)
        for pane in switcher.children:
            pane.disabled = pane.id != mode
        switcher.current = mode

    def _focus_pane(self, fresh: bool = True) -> None:
        """Focus the open pane's list, or let go of focus while only watching.

        A pane just opened takes the keyboard; one redrawn (another seat moved) takes it back only from
        nowhere or from elsewhere on this table, never from the log the player moved to on purpose.
        """
        if self.mode == "duel":
            focused = self.screen.focused
            if focused is not None and self in focused.ancestors:
                self.screen.set_focus(None)
            return
        pane = self.query_one(f"#{self.mode}")
        focused = self.screen.focused
        if not fresh and focused is not None and self not in focused.ancestors:
            return
        if focused is None or pane not in focused.ancestors:
            lists = pane.query(OptionList)
            wished = [option_list for option_list in lists if option_list.id == self._focus_wish]
            if wished:
                wished[0].focus()
            elif lists:
                lists.first().focus()

    @staticmethod
    def _mode_for(view: WizardsCupView, seat: int | None) -> str:
        if seat is None or view.phase not in (Phase.TEAM, Phase.LINEUP, Phase.SWAP):
            return "duel"
        player = view.players[seat]
        if view.phase is Phase.TEAM:
            return "team" if player.team is not None or view.seat is None else "duel"
        if player.team is None or not player.team:
            return "duel"
        return "lineup" if view.phase is Phase.LINEUP else "swap"

    def _load_pane(self, mode: str, view: WizardsCupView, seat: int | None) -> None:
        assert seat is not None
        player, opponent = view.players[seat], view.players[1 - seat]
        if mode == "team":
            self.query_one(TeamBuilder).load(player.displayed, opponent=opponent.name,
                                             opponent_displayed=opponent.displayed)
        elif mode == "lineup":
            self.query_one(LineupEditor).load(player.opening_lineup(), view.round, opponent.name,
                                              opponent.displayed, opponent.seen)
        else:
            swaps = [action for action in self.legal if isinstance(action, Swap)]
            self.query_one(SwapPicker).load(player.team or (), player.displayed,
                                            {a.out for a in swaps}, {a.take for a in swaps})
        memo = self._notes.get(mode)
        self._pane(mode).restore(memo)
        self._focus_wish = "sp-pool" if mode == "swap" and memo is not None and memo[2] else None

    def _status(self, view: WizardsCupView, seat: int | None) -> str:
        names = [player.name for player in view.players]
        if view.phase is Phase.OVER:
            return "The Cup is decided."
        if view.phase is Phase.DUEL:
            if not self.steps_here:
                return "The host's Coven plays the duels."
            return "space: next duel · a: auto" if self.keys_hint is None else self.keys_hint
        waiting = [player.name for index, player in enumerate(view.players)
                   if not player.ready and index != seat]
        if not waiting:
            return f"{names[seat]} to choose…" if seat is not None else ""
        if view.seat is not None and view.players[view.seat].ready:
            return f"Your choice is in. Waiting for {' and '.join(waiting)}…"
        return f"Waiting for {' and '.join(waiting)}…"

    def show_events(self, events: Sequence[Event]) -> None:
        """Remember duel events and show why the latest duel ended as it did."""
        if self.defer_until_mounted(self.show_events, events):
            return
        duels = [event for event in events if event.kind == "duel"]
        self.duel_log.extend(duels)
        if duels:
            self.query_one(DuelZone).show_duel(duels[-1].data)

    def clear_events(self) -> None:
        """Forget every duel shown so far."""
        self.duel_log.clear()
        self.query_one(DuelZone).show_duel(None)

    def _choose(self, action: Action) -> str | None:
        """Post ``action`` for the deciding seat if the engine allows it; else return why not."""
        if self.seat is None:
            return NOT_YOUR_TURN
        if self.legal and action not in self.legal:
            return "The rules don't allow that choice now"
        self.post_message(self.ActionChosen(self.seat, action))
        return None

    @on(TeamBuilder.Confirmed)
    def _team_confirmed(self, event: TeamBuilder.Confirmed) -> None:
        event.stop()
        problem = self._choose(ChooseTeam(tuple(event.cards)))
        if problem:
            event.builder.message = problem

    @on(LineupEditor.Confirmed)
    def _lineup_confirmed(self, event: LineupEditor.Confirmed) -> None:
        event.stop()
        problem = self._choose(SetLineup(tuple(event.order)))
        if problem:
            self.notify(problem, title="Not allowed", severity="warning")

    @on(LineupEditor.CoachAsked)
    def _coach_asked(self, event: LineupEditor.CoachAsked) -> None:
        """Open the coach on the lineup as arranged, from the deciding seat's own view; or say why not."""
        event.stop()
        from tui.games.wizards_cup.coach import LineupCoachScreen

        view, seat = self.view, self.seat
        if self.coach_refusal is not None:
            self.notify(self.coach_refusal, title="No coach here", severity="warning")
        elif view is None or seat is None or view.seat != seat:
            self.notify("The coach helps the seat setting its lineup.", title="No coach here", severity="warning")
        else:
            self.app.push_screen(LineupCoachScreen(view, event.order))

    @on(SwapPicker.Decided)
    def _swap_decided(self, event: SwapPicker.Decided) -> None:
        event.stop()
        if event.out is None or event.take is None:
            action: Action = KeepTeam()
            if self.legal and action not in self.legal:
                event.picker.message = "You can't keep the team now"
                return
        else:
            action = Swap(event.out, event.take)
        problem = self._choose(action)
        if problem:
            event.picker.message = problem


class WizardsCupUI(GameUI[WizardsCupView]):
    """Factories for the Wizards Cup table and its result screens."""

    narration = NARRATION

    def card_index(self) -> Sequence[CardEntry]:
        """Every card of the game, for the card lookup."""
        return lookup.card_index()

    def card_now(self, view: WizardsCupView, seat: int | None, key: str) -> str | None:
        """Where card ``key`` stands in ``seat``'s view, with its current values."""
        return lookup.card_now(view, seat, key)
    has_coach = True

    def __init__(self) -> None:
        self._table: weakref.ref[WizardsCupTable] | None = None

    def make_table(self) -> WizardsCupTable:
        """A fresh table (remembered weakly so round summaries can list every duel)."""
        table = WizardsCupTable()
        self._table = weakref.ref(table)
        return table

    def _history(self, events: Sequence[Event]) -> list[Event]:
        table = self._table() if self._table else None
        known = list(table.duel_log) if table else []
        seen = {(e.data.get("round"), e.data.get("duel")) for e in known}
        return known + [e for e in events if (e.data.get("round"), e.data.get("duel")) not in seen]

    def ends_round(self, event: Event) -> bool:
        """The engine's ``round_end`` event closes a round of the Cup."""
        return event.kind == "round_end"

    def coach_review(self, view: WizardsCupView, events: Sequence[Event]) -> Screen[None] | None:
        """The coach's round-by-round review of a finished game (see :mod:`engine.wizards_cup.coach_review`)."""
        from tui.games.wizards_cup.coach import ReviewCoachScreen

        return ReviewCoachScreen(view, events)

    def round_result(self, view: WizardsCupView, events: Sequence[Event]) -> Screen[None] | None:
        """The round summary modal."""
        return RoundResultScreen(view, self._history(events))

    def game_result(self, view: WizardsCupView, result: Result, events: Sequence[Event]) -> Screen[None]:
        """The final screen."""
        return WizardsCupResultScreen(view, result, self._history(events))


