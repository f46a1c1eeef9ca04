"""The seam between the generic screens and one game's widgets.

The game screen (``tui/screens/game/screen.py``) owns the session: it applies
actions, runs bots and table steps, and shows curtains. A game's
:class:`GameTable` only draws engine views and posts :class:`GameTable.ActionChosen`.
Whatever else differs between games (what ends a round, which choices an
option offers) is a hook on the game's :class:`GameUI`, so the generic
screens never name a game or one of its event kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from engine import Event, Result
from engine.core.registry import OptionSpec, OptionValue
from tui.alarm import set_alarm
from tui.games.lookup import CardEntry
from tui.games.narration import Narration, Question
from tui.verbosity import DEFAULT, Verbosity

if TYPE_CHECKING:
    from saves import SessionStore

V = TypeVar("V")
"""The game's view type: what ``GameRules.view`` returns for it."""

A = TypeVar("A")
"""The game's action type: what ``GameRules.legal_actions`` lists and ``GameRules.apply`` takes."""

Chosen = TypeVar("Chosen")
"""The action type again, for :class:`GameTable.ActionChosen` (a nested class has type variables of its own)."""

ROUND_RULE = "─" * 24
"""The line the log draws after an event that ends a round."""

NOT_YOUR_TURN = "It is not your turn to choose"
"""A table's refusal of a choice while it has no deciding seat (the screen names the seat when it knows it)."""


@dataclass(frozen=True)
class AutomaticChoice:
    """An action a table takes for a seat without asking it, such as a pass the player asked for in advance.

    Attributes:
        action: The action (an engine value); the rules still decide whether it is legal.
        note: Why it was taken, written into the log after the action's first line ("Ana passes (auto).").
        asked_for: True when the seat asked for it in advance (a yield). False when the table saw that the
            seat had no other choice (auto-pass): that says something about the seat's hidden cards, so
            it is not taken while the seat sits behind a pass-and-play curtain; the seat is asked instead.
    """

    action: Any
    note: str
    asked_for: bool = False


def noted(line: str, note: str) -> str:
    """``line`` with ``(note)`` before its closing full stop, if it has one: ``"Ana passes (auto)."``."""
    body, stop = (line[:-1], ".") if line.endswith(".") else (line, "")
    return f"{body} ({note}){stop}"


