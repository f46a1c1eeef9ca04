"""The Wizbits battlefield's choosing half: changing the lines of a choice, inspecting the table, playing
a card or ability (with the cost dialog) and sending the finished choice once the rules accept it.

:class:`ChoosingTable` is the base of :class:`~tui.games.wizbits.table.WizbitsTable`, which draws the panes
and owns the keys; the drawing hooks it calls (``_load``, ``_update_prompt``, ``_update_card``) are
defined there.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.wizbits import actions as act
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.choices import ChoiceRow, Entry, payments_for, secedables
from tui.games.wizbits.cost import CostDialog, play_notes
from tui.games.wizbits.inspection import Look, table_looks
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.prompt import WizbitsDiceLog, printed_cost
from tui.games.wizbits.side import SidePanel, card_label
from tui.games.wizbits.yields import Yield, YieldingTable, until_words
from tui.widgets.seat_private import scroll_home

Wish = tuple[str, bool, int | None, tuple[int, int | None] | None]
"""Where a seat left the choice list: stage, inspecting, line, and the (card, ability) on it."""

DIVIDE_KEYS = [
    Binding("0", "digit(0)", "Type an amount", key_display="0-9"),
    # One line in the footer and the help: the other digits have no description of their own.
    *(Binding(str(digit), f"digit({digit})", "", show=False) for digit in range(1, 10)),
    Binding("backspace", "erase_digit", "Erase a digit", show=False),
    Binding("asterisk", "all_damage", "All here"),
]
"""Typing the damage on the highlighted character, and putting all that remains on it."""

PRIORITY_KEYS = [
    Binding("y", "yield_priority('pillar')", "Yield pillar"),
    Binding("Y", "yield_priority('turn')", "Yield to my turn", show=False),
    Binding("y", "stop_yield", "Stop yielding"),
    Binding("P", "switch_auto_pass(1)", "Auto-pass: on", show=False),
    Binding("P", "switch_auto_pass(0)", "Auto-pass: off", show=False),
]
"""Passing without being asked: yields and the auto-pass setting (see :mod:`tui.games.wizbits.yields`)."""


class ChoosingTable(YieldingTable):
    """What the battlefield's choices do: the rows' values, inspecting, playing and sending."""

    stage: reactive[str] = reactive("watch", init=False)
    """The decision on show: watch, hand, compose, attack, block, assign, divide, discard or pending."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WizbitsView | None = None
        self.seat: int | None = None
        self.legal: list[Any] = []
        self.entries: list[Entry] = []
        self.rows: list[ChoiceRow] = []
        self.entry: Entry | None = None
        """The card or ability being played while composing."""
        self.total = 0
        """Damage to divide, or cards to discard."""
        self.message = ""
        """The rules' last refusal, shown until the choice changes."""
        self.inspecting = False
        """Whether the list shows the table's cards and units to look at (``i``) instead of the choice."""
        self.looks: list[Look] = []
        self._wish: Wish | None = None
        """The stage, inspecting and list line a seat left, put back when its view is next drawn."""
        self._typed = ""
        self._typed_row: ChoiceRow | None = None
        """The digits typed for the damage on this row (another row, or a reload, starts a new number)."""

    # -- what each seat keeps to itself at a shared keyboard ----------------------------------

    PANES = ("-show-pillar", "-show-dice", "-show-opp")
    """The compact layout's secondary panes a seat may open (``t``, ``d``, ``o``)."""

    def remember(self) -> tuple[Any, ...]:
        """What this seat did on screen: its list line (and whether inspecting), its pillar tree, the panes open."""
        line = self.query_one("#wb-list", OptionList).highlighted
        entry = self.entries[line] if line is not None and line < len(self.entries) and not self.inspecting else None
        wish: Wish = (self.stage, self.inspecting, line, (entry.iid, entry.ability) if entry is not None else None)
        panes = frozenset(name for name in self.PANES if self.has_class(name))
        return wish, self.query_one(PillarTree).remember(), panes

    def restore(self, memo: object | None) -> None:
        """The seat now looking finds its list line, foundation and panes as it left them (None: fresh).

        The line is put back by the next ``show`` if the seat faces the same decision; everything
        scrolls back to its start (the dice log to its newest check).
        """
        wish, tree_memo, panes = memo if isinstance(memo, tuple) else (None, None, frozenset())
        self._wish = wish
        self.inspecting = bool(wish and wish[1])
        self.entry, self.message = None, ""
        for name in self.PANES:
            self.set_class(name in panes, name)
        self.query_one("#wb-opp", SidePanel).brief = self.has_class("-compact") and "-show-opp" not in panes
        self.query_one(PillarTree).restore(tree_memo)
        scroll_home(self.query_one("#wb-opp"), self.query_one("#wb-you"), self.query_one("#wb-card-box"))
        self.query_one(WizbitsDiceLog).scroll_end(animate=False, immediate=True)

    def _wished_line(self, wish: Wish, stage: str) -> int | None:
        """The line to put a returning seat's cursor on: the same card or ability if it is still listed,
        else the same line; None when the seat left another decision than ``stage``."""
        left_stage, inspecting, line, entry = wish
        if (left_stage, inspecting) != (stage, self.inspecting):
            return None
        keys = [(shown.iid, shown.ability) for shown in self.entries]
        return keys.index(entry) if entry in keys else line

    def _load(self, stage: str, keep: bool = False) -> None:
        """Fill the list for ``stage`` (drawn by the table)."""
        raise NotImplementedError

    def _update_prompt(self, stage: str | None = None) -> None:
        """Redraw the prompt (drawn by the table)."""
        raise NotImplementedError

    def _update_card(self) -> None:
        """Show the highlighted line's card (drawn by the table)."""
        raise NotImplementedError

    def _row(self) -> ChoiceRow | None:
        index = self.query_one("#wb-list", OptionList).highlighted
        return self.rows[index] if index is not None and index < len(self.rows) else None

    def _redraw_row(self) -> None:
        listing = self.query_one("#wb-list", OptionList)
        index = listing.highlighted
        if index is not None and index < len(self.rows):
            listing.replace_option_prompt_at_index(index, self.rows[index].text())
        self.message = ""
        self._update_prompt()

    def action_cycle(self, step: int) -> None:
        """Change the highlighted line's value."""
        row = self._row()
        if row is not None:
            row.cycle(step)
            self._redraw_row()

    def action_count(self, step: int) -> None:
        """One more (or fewer) point of damage on the highlighted character, within what remains."""
        row = self._row()
        self._typed_row = None
        if row is None:
            return
        left = self.total - sum(r.value for r in self.rows)
        if (step > 0 and left <= 0) or (step < 0 and row.value == 0):
            self.message = "No damage left to give" if step > 0 else "Already none"
            self._update_prompt()
            return
        row.index += step
        self._redraw_row()

    def _damage_row(self) -> ChoiceRow | None:
        row = self._row()
        return row if row is not None and row.kind == "count" and self.stage == "divide" else None

    def _set_damage(self, row: ChoiceRow, points: int) -> None:
        row.index = row.options.index(points)
        self._redraw_row()

    def action_digit(self, digit: int) -> None:
        """Type the highlighted character's damage: digits make a number, at most what the others leave."""
        row = self._damage_row()
        if row is None:
            return
        typed = (self._typed if self._typed_row is row else "") + str(digit)
        typed = typed.lstrip("0")  # leading zeros add nothing, so the number typed stays short
        wanted = int(typed or "0")
        most = self.total - sum(other.value for other in self.rows if other is not row)
        if wanted <= most:
            self._typed, self._typed_row = typed, row
            self._set_damage(row, wanted)
            return
        self._typed_row = None  # the next digit starts a new number
        self._set_damage(row, most)
        self.message = f"Only {most} of {self.total} left for {row.label}: it gets {most}, not {wanted}"
        self._update_prompt()

    def action_erase_digit(self) -> None:
        """Take back the last digit typed (with none typed, the highlighted character gets no damage)."""
        row = self._damage_row()
        if row is None:
            return
        typed = self._typed[:-1] if self._typed_row is row else ""
        self._typed, self._typed_row = typed, row
        self._set_damage(row, int(typed or "0"))

    def action_all_damage(self) -> None:
        """Put all the damage that remains on the highlighted character."""
        row = self._damage_row()
        if row is None:
            return
        self._typed_row = None
        left = self.total - sum(other.value for other in self.rows)
        if left <= 0:
            self.message = "No damage left to give (- or a number takes some back)"
            self._update_prompt()
            return
        self._set_damage(row, row.value + left)

    # -- yielding ---------------------------------------------------------------------------

    def action_yield_priority(self, until: str) -> None:
        """Pass now and go on passing this seat's Priority until ``until``."""
        view, seat = self.view, self.seat
        if view is None or seat is None or self.stage not in ("hand", "compose"):
            return
        self.yields[seat] = Yield.start(until, view)  # before the pass, so the next Priority finds it
        if not self._send(act.Pass()):
            del self.yields[seat]
            return
        name = view.players[seat].name
        whose = name + "'s"
        self.notify(f"{name} yields {until_words(until, whose)}: each Priority passes by itself",
                    timeout=3, markup=False)

    def action_stop_yield(self) -> None:
        """End the yield of the seat watching: its next Priority asks again."""
        seat = self.view.seat if self.view is not None else None
        if seat is not None and seat in self.yields:
            del self.yields[seat]
            self.notify("No longer yielding: your next Priority asks", timeout=3)
            self._update_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer typed amounts while dividing, and yields while holding Priority (or yielding)."""
        if action in ("digit", "erase_digit", "all_damage"):
            return self.stage == "divide" and not self.inspecting
        if action in ("yield_priority", "stop_yield") and (self.keys_hint is not None or self.inspecting):
            return False
        if action == "yield_priority":
            return self.stage in ("hand", "compose") and act.Pass() in self.legal
        if action == "stop_yield":
            watching = self.view.seat if self.view is not None else None
            return self.stage == "watch" and watching in self.yields
        return super().check_action(action, parameters)

    def action_inspect(self) -> None:
        """Look at the cards in play and the pillar's units (``i``), or go back to the choice."""
        if self.view is None:
            return
        self.inspecting = not self.inspecting
        if self.inspecting:
            self._load_looks()
        else:
            self._load(self.stage)
        self.query_one("#wb-list", OptionList).focus()
        self.refresh_bindings()

    def _load_looks(self, keep: bool = False) -> None:
        assert self.view is not None
        listing = self.query_one("#wb-list", OptionList)
        old = listing.highlighted if keep else None
        self.looks = table_looks(self.view)
        listing.clear_options()
        listing.add_options([Option(look.label) for look in self.looks] or
                            [Option(Text("Nothing on the table.", style="dim italic"), disabled=True)])
        count = listing.option_count
        listing.highlighted = min(old, count - 1) if old is not None and count else (0 if count else None)
        self._update_prompt()
        self._update_card()

    # -- playing a card or ability ---------------------------------------------------------

    def _choose_entry(self) -> None:
        index = self.query_one("#wb-list", OptionList).highlighted
        if index is None or index >= len(self.entries):
            return
        entry = self.entries[index]
        if not entry.playable:
            probe = act.PlayCard(entry.iid)
            self.message = self._reason(probe) or "The rules don't allow that now"
            self._update_prompt()
            return
        self.entry = entry
        self._load("compose")
        self.stage = "compose"

    def _unit_action(self, pay: act.Payment) -> act.PlayCard | act.Activate:
        entry = self.entry
        assert entry is not None
        tree = self.query_one(PillarTree)
        legal = tree.legal_foundations
        on = None if not legal or tree.foundation == legal[0] else tree.foundation
        targets = tuple(row.value for row in self.rows)
        if entry.ability is None:
            return act.PlayCard(entry.iid, on, targets, pay)
        return act.Activate(entry.iid, entry.ability, on, targets, pay)

    def _pay_and_play(self) -> None:
        entry, view = self.entry, self.view
        assert entry is not None and view is not None and self.seat is not None
        payments = payments_for(entry, tuple(row.value for row in self.rows))
        notes = play_notes(view, self.seat, entry.iid, entry.ability)
        if payments in ([], [act.Payment()]) and not notes.extra:  # a free play with no other cost needs no dialog
            self._send(self._unit_action(act.Payment()))
            return
        dialog = CostDialog(card_label(view, entry.iid), printed_cost(entry, view), view.players[self.seat].deck_count,
                            secedables(view, self.seat, payments), lambda pay: self._reason(self._unit_action(pay)),
                            notes)
        self.app.push_screen(dialog, self._paid)

    def _paid(self, payment: act.Payment | None) -> None:
        if payment is not None and self.entry is not None:
            self._send(self._unit_action(payment))

    # -- sending -------------------------------------------------------------------------

    def _reason(self, action: act.Action) -> str | None:
        """Why the rules refuse ``action`` now (None: they accept it)."""
        if self.seat is None:
            return "It is not your turn to choose"
        if self.checker is not None:
            return self.checker(self.seat, action)
        return None if action in self.legal else "The rules don't allow that now"

    def _send(self, action: act.Action) -> bool:
        """Post ``action`` if the rules accept it; else show their reason."""
        reason = self._reason(action)
        if reason is not None:
            self.message = reason
            self._update_prompt()
            self.notify(reason, title="Not allowed", severity="warning")
            return False
        assert self.seat is not None
        self.post_message(self.ActionChosen(self.seat, action))
        return True
