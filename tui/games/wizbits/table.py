"""Wizbits screen parts: the battlefield table and the result screen.

The battlefield draws a :class:`~engine.wizbits.views.WizbitsView`: the turn
timeline, both sides, the pillar tree, the dice log, and a choice pane on the
right whose contents follow the decision at hand (the hand and abilities while
holding Priority, then targets, foundation and the cost dialog; attackers,
blocks, assignments, damage division, discards, flip-Income targets). Every
option offered comes from the engine's legal actions and every choice is
checked by the rules (the screen's ``checker``) before it is sent. The table
also passes for a seat without asking it, when the seat yields or auto-pass
is on (see :mod:`tui.games.wizbits.yields`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine import Event, Result
from engine.core.registry import OptionSpec, OptionValue
from engine.wizbits import actions as act
from engine.wizbits.pillar.tree import BASE_UID
from engine.wizbits.state import Phase
from engine.wizbits.unit_targets import line_for_viewer
from engine.wizbits.views import WizbitsView
from saves import SessionStore
from tui.context import coven_or_none
from tui.games.base import NOT_YOUR_TURN, AutomaticChoice, GameTable, GameUI
from tui.games.lookup import CardEntry
from tui.games.wizbits import lookup
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.choices import ChoiceRow, Entry, load_stage, payments_for, row_action, secedables
from tui.games.wizbits.cost import CostDialog, play_notes
from tui.games.wizbits.decks.picker import deck_option_choices
from tui.games.wizbits.inspection import ChoiceList, Look, table_looks, unit_looks
from tui.games.wizbits.narration import NARRATION
from tui.games.wizbits.piles import PilesDialog
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.prompt import WizbitsDiceLog, inspect_text, printed_cost, prompt_text
from tui.games.wizbits.results import WizbitsResultScreen
from tui.games.wizbits.side import SidePanel, Timeline, card_label
from tui.games.wizbits.yields import (
    AUTO_NOTE,
    YIELD_NOTE,
    Yield,
    auto_pass_setting,
    keep_auto_pass,
    only_pass,
    until_words,
)
from tui.widgets.seat_private import put_index, scroll_home
from tui.widgets.styles import load_css

GAME_ID = "wizbits"

ROW_STAGES = frozenset({"compose", "attack", "block", "assign", "divide", "discard", "pending"})
"""Stages whose list holds :class:`ChoiceRow` lines the keys change."""

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


class WizbitsTable(GameTable[WizbitsView, act.Action]):
    """The battlefield: timeline, both sides, pillar tree, dice log and the choice pane."""

    DEFAULT_CSS = load_css(__file__)

    # enter is no priority binding: the choice list handles it after any arrow keys typed before it.
    BINDINGS = [
        Binding("enter", "confirm", "Choose"),
        Binding("space", "cycle(1)", "Change"),
        Binding("space", "tree('step')", "Step", show=False),
        Binding("right", "cycle(1)", "Next value", show=False),
        Binding("left", "cycle(-1)", "Previous value", show=False),
        Binding("plus,equals_sign", "count(1)", "+1"),
        Binding("minus", "count(-1)", "-1"),
        *DIVIDE_KEYS,
        Binding("x", "pass", "Pass"),
        Binding("escape", "back", "Back"),
        Binding("i", "inspect", "Inspect"),
        Binding("g", "piles(1)", "Piles"),
        Binding("g", "piles(0)", "Piles", show=False),  # the compact footer's room goes to the pane keys
        Binding("f", "foundation(1)", "Foundation"),
        Binding("f", "foundation(1, 1)", "Fdn"),  # the compact footer's short name
        Binding("F", "foundation(-1)", "Prev foundation", show=False),
        Binding("n", "tree('step')", "Step"),
        Binding("a", "tree('auto')", "Auto"),
        Binding("p", "tree('pause')", "Pause"),
        Binding("m", "toggle_step_mode(1)", "Step mode"),
        Binding("m", "toggle_step_mode(0)", "Step mode", show=False),
        # The compact footer lists the three pane keys as one entry, so the screen's own keys still fit.
        Binding("t", "pane('pillar')", "Panes", key_display="t/d/o"),
        Binding("d", "pane('dice')", "Dice", show=False),
        Binding("o", "pane('opp')", "Opponent", show=False),
        *PRIORITY_KEYS,  # last: a narrow footer leaves them to the help before the keys above
    ]

    bot_pause = True

    step_mode: reactive[bool] = reactive(True, init=False)
    """Resolution steps wait for ``n`` (or the tree's auto); off, they play by themselves after a pause."""

    compact: reactive[bool] = reactive(False, init=False)
    """The small layout: the pillar tree, dice log and opponent's detail wait behind keys."""

    stage: reactive[str] = reactive("watch", init=False)
    """The decision on show: watch, hand, compose, attack, block, assign, divide, discard or pending."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WizbitsView | None = None
        self.seat: int | None = None
        self.legal: list[Any] = []
        self.entries: list[Entry] = []
        self._entries_width = 0
        """The list width the hand rows were laid out for."""
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
        self.yields: dict[int, Yield] = {}
        """Each seat's yield at this screen (never shared between seats, never saved)."""
        self._auto_pass: bool | None = None

    def compose(self) -> ComposeResult:
        yield Timeline(id="wb-timeline")
        with Horizontal(id="wb-body"):
            with Vertical(id="wb-left"):
                yield SidePanel(id="wb-opp")
                yield SidePanel(id="wb-you")
            with Vertical(id="wb-centre"):
                yield PillarTree(id="wb-pillar", auto_pause=0.8)
                dice = WizbitsDiceLog(id="wb-dice")
                dice.border_title = "Dice"
                yield dice
            with Vertical(id="wb-right"):
                yield Static(id="wb-prompt")
                yield ChoiceList(lambda: bool(self.check_action("confirm", ())), id="wb-list")
                with VerticalScroll(id="wb-card-box"):
                    # While inspecting, what the line looked at says (a unit's targets, a character's points
                    # now) leads the card: the box scrolls, where the prompt above it would cut it.
                    yield Static(id="wb-note")
                    yield WizbitsCard(id="wb-card", empty_text="", reminders=False)

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

    # -- drawing ----------------------------------------------------------------------

    def present(self, eyes: int | None, view: WizbitsView, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view`` for ``eyes``; the game's end ends every yield."""
        if view.over:
            self.yields.clear()
        super().present(eyes, view, deciding_seat, legal)

    def show(self, view: WizbitsView, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view``; open the choice for ``deciding_seat`` if there is one."""
        old_stage = self.stage
        self.view, self.seat, self.legal = view, deciding_seat, list(legal)
        me = view.seat if view.seat is not None else 0
        names = [player.name for player in view.players]
        self.query_one(Timeline).show(view)
        self.query_one("#wb-opp", SidePanel).show(view, 1 - me)
        self.query_one("#wb-you", SidePanel).show(view, me)
        tree = self.query_one(PillarTree)
        tree.playing = self.keys_hint is None
        tree.show_view(view)
        tree.mode = "step" if view.resolving else "build"
        self.query_one(WizbitsDiceLog).seats = tuple(names)
        stage = self._stage_for(view, deciding_seat)
        self.entry, self.message = None, ""
        wish, self._wish = self._wish, None  # set by restore: this seat's own line, never the last seat's
        if self.inspecting:
            self.stage = stage
            self._load_looks(keep=wish is None)
        else:
            self._load(stage, keep=wish is None and stage == old_stage)
            self.stage = stage
        line = self._wished_line(wish, stage) if wish is not None else None
        if line is not None:
            put_index(self.query_one("#wb-list", OptionList), line)
            self._update_prompt()
            self._update_card()
        self._focus()

    def _stage_for(self, view: WizbitsView, seat: int | None) -> str:
        if seat is None:
            return "watch"
        if view.pending is not None:
            return "pending"
        phase = view.phase
        if phase in (Phase.RECONCILE_UP, Phase.RECONCILE_DOWN):
            return "discard"
        if phase in (Phase.ATTACK, Phase.BLOCK, Phase.ASSIGN, Phase.DIVIDE):
            return phase
        return "hand"

    def _load(self, stage: str, keep: bool = False) -> None:
        """Fill the list for ``stage`` (``keep``: stay on the same line)."""
        view = self.view
        assert view is not None
        listing = self.query_one("#wb-list", OptionList)
        old = listing.highlighted if keep else None
        self.rows, self.entries, self.total = load_stage(stage, view, self.seat, self.legal, self.entry)
        listing.clear_options()
        if self.rows:
            listing.add_options([Option(row.text()) for row in self.rows])
        elif self.entries:
            width = self._entries_room(listing)
            listing.add_options([Option(entry.text(view, width)) for entry in self.entries])
            self._entries_width = width
        elif stage == "compose":
            listing.add_option(Option(Text("No targets to choose.", style="dim italic"), disabled=True))
        else:
            listing.add_option(Option(Text("No cards in hand." if stage in ("watch", "hand") else "Nothing to choose.",
                                           style="dim italic"), disabled=True))
        count = listing.option_count
        listing.highlighted = min(old, count - 1) if old is not None and count else (0 if count else None)
        self._update_prompt(stage)
        self._update_card()

    def _update_prompt(self, stage: str | None = None) -> None:
        if self.view is None:
            return
        playing = None
        if self.entry is not None:
            playing = f"{card_label(self.view, self.entry.iid)} on {self._foundation_name()}"
        if self.inspecting:
            index = self.query_one("#wb-list", OptionList).highlighted
            note = self.looks[index].note if index is not None and index < len(self.looks) else ""
            self.query_one("#wb-prompt", Static).update(inspect_text("", self.compact))
            self._show_note(note)
            return
        self._show_note("")
        self.query_one("#wb-prompt", Static).update(prompt_text(
            self.view, stage or self.stage, self.rows, self.total, step_mode=self.step_mode,
            pillar_hidden=self.compact and not self.has_class("-show-pillar"), keys_hint=self.keys_hint,
            playing=playing, message=self.message, note=self.priority_note()))
        self.refresh_bindings()  # esc clears a refusal on show

    def _show_note(self, note: str) -> None:
        """Put ``note`` at the head of the card box, scrolled to its top (none: the box holds the card alone)."""
        shown = self.query_one("#wb-note", Static)
        shown.update(Text(note, style="italic"))
        shown.display = bool(note)
        self.query_one("#wb-card-box").scroll_home(animate=False, immediate=True)

    def _update_card(self) -> None:
        listing = self.query_one("#wb-list", OptionList)
        index = listing.highlighted
        card_id = None
        if self.inspecting:
            card_id = self.looks[index].card_id if index is not None and index < len(self.looks) else None
        elif index is not None and self.rows and index < len(self.rows):
            card_id = self.rows[index].card_id or (self.entry.card_id if self.entry else None)
        elif index is not None and index < len(self.entries):
            card_id = self.entries[index].card_id
        elif self.entry is not None:
            card_id = self.entry.card_id
        self.query_one(WizbitsCard).show(card_id)

    def _focus(self) -> None:
        """The pillar tree while a pillar resolves (if it is on show), else the choice list."""
        tree_shown = not self.compact or self.has_class("-show-pillar")
        resolving = self.stage == "watch" and self.view is not None and self.view.resolving
        target = self.query_one(PillarTree) if resolving and tree_shown else self.query_one("#wb-list", OptionList)
        if self.screen.focused is not target:
            target.focus()

    def _foundation_name(self) -> str:
        tree = self.query_one(PillarTree)
        if tree.pillar is None:
            return "the pillar"
        if tree.foundation == BASE_UID:
            return "the base"
        unit = next((u for u in tree.pillar.units() if u.uid == tree.foundation), None)
        return unit.name if unit is not None else "the pillar"

    @on(OptionList.OptionHighlighted)
    def _option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.message:  # a refusal was about the line left behind
            self.message = ""
        self._update_prompt()
        self._update_card()

    @on(OptionList.OptionSelected)
    def _option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on the list: act on the line the list itself has highlighted."""
        event.stop()
        listing = self.query_one("#wb-list", OptionList)
        if listing.highlighted != event.option_index:
            listing.highlighted = event.option_index
        self.action_confirm()

    @on(PillarTree.UnitHighlighted)
    def _unit_highlighted(self, event: PillarTree.UnitHighlighted) -> None:
        """While the tree has the focus, the card pane shows the card of the unit under its cursor."""
        event.stop()
        if self.view is None or not self.query_one(PillarTree).has_focus_within or event.uid is None:
            return
        look = next((look for look in unit_looks(self.view) if look.uid == event.uid), None)
        if look is not None:
            self.query_one(WizbitsCard).show(look.card_id)

    @on(PillarTree.FoundationChanged)
    def _foundation_changed(self, event: PillarTree.FoundationChanged) -> None:
        event.stop()
        if self.stage == "compose":
            self._update_prompt()

    @on(PillarTree.StepRequested)
    def _step_asked(self, event: PillarTree.StepRequested) -> None:
        event.stop()
        self.post_message(self.StepRequested())

    def show_events(self, events: Sequence[Event]) -> None:
        """Checks go to the dice log; a seat that takes back a move wants to choose again, so its yield ends
        (or it would pass at once)."""
        if self.defer_until_mounted(self.show_events, events):
            return
        for event in events:
            if event.kind == "undo" and event.data.get("seat") in self.yields:  # engine.core.undo's event
                del self.yields[event.data["seat"]]
        self.query_one(WizbitsDiceLog).show_events(events)

    def clear_events(self) -> None:
        """Forget the dice shown (the replay jumping back)."""
        self.query_one(WizbitsDiceLog).clear_checks()

    def plays_by_itself(self, action: Any) -> bool:
        """Reconcile, tests and the end of turn play by themselves; resolution steps too when step mode is off."""
        if not isinstance(action, act.Step):
            return False
        return action.step != "resolve" or not self.step_mode

    def on_resize(self) -> None:
        self.compact = self.size.width < 100 or self.size.height < 20
        self.call_after_refresh(self._fit_entries)

    @on(ChoiceList.Resized)
    def _list_resized(self) -> None:
        self.call_after_refresh(self._fit_entries)

    @staticmethod
    def _entries_room(listing: OptionList) -> int:
        """The cells a hand row has: the list's width, less the scrollbar a long hand brings (if not there yet)."""
        width = listing.scrollable_content_region.width
        return max(width - (0 if listing.show_vertical_scrollbar else 1), 0) if width else 0  # 0: not laid out

    def _fit_entries(self) -> None:
        """Lay the hand's rows out again for the list's new width (its names whole first, then the categories)."""
        listing = self.query_one("#wb-list", OptionList)
        if self.view is not None and self.entries and not self.rows and not self.inspecting \
                and self._entries_room(listing) != self._entries_width:
            self._load(self.stage, keep=True)

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")
        self.query_one("#wb-opp", SidePanel).brief = compact and not self.has_class("-show-opp")
        # The prompt names the keys of the layout (t shows the hidden tree): re-word it in the same layout pass.
        self._update_prompt()
        self.refresh_bindings()

    def watch_stage(self) -> None:
        self.query_one("#wb-list").set_class(self.stage in ROW_STAGES, "-rows")  # a chosen value wraps, never cut
        self.refresh_bindings()

    def watch_step_mode(self) -> None:
        self._update_prompt()
        self.refresh_bindings()

    # -- changing the lines of a choice ---------------------------------------------------

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

    # -- yielding and auto-pass -------------------------------------------------------------

    @property
    def auto_pass(self) -> bool:
        """Whether a Priority with nothing to do but pass passes by itself (the account's setting)."""
        if self._auto_pass is None:
            context = coven_or_none(self)
            self._auto_pass = auto_pass_setting(context.store, context.account) if context else True
        return self._auto_pass

    def automatic_choice(self, seat: int, view: WizbitsView, legal: Sequence[Any]) -> AutomaticChoice | None:
        """Pass for ``seat`` while it yields and may pass, or when passing is all it may do and auto-pass is on."""
        held = self.yields.get(seat)
        if held is not None and (held.over(view, seat) or act.Pass() not in legal):
            del self.yields[seat]  # met, or another decision: the seat is asked
            held = None
        if held is not None:
            return AutomaticChoice(act.Pass(), YIELD_NOTE, asked_for=True)
        if only_pass(legal) and self.auto_pass:
            return AutomaticChoice(act.Pass(), AUTO_NOTE)
        return None

    def priority_note(self) -> str:
        """The seat looking's yield, or the auto-pass setting, as the prompt shows it while watching."""
        view = self.view
        if view is None or self.keys_hint is not None:
            return ""
        held = self.yields.get(view.seat) if view.seat is not None else None
        if held is not None:
            return f"Yielding {until_words(held.until)} (y stops)."
        return f"Auto-pass {'on' if self.auto_pass else 'off'} (P)."

    def action_switch_auto_pass(self, _shown: int = 1) -> None:
        """Switch auto-pass on or off for this account, kept for its next games."""
        self._auto_pass = not self.auto_pass
        words = "on: Priority with nothing to do but pass passes by itself" if self._auto_pass else \
            "off: every Priority asks"
        context = coven_or_none(self)
        problem = keep_auto_pass(context.store, context.account, self._auto_pass) if context else None
        self.notify(f"Auto-pass {words}" + (f". {problem}" if problem else ""), timeout=4, markup=False,
                    severity="warning" if problem else "information")
        self._update_prompt()

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

    # -- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer each key only where it does something (typed amounts while dividing, yields while holding Priority)."""
        stage = self.stage
        tree = self.query_one(PillarTree) if self.is_mounted else None
        if action == "back":
            return stage == "compose" or self.inspecting or bool(self.message)
        if action in ("confirm", "cycle", "count", "pass", "foundation") and self.inspecting:
            return False
        if action == "confirm":
            return stage != "watch"
        if action == "cycle":
            return stage in ROW_STAGES and stage != "divide" and bool(self.rows)
        if action == "count":
            return stage == "divide"
        if action == "pass":
            return stage in ("hand", "compose")
        if action == "foundation":
            if tree is None or stage not in ("hand", "compose") or len(tree.legal_foundations) < 2:
                return False
            # foundation(1, 1) is the compact footer's entry, foundation(1) the full one; F works in both.
            return parameters == (-1,) or (len(parameters) == 2) == self.compact
        if action == "tree":
            name = str(parameters[0]) if parameters else ""
            return tree is not None and self.step_mode and bool(tree.check_action(name, ()))
        if action == "toggle_step_mode":
            # No step mode to switch in the replay. The compact footer has no room for m (the prompt names it
            # while a pillar resolves): toggle_step_mode(0) is its unlisted twin.
            if self.keys_hint is not None:
                return False
            return bool(parameters and parameters[0]) != self.compact
        if action == "pane":
            return self.compact
        if action == "piles":
            # piles(1) is the full footer's entry; in the compact one, piles(0) answers g unlisted (? lists it).
            return bool(parameters and parameters[0]) != self.compact
        if action in ("digit", "erase_digit", "all_damage"):
            return self.stage == "divide" and not self.inspecting
        if action in ("yield_priority", "stop_yield") and (self.keys_hint is not None or self.inspecting):
            return False
        if action == "yield_priority":
            return self.stage in ("hand", "compose") and act.Pass() in self.legal
        if action == "stop_yield":
            watching = self.view.seat if self.view is not None else None
            return self.stage == "watch" and watching in self.yields
        if action == "switch_auto_pass":
            return self.keys_hint is None and bool(parameters and parameters[0]) == self.auto_pass
        return True

    def action_piles(self, _shown: int = 1) -> None:
        """Open both seats' discard piles and seceded cards (``g``): public, so a spectator may look too."""
        if self.view is not None:
            self.app.push_screen(PilesDialog(self.view))

    def action_pane(self, pane: str) -> None:
        """Show or hide a secondary pane in the compact layout."""
        self.toggle_class(f"-show-{pane}")
        self._update_prompt()
        self._focus()
        if pane == "opp":
            self.query_one("#wb-opp", SidePanel).brief = not self.has_class("-show-opp")

    def action_tree(self, name: str) -> None:
        """Pass ``n`` / ``a`` / ``p`` to the pillar tree."""
        getattr(self.query_one(PillarTree), f"action_{name}")()
        self.refresh_bindings()

    def action_foundation(self, step: int, _compact: int = 0) -> None:
        """Cycle the foundation the next unit goes on."""
        self.query_one(PillarTree).action_cycle_foundation(step)
        self._update_prompt()

    def action_toggle_step_mode(self, _shown: int = 1) -> None:
        """Step mode on or off; off, a waiting resolution step plays at once and the rest by themselves."""
        self.step_mode = not self.step_mode
        self.notify("Step mode on: n resolves one step" if self.step_mode
                    else "Step mode off: the pillar resolves by itself", timeout=2)
        if not self.step_mode:
            self.query_one(PillarTree).auto = False
            if self.view is not None and self.view.resolving:
                self.post_message(self.StepRequested())

    def action_back(self) -> None:
        """Leave inspecting, or the card or ability being played, or clear the rules' last refusal."""
        self.message = ""
        if self.inspecting:
            self.action_inspect()
        elif self.stage == "compose":
            self.entry = None
            self._load("hand")
            self.stage = "hand"
        else:
            self._update_prompt()

    def action_pass(self) -> None:
        """Pass Priority."""
        self._send(act.Pass())

    def action_confirm(self) -> None:
        """Enter: take the highlighted card or ability, or send the choice on show."""
        if self.stage == "hand":
            self._choose_entry()
        elif self.stage == "compose":
            self._pay_and_play()
        elif self.stage in ROW_STAGES:
            self._send(row_action(self.stage, self.rows))

    # -- inspecting --------------------------------------------------------------------------

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
                            notes, ability=entry.ability is not None)
        self.app.push_screen(dialog, self._paid)

    def _paid(self, payment: act.Payment | None) -> None:
        if payment is not None and self.entry is not None:
            self._send(self._unit_action(payment))

    # -- sending -------------------------------------------------------------------------

    def _reason(self, action: act.Action) -> str | None:
        """Why the rules refuse ``action`` now (None: they accept it)."""
        if self.seat is None:
            return NOT_YOUR_TURN
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


class WizbitsUI(GameUI[WizbitsView]):
    """Factories for the Wizbits battlefield and its result screen."""

    narration = NARRATION

    def card_index(self) -> Sequence[CardEntry]:
        """Every card of the game, for the card lookup."""
        return lookup.card_index()

    def card_now(self, view: WizbitsView, seat: int | None, key: str) -> str | None:
        """Where card ``key`` stands in ``seat``'s view, with its current values."""
        return lookup.card_now(view, seat, key)

    def make_table(self) -> WizbitsTable:
        """A fresh battlefield."""
        return WizbitsTable()

    def option_choices(self, option: OptionSpec, store: SessionStore | None) -> list[tuple[str, OptionValue]]:
        """A deck option offers the starter decks, then the player's legal saved decks by name."""
        return deck_option_choices(GAME_ID, option, store)

    def game_result(self, view: WizbitsView, result: Result, events: Sequence[Event]) -> Screen[None]:
        """The final screen."""
        return WizbitsResultScreen(view, result, events)

    def event_line(self, event: Event, viewer: int | None) -> str:
        """A play's or ability's targets that are ``viewer``'s own read "your …" ("→ your Morning Chorus")."""
        return line_for_viewer(event.text, event.data.get("targets"), viewer)
