"""The Wizards Cup coach's panels: a lineup's chances (h on the lineup screen) and a finished game's review.

The coach thinks in a thread (the matrix games take a fraction of a second to a
second), awaited by an async worker: the screen shows "Thinking…" meanwhile,
and keys keep working (the app holds keys only for a screen's thread workers,
such as a bot's move), so escape closes the panel at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import Event
from engine.wizards_cup.coach import CoachError
from engine.wizards_cup.state import WizardsCupView
from tui.games.wizards_cup.coach_words import (
    Line,
    advice_lines,
    advice_summary,
    review_lines,
    review_summary,
    say,
)
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import load_css

THINKING = "Thinking… (escape closes)"


class CoachScreen(ModalScreen[None]):
    """A panel that shows "Thinking…" while :meth:`think` works in a thread, then its words."""

    DEFAULT_CSS = load_css(__file__)
    HELP_TITLE = "Coach"
    BINDINGS = [
        Binding("escape,h", "close", "Close"),
        Binding("semicolon", "announce", "Announce", key_display=";"),
        Binding("up", "scroll(-1)", "Scroll", show=False),
        Binding("down", "scroll(1)", "Scroll", show=False),
    ]
    TITLE_TEXT = "Coach"

    thinking = True
    """True until the coach has spoken (or said why it cannot)."""

    ABOUT = "the game"
    """What the coach's advice is about, for the announce key ("your lineup for round 2")."""

    summary = ""
    """The advice in one or two sentences, once worked out (the announce key); a problem's words if it failed."""

    def compose(self) -> ComposeResult:
        with Vertical(id="coach-dialog"):
            yield Static(Text(self.TITLE_TEXT, style="bold"), id="coach-title")
            with VerticalScroll(id="coach-scroll"):
                yield Static(THINKING, id="coach-thinking")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.run_worker(self._think(), exclusive=True, group="coach")

    def think(self) -> list[Line]:
        """The coach's words, worked out in a thread (numpy is loaded here, the first time)."""
        raise NotImplementedError

    async def _think(self) -> None:
        try:
            lines = await asyncio.to_thread(self.think)
        except CoachError as error:
            lines = [say(error.reason)]
            self.summary = error.reason
        except Exception:  # the panel says so in words; a traceback is never shown
            lines = [say("The coach could not work this out.")]
            self.summary = "The coach could not work this out."
        self.thinking = False
        if not self.is_attached:
            return
        scroll = self.query_one("#coach-scroll", VerticalScroll)
        await scroll.remove_children()
        # One Static a paragraph, indented by CSS, so a wrapped line stays under its own paragraph.
        await scroll.mount_all(Static(text, classes=f"coach-line coach-indent-{min(indent, 2)}")
                               for indent, text in lines)

    def words(self) -> str:
        """Everything the panel says now, as plain text (one paragraph a line)."""
        return "\n".join(str(static.render()) for static in self.query("#coach-scroll Static").results(Static))

    def announcement(self) -> str:
        """The announce key's words: what the advice is about, then the advice in a sentence or two."""
        if self.thinking:
            return f"The coach is still thinking about {self.ABOUT}."
        return f"The coach on {self.ABOUT}: {self.summary or self.words()}"

    def action_announce(self) -> None:
        """Say the coach's advice in short, as a notification (the panel keeps the whole of it)."""
        self.notify(self.announcement(), title="Coach", timeout=10, markup=False)

    def action_scroll(self, step: int) -> None:
        """Scroll the words."""
        self.query_one("#coach-scroll", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_close(self) -> None:
        """Close the panel, thinking or not (a thought still running is dropped)."""
        self.dismiss(None)


class LineupCoachScreen(CoachScreen):
    """For the lineup the seat has arranged: its chances, Hard's mix and what a guessing opponent wins."""

    HELP = ("The coach on your current lineup, from what you can see: its chances against how the Hard bot "
            "expects your opponent to play, the Hard bot's own mix of lineups, and how an opponent who "
            "guessed your order would fare. ; says the advice in two sentences. Close it with escape and keep "
            "arranging.")

    def __init__(self, view: WizardsCupView, order: Sequence[str], seed: int = 0) -> None:
        super().__init__()
        self.view = view
        self.order = tuple(order)
        self.seed = seed
        self.TITLE_TEXT = f"Coach · round {view.round} · your lineup"
        self.ABOUT = f"your lineup for round {view.round}"

    def think(self) -> list[Line]:
        from engine.wizards_cup import coach

        advice = coach.advise_lineup(self.view, self.order, self.seed)
        self.summary = advice_summary(advice)
        return advice_lines(advice)


class ReviewCoachScreen(CoachScreen):
    """A finished game's rounds: what each side played, the equilibrium, and the value each gave up."""

    HELP = ("The coach's review of a finished game, round by round, from what the game showed (the duels, "
            "the final teams and the last round's cards): what each side played, what the equilibrium "
            "suggested, and how much chance of the Cup each side gave up against it. ; says how much each side "
            "gave up in all, in a sentence or two.")
    TITLE_TEXT = "Coach · the game, round by round"
    ABOUT = "the finished game, round by round"

    def __init__(self, view: WizardsCupView, events: Sequence[Event]) -> None:
        super().__init__()
        self.view = view
        self.events = list(events)

    def think(self) -> list[Line]:
        from engine.wizards_cup.coach_review import review_rounds

        reviews = review_rounds(self.view, self.events)
        self.summary = review_summary(reviews)
        return review_lines(reviews)
