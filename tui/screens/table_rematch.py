"""Play again at a shared table: asking every seated player, and following the answers.

The table's game screen keeps one :class:`TableRematch`. ``p`` on the final
screen asks (for every seat this process holds); each poll of a finished
table reads the offer (:mod:`saves.table_rematch`), puts up
:class:`RematchPromptScreen` ("Ana wants to play again") for a seat not yet
asked, says in words how an offer ended, and once everyone agreed opens the
rematch's game in place of the finished one, for players and spectators alike.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from saves import LiveSession, StoreError
from saves.table_rematch import RematchOffer, ask_rematch, leave_finished, rematch_offer, settle_rematch
from tui.context import coven
from tui.table_link import TableLink


class RematchPromptScreen(ModalScreen[bool]):
    """Another player wants to play again: y agrees, n (or escape) declines."""
    HELP_TITLE = "Play again?"
    HELP = ("Another player at the table asked to play the same game again, with the same seats and a new deal. "
            "y agrees, n declines; the rematch starts when every seated player has agreed.")

    DEFAULT_CSS = """
    RematchPromptScreen { align: center middle; background: $background 60%; }
    #rematch-box { width: 60; max-width: 100%; height: auto; border: round $accent; background: $surface;
                   padding: 0 1; }
    #rematch-question { width: 1fr; content-align: center middle; margin: 1 0; }
    #rematch-waiting { width: 1fr; content-align: center middle; }
    #rematch-keys { width: 1fr; content-align: center middle; margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes, play again"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, asker: str, waiting: str) -> None:
        """``asker`` asked; ``waiting`` says who else is still to answer (may be empty)."""
        super().__init__()
        self.asker = asker
        self.waiting = waiting

    def compose(self) -> ComposeResult:
        with Vertical(id="rematch-box"):
            yield Static(Text.assemble((self.asker, "bold"), " wants to play again."), id="rematch-question")
            if self.waiting:
                yield Static(Text(self.waiting, style="dim"), id="rematch-waiting")
            yield Static(Text("y: play again · n: no"), id="rematch-keys")

    def action_answer(self, yes: bool) -> None:
        """Answer and close."""
        self.dismiss(yes)


class TableRematch:
    """One table game screen's side of a rematch (see the module)."""

    def __init__(self, screen: Screen[Any], live: LiveSession, link: TableLink) -> None:
        """Follow ``live``'s rematch offers at ``link``'s table for the game screen ``screen``."""
        self.screen = screen
        self.live = live
        self.link = link
        self._seen: RematchOffer | None = None
        self._prompt: RematchPromptScreen | None = None

    @property
    def _names(self) -> list[str]:
        return [seat.name for seat in self.live.seats]

    def ask(self) -> None:
        """``p`` on the final screen: ask the others (or agree to the open offer)."""
        self._answer(True)

    def leave(self) -> None:
        """The player closes the final screen: their seats leave the finished table, which ends an open offer."""
        if self.link.spectator:
            return
        try:
            leave_finished(self.link.tables, self.live.session_id)
        except StoreError:
            pass  # going to the menu anyway; the others see the seat go when this process ends

    def follow(self) -> None:
        """On a poll of the finished table: read (and settle) the offer, and show what changed."""
        tables, session_id = self.link.tables, self.live.session_id
        try:
            offer = rematch_offer(tables, session_id)
            if offer is not None and offer.end is None:
                offer = settle_rematch(tables, session_id)
        except StoreError:
            return
        self._show(offer)

    def _answer(self, yes: bool) -> None:
        try:
            offer = ask_rematch(self.link.tables, self.live.session_id, agree=yes)
        except StoreError as error:
            self.screen.notify(str(error), title="Play again", severity="warning", markup=False)
            return
        self._show(offer)

    def _answered(self, yes: bool | None) -> None:
        self._prompt = None
        self._answer(bool(yes))

    def _close_prompt(self) -> None:
        if self._prompt is not None and self._prompt.is_attached:
            self._prompt.dismiss(None)
        self._prompt = None

    def _show(self, offer: RematchOffer | None) -> None:
        if offer is None or offer == self._seen:
            return
        self._seen = offer
        names, screen = self._names, self.screen
        if offer.end == "started":
            self._close_prompt()
            if offer.session is not None and offer.session != self.live.session_id:
                screen.app.notify(offer.words(names), title=f"Table {self.link.code}", timeout=6, markup=False)
                # Not from inside this screen's own poll, which the move is about to remove.
                screen.app.call_later(coven(screen).tables.open_game, self.link)
            return
        if offer.end is not None:
            self._close_prompt()
            screen.notify(offer.words(names), title="No rematch", severity="warning", timeout=10, markup=False)
            return
        mine = set(self.link.current().seats_of(self.link.claim)) if not self.link.spectator else set()
        if mine <= offer.yes:
            screen.notify(offer.words(names), title="Play again", timeout=8, markup=False)
            return
        if self._prompt is None:
            waiting = [names[seat] for seat in range(len(names)) if seat not in offer.yes and seat not in mine]
            others = f"Also waiting for {' and '.join(waiting)}." if waiting else ""
            asker = names[offer.by] if 0 <= offer.by < len(names) else "A player"
            self._prompt = RematchPromptScreen(asker, others)
            screen.app.push_screen(self._prompt, self._answered)
