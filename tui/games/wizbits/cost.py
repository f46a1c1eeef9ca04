"""The Wizbits cost dialog: gather Secession points, then pay.

Points come from the top of the deck (``1``, one point a card) or from
seceding a card in play (``2`` on the highlighted card; two points, three with
Offering). Everything else the play costs is said too: a Trigger's random
discard or its own card seceded, and under each card that may be seceded what
seceding it sets going (its flip abilities, cards it sets off), as the engine's
``costs`` queries word them. The dialog holds no payment rule: every step is checked by the
engine through the ``check`` function it is given, so it refuses what the
engine refuses (overpaying, taking from an empty deck) with the engine's
reason, and lets through a payment that is not yet enough while saying how
many points are still needed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.wizbits.actions import Payment
from engine.wizbits.costs import secede_effects, side_costs
from engine.wizbits.views import WizbitsView
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import load_css

SHORTFALL = "more needed"
"""The engine's words for a payment that does not yet gather enough (see ``payment.check_payment``)."""


@dataclass(frozen=True)
class Secedable:
    """A card the payer may secede: its iid, name and the points it gives."""

    iid: int
    name: str
    points: int


@dataclass(frozen=True)
class CostNotes:
    """What a play costs besides points (``extra``), and what seceding each card of the payer's sets going."""

    extra: tuple[str, ...] = ()
    flips: Mapping[int, tuple[str, ...]] = field(default_factory=dict)


def play_notes(view: WizbitsView, seat: int, iid: int, ability: int | None) -> CostNotes:
    """The notes for playing card ``iid`` (``ability`` None) or using one of its abilities, from the engine's words."""
    mine = [p.iid for p in view.players[seat].in_play if not p.is_main and not p.seceded]
    return CostNotes(side_costs(view, seat, iid, ability), {card: secede_effects(view, card) for card in mine})


def secede_title(candidates: Sequence[Secedable]) -> str:
    """The title over the cards to secede, saying what each gathers: ``Cards you may secede (+2 points each)``."""
    points = sorted({card.points for card in candidates})
    if not points:
        return "Cards you may secede"
    if len(points) == 1:
        return f"Cards you may secede (+{points[0]} points each)"
    return f"Cards you may secede (+{' or +'.join(map(str, points))} points)"