class GameTable(Widget, Generic[V, A]):
    """Draws one game's table from a view (of type ``V``) and lets a seat choose an action (of type ``A``).

    Actions stay the game's own values from the key press to the store: only the store
    (and an import file) holds their JSON form, read by the rules' ``parse_action``.
    """

    class ActionChosen(Message, Generic[Chosen]):
        """The deciding seat chose ``action`` (the game's action value, as the table's rules list it)."""

        def __init__(self, seat: int, action: Chosen) -> None:
            super().__init__()
            self.seat = seat
            self.action = action

    class StepRequested(Message):
        """Ask the screen to play the table's waiting automatic step now (e.g. a pillar's ``n`` key)."""

    keys_hint: str | None = None
    """When set, shown instead of the table's own key hint (e.g. by the replay, whose keys differ)."""

    steps_here: bool = True
    """False at a shared table whose automatic steps another terminal (the host's) plays,
    so the table does not offer keys for them."""

    checker: Callable[[int, A], str | None] | None = None
    """Set by the game screen: ask the engine whether a seat may take an action now.

    Returns None when the rules accept it, else their reason. A table uses it to
    refuse a choice before posting it (e.g. a payment that overpays), so no rule
    needs copying into a widget. None where nothing can be chosen (the replay).
    """

    bot_pause: bool = False
    """When True the screen waits its automatic-step delay before each bot action, so a bot's turn reads as steps."""

    coach_refusal: str | None = None
    """Set by the game screen: why a game's coach may not help here (the player's setting, a shared table
    whose host did not allow it, a spectator), in words; None when it may."""

    def __init__(self, *children: Widget, name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(*children, name=name, id=id, classes=classes, disabled=disabled)
        self._eyes: int | None = None
        self._seat_memos: dict[int | None, object] = {}
        self._before_mount: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self._retry_pending = False

    def defer_until_mounted(self, call: Callable[..., None], *args: Any) -> bool:
        """Keep ``call(*args)`` for when the table and all its parts are mounted, if they are not yet; True when kept.

        A screen may draw its table from its own ``on_mount``, which on a busy
        machine can run before the table, or a part inside it, has composed.
        Calls kept are played in order, and a later call waits behind them.
        """
        if getattr(self, "_pruning", False):  # being removed (its screen replaced as it opened): nothing to draw
            return True
        if self._parts_ready() and not self._before_mount:
            return False
        self._before_mount.append((call, args))
        if self.is_mounted:
            self._retry_soon()
        return True

    def _parts_ready(self) -> bool:
        return self.is_mounted and all(node.is_mounted for node in self.walk_children(Widget))

    def on_mount(self) -> None:
        """Draw what was asked for before the table's parts existed, once they all do."""
        if self._before_mount:
            self._retry_soon()

    def _retry_soon(self) -> None:
        if not self._retry_pending:
            self._retry_pending = True
            set_alarm(self, 0.01, self._run_deferred)

    def _run_deferred(self) -> None:
        self._retry_pending = False
        if getattr(self, "_pruning", False) or not self.is_attached:
            self._before_mount = []
            return
        if not self._parts_ready():
            self._retry_soon()
            return
        waiting, self._before_mount = self._before_mount, []
        for call, args in waiting:
            call(*args)

    def present(self, eyes: int | None, view: V, deciding_seat: int | None, legal: Sequence[A]) -> None:
        """Draw ``view`` for the seat whose eyes are on the table (None: a spectator), then :meth:`show` it.

        What a seat did privately (list cursors, scroll positions, the card in
        a detail pane, a filter, a pan) must not reach the next person at a
        shared keyboard. When ``eyes`` changes, the table's :meth:`remember`
        is kept for the seat that looked last and :meth:`restore` is given
        what the new seat left (None: it starts fresh), before anything of
        its view is drawn.
        """
        if self.defer_until_mounted(self.present, eyes, view, deciding_seat, legal):
            return
        if eyes != self._eyes:
            self._seat_memos[self._eyes] = self.remember()
            self._eyes = eyes
            self.restore(self._seat_memos.get(eyes))
        self.show(view, deciding_seat, legal)

    def remember(self) -> object:
        """The private state of the seat looking now (cursors, scrolls...), to give back to :meth:`restore`.

        The default has nothing to keep.
        """
        return None

    def restore(self, memo: object | None) -> None:
        """Take up what :meth:`remember` kept for the seat about to look (None: start fresh).

        Called just before :meth:`show` draws that seat's view: a table may
        apply part of ``memo`` now and the rest when the pane it belongs to
        is loaded. No rule lives here; only what the seat looked at.
        """

    def automatic_choice(self, seat: int, view: V, legal: Sequence[A]) -> AutomaticChoice | None:
        """An action to take for ``seat`` now without asking it, or None to ask (the default).

        The game screen asks this before it raises a curtain for ``seat`` or
        lets it choose, with the seat's own view (never drawn) and its legal
        actions. It is a convenience the player switched on (Wizbits' auto-pass
        and yields), so the table keeps it per seat and it is never saved: the
        action it returns is applied, checked and logged like any other.
        """
        return None

    def plays_by_itself(self, action: A) -> bool:
        """Whether the waiting automatic step ``action`` should play after a short pause without a key.

        The default (False) waits for the player's "next step" key unless
        automatic play is on.
        """
        return False

    def show(self, view: V, deciding_seat: int | None, legal: Sequence[A]) -> None:
        """Redraw from ``view``.

        Args:
            view: The engine view of the seat whose eyes are on the screen
                (a spectator view when several humans share the terminal).
            deciding_seat: The seat that should make a choice now, or None
                when nobody at this terminal is to choose (bots, duels).
            legal: That seat's legal actions (engine values), empty if none.
        """
        raise NotImplementedError

    def show_events(self, events: Sequence[Event]) -> None:
        """Show what just happened, e.g. why the last duel ended as it did."""

    def clear_events(self) -> None:
        """Forget the events shown so far (the replay calls this before jumping back)."""


class GameUI(Generic[V]):
    """One game's screen parts: its table, its result screens and the hooks generic screens ask."""

    narration: Narration[V] = Narration()
    """The game's sentences for the table narrator (see :mod:`tui.games.narration`); the default says nothing."""

    def announce(self, view: V, seat: int | None, detail: bool) -> str | None:
        """The announce key's sentences for ``seat`` (None: a spectator) from its view; None: say the status line."""
        return self.narration.announce(view, seat, detail)

    def prompt(self, view: V, seat: int) -> str | None:
        """What ``seat``, asked to choose, may do now (a clause for the transcript), or None."""
        return self.narration.prompt(view, seat)

    def asked_words(self, view: V, seat: int, names: Sequence[str]) -> str | None:
        """How to say ``seat`` alone is asked to choose ("Bo holds Priority in Ana's turn"); None: "It is Bo's turn"."""
        return self.narration.asked(view, seat, names)

    def answer(self, view: V, seat: int | None, question: Question, names: Sequence[str],
               level: Verbosity = DEFAULT) -> str | None:
        """The answer to an ask-key ``question`` for ``seat`` from its view; None: the narrator's own (or none).

        At full ``level`` the game adds what else its view holds (the narrator shortens it at terse itself).
        """
        return self.narration.answer(view, seat, question, names, level)

    def linear_text(self, view: V, seat: int | None, level: Verbosity = DEFAULT) -> str | None:
        """The table's art as lines of words (the "linear" setting) as the verbosity ``level`` says, or None when
        the game offers none."""
        return self.narration.linear(view, seat, level)

    def card_index(self) -> Sequence[CardEntry]:
        """Every card a player of this game can meet, for the card lookup (the default: none)."""
        return ()

    def card_now(self, view: V, seat: int | None, key: str) -> str | None:
        """Where card ``key`` stands in play and its current values, as ``seat`` (None: a spectator) sees it.

        Read from that seat's ``view`` only, so a hidden card (in another hand, a secret) is never named, nor
        whether it is there. None when the view shows the card nowhere.
        """
        return None

    def make_table(self) -> GameTable[V, Any]:
        """A fresh table widget."""
        raise NotImplementedError

    def ends_round(self, event: Event) -> bool:
        """Whether ``event`` ends a round: the log draws a rule after it and :meth:`round_result` is asked.

        The default (False) suits games without rounds.
        """
        return False

    def log_lines(self, events: Sequence[Event], viewer: int | None = None) -> list[str]:
        """The game log's lines for ``events``, with a rule after each round.

        ``viewer`` is the one seat whose eyes are on this log (None when several share it): a game may
        then say "your" where the shared text names that seat (see :meth:`event_line`).
        """
        lines: list[str] = []
        for event in events:
            lines.append(self.event_line(event, viewer))
            if self.ends_round(event):
                lines.append(ROUND_RULE)
        return lines

    def event_line(self, event: Event, viewer: int | None) -> str:
        """The log line of one event as ``viewer`` reads it (by default its shared text)."""
        return event.text

    def option_choices(self, option: OptionSpec, store: SessionStore | None) -> list[tuple[str, OptionValue]]:
        """The new-game form's (label, value) choices for ``option``.

        The default offers the option's own choices. A game may add values
        beyond them that its option accepts (Wizbits adds the saved decks from
        ``store``, which is None when no database is open); a label is read as
        markup, so anything from outside must be escaped.
        """
        return [(option.choice_label(choice), choice) for choice in option.choices]

    has_coach = False
    """True when the game offers a coach's review of a finished game (:meth:`coach_review`)."""

    def coach_review(self, view: V, events: Sequence[Event]) -> Screen[None] | None:
        """The coach's review of a finished game, from its final ``view`` and its public ``events``; None: no coach."""
        return None

    def round_result(self, view: V, events: Sequence[Event]) -> Screen[None] | None:
        """A modal summarising a round that just ended, or None for games without rounds."""
        return None

    def game_result(self, view: V, result: Result, events: Sequence[Event]) -> Screen[None]:
        """The final screen of a finished game."""
        raise NotImplementedError
