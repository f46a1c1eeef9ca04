"""Wizbits screen parts: the battlefield table and the result screen.

The battlefield draws a :class:`~engine.wizbits.views.WizbitsView`: the turn
timeline, both sides, the pillar tree, the dice log, and a choice pane on the
right whose contents follow the decision at hand (the hand and abilities while
holding Priority, then targets, foundation and the cost dialog; attackers,
blocks, assignments, damage division, discards, flip-Income targets). Every
option offered comes from the engine's legal actions and every choice is
checked by the rules (the screen's ``checker``) before it is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
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
from tui.games.base import GameUI
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.choices import load_stage, row_action
from tui.games.wizbits.choosing import DIVIDE_KEYS, PRIORITY_KEYS, ChoosingTable
from tui.games.wizbits.decks.picker import deck_option_choices
from tui.games.wizbits.inspection import ChoiceList, unit_looks
from tui.games.wizbits.narration import NARRATION
from tui.games.wizbits.piles import PilesDialog
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.prompt import WizbitsDiceLog, inspect_text, prompt_text
from tui.games.wizbits.results import WizbitsResultScreen
from tui.games.wizbits.side import SidePanel, Timeline, card_label
from tui.widgets.seat_private import put_index
from tui.widgets.styles import load_css

GAME_ID = "wizbits"

ROW_STAGES = frozenset({"compose", "attack", "block", "assign", "divide", "discard", "pending"})
"""Stages whose list holds :class:`ChoiceRow` lines the keys change."""


class WizbitsTable(ChoosingTable):
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
                    yield WizbitsCard(id="wb-card", empty_text="", reminders=False)

    # -- drawing ----------------------------------------------------------------------

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
            listing.add_options([Option(entry.text(view)) for entry in self.entries])
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
            self.query_one("#wb-prompt", Static).update(inspect_text(note, self.compact))
            return
        self.query_one("#wb-prompt", Static).update(prompt_text(
            self.view, stage or self.stage, self.rows, self.total, step_mode=self.step_mode,
            pillar_hidden=self.compact and not self.has_class("-show-pillar"), keys_hint=self.keys_hint,
            playing=playing, message=self.message, note=self.priority_note()))
        self.refresh_bindings()  # esc clears a refusal on show

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

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.message:  # a refusal was about the line left behind
            self.message = ""
        self._update_prompt()
        self._update_card()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on the list: act on the line the list itself has highlighted."""
        event.stop()
        listing = self.query_one("#wb-list", OptionList)
        if listing.highlighted != event.option_index:
            listing.highlighted = event.option_index
        self.action_confirm()

    def on_pillar_tree_unit_highlighted(self, event: PillarTree.UnitHighlighted) -> None:
        """While the tree has the focus, the card pane shows the card of the unit under its cursor."""
        event.stop()
        if self.view is None or not self.query_one(PillarTree).has_focus_within or event.uid is None:
            return
        look = next((look for look in unit_looks(self.view) if look.uid == event.uid), None)
        if look is not None:
            self.query_one(WizbitsCard).show(look.card_id)

    def on_pillar_tree_foundation_changed(self, event: PillarTree.FoundationChanged) -> None:
        event.stop()
        if self.stage == "compose":
            self._update_prompt()

    def on_pillar_tree_step_requested(self, event: PillarTree.StepRequested) -> None:
        event.stop()
        self.post_message(self.StepRequested())

    def show_events(self, events: Sequence[Event]) -> None:
        """Checks go to the dice log."""
        if self.defer_until_mounted(self.show_events, events):
            return
        super().show_events(events)
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

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")
        self.query_one("#wb-opp", SidePanel).brief = compact and not self.has_class("-show-opp")
        self.refresh_bindings()

    def watch_stage(self) -> None:
        self.query_one("#wb-list").set_class(self.stage in ROW_STAGES, "-rows")  # a chosen value wraps, never cut
        self.refresh_bindings()

    def watch_step_mode(self) -> None:
        self._update_prompt()
        self.refresh_bindings()

    # -- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer each key only where it does something."""
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
        return super().check_action(action, parameters)

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

class WizbitsUI(GameUI[WizbitsView]):
    """Factories for the Wizbits battlefield and its result screen."""

    narration = NARRATION

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