class CostDialog(ModalScreen[Payment | None]):
    """Gather points until the engine accepts the payment; enter pays, escape cancels."""
    HELP_TITLE = "Pay a cost"
    HELP = ("Choose how to pay for the play you chose; the dialog refuses a payment the rules would "
            "refuse, and says why.")

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("1", "take_deck", "Top of deck +1"),
        Binding("2", "secede", "Secede a card"),
        Binding("backspace", "undo", "Undo"),
        Binding("enter", "pay", "Pay", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, what: str, cost: int, deck_count: int, candidates: Sequence[Secedable],
                 check: Callable[[Payment], str | None], notes: CostNotes | None = None, ability: bool = False) -> None:
        """Pay for ``what`` (printed ``cost``) from a deck of ``deck_count`` cards or by seceding ``candidates``.

        ``notes`` say what else the play costs and what each secession sets going; ``ability``: the
        payment is for using an ability of the card ``what``, not for playing it.
        """
        super().__init__()
        self.what = what
        self.ability = ability
        self.cost = cost
        self.deck_count = deck_count
        self.candidates = list(candidates)
        self.check = check
        self.notes = notes or CostNotes()
        self.payment = Payment()
        self._history: list[int | None] = []  # None: a deck card; else the iid seceded
        self.message = ""
        """The last refusal, shown until the next change."""

    def compose(self) -> ComposeResult:
        with Vertical(id="cost-box"):
            yield Static(id="cost-title")
            yield Static(self._extra_text(), id="cost-extra", classes="" if self.notes.extra else "-none")
            yield Static(id="cost-total")
            listing = OptionList(*self._options(), id="cost-cards")
            listing.border_title = secede_title(self.candidates)
            yield listing
            yield Static(id="cost-message")
        yield FittingFooter()

    def on_mount(self) -> None:
        doing = "Pay to use an ability of " if self.ability else "Pay to play "
        self.query_one("#cost-title", Static).update(
            Text.assemble((doing, ""), (self.what, "bold"), f" · cost {self.cost} · deck {self.deck_count}"))
        self._refresh()

    def _options(self) -> list[Option]:
        if not self.candidates:
            return [Option(Text("no card to secede", style="dim italic"), disabled=True)]
        return [Option(self._candidate_text(card, False), id=str(card.iid)) for card in self.candidates]

    def _extra_text(self) -> Text:
        out = Text("Also costs:", style="bold")
        for line in self.notes.extra:
            out.append(f"\n• {line}")
        return out

    def _candidate_text(self, card: Secedable, taken: bool) -> Text:
        """``Name  +2`` and, under it, what seceding the card sets going."""
        out = Text(f"{'⟲ ' if taken else ''}{card.name}  +{card.points}", style="strike dim" if taken else "")
        for line in self.notes.flips.get(card.iid, ()):
            out.append(f"\n  {line}", style="dim")
        return out

    @property
    def gathered(self) -> int:
        """Points gathered so far: one a deck card, and each seceded card's value."""
        points = {card.iid: card.points for card in self.candidates}
        return self.payment.deck + sum(points[iid] for iid in self.payment.secede)

    @property
    def verdict(self) -> str | None:
        """The engine's reason the current payment can't be made yet (None: it can)."""
        return self.check(self.payment)

    def _refresh(self) -> None:
        parts = []
        if self.payment.deck:
            parts.append(f"{self.payment.deck} from the deck")
        names = {card.iid: card.name for card in self.candidates}
        parts.extend(f"seceding {names[iid]}" for iid in self.payment.secede)
        total = Text.assemble(("Gathered ", ""), (str(self.gathered), "bold"),
                              f": {', '.join(parts) or 'nothing yet'}")
        verdict = self.verdict
        total.append("\n")
        if verdict is None:
            total.append("✓ enough — enter pays", style="bold green")
        else:
            total.append(verdict, style="yellow")
        self.query_one("#cost-total", Static).update(total)
        listing = self.query_one("#cost-cards", OptionList)
        for card in self.candidates:
            taken = card.iid in self.payment.secede
            listing.replace_option_prompt(str(card.iid), self._candidate_text(card, taken))
        self.query_one("#cost-message", Static).update(Text(self.message, style="bold red"))

    def _try(self, payment: Payment, source: int | None) -> bool:
        """Take ``payment`` if the engine accepts it or only says more is needed; else show its reason."""
        reason = self.check(payment)
        if reason is not None and SHORTFALL not in reason:
            self.message = f"Refused: {reason}"
            self._refresh()
            return False
        self.payment, self.message = payment, ""
        self._history.append(source)
        self._refresh()
        return True

    def action_take_deck(self) -> None:
        """Gather one point from the top of the deck."""
        self._try(Payment(self.payment.deck + 1, self.payment.secede), None)

    def action_secede(self) -> None:
        """Gather points by seceding the highlighted card."""
        listing = self.query_one("#cost-cards", OptionList)
        if listing.highlighted is None or not self.candidates:
            self.message = "No card to secede"
            self._refresh()
            return
        iid = self.candidates[listing.highlighted].iid
        if iid in self.payment.secede:
            self.message = "That card is seceded for this payment already"
            self._refresh()
            return
        self._try(Payment(self.payment.deck, (*self.payment.secede, iid)), iid)

    def action_undo(self) -> None:
        """Put back the last source gathered."""
        if not self._history:
            return
        source = self._history.pop()
        if source is None:
            self.payment = Payment(self.payment.deck - 1, self.payment.secede)
        else:
            self.payment = Payment(self.payment.deck, tuple(i for i in self.payment.secede if i != source))
        self.message = ""
        self._refresh()

    def action_pay(self) -> None:
        """Pay if the engine accepts the payment."""
        verdict = self.verdict
        if verdict is not None:
            self.message = f"Not yet: {verdict}"
            self._refresh()
            return
        self.dismiss(self.payment)

    def action_cancel(self) -> None:
        """Close without paying."""
        self.dismiss(None)
