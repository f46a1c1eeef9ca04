"""The Wizbits Pillar drawn as a tree you can build on and step through.

:class:`PillarTree` draws a pillar it is given (a :class:`Pillar` or the JSON
dict a view carries) and posts messages; it knows no rule. Facts such as the
legal foundations, which units resolve next and in what precedence come from
the engine (:meth:`Pillar.foundations`, :meth:`Pillar.next_group`,
:func:`describe_group`); the owning screen applies each step and calls
:meth:`PillarTree.show` with the new pillar, so resolved units leave the tree.

Layout: the top of the tree is the top of the pillar. Each branch lists its
units highest first; a subpillar is a group drawn just above the unit it
stands on, so every line stands above what it was built on. The base comes
last, and Continue units (Constructed only) under it at height -1.

Its parts: :mod:`~tui.games.wizbits.pillar_tree.stepping` (the two modes, the step
key and the auto-resolve clock), :mod:`~tui.games.wizbits.pillar_tree.memory` (the
Reverse Pillars opened by hand, kept per seat), :mod:`~tui.games.wizbits.pillar_tree.lines`
(what the lines and sentences say) and :mod:`~tui.games.wizbits.pillar_tree.text`
(fitting them to a width, and the outline inside).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeAlias

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static, Tree

from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.pillar.text import subpillar_word
from engine.wizbits.pillar.tree import BASE_UID, Pillar, Unit
from engine.wizbits.unit_targets import TargetView, WaitingTrigger
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.pillar_tree import messages
from tui.games.wizbits.pillar_tree.lines import (
    aim_texts,
    cursor_detail,
    explanation,
    line_marks,
    no_pillar,
    title_line,
    tree_line,
    waiting_line,
)
from tui.games.wizbits.pillar_tree.memory import Memo, ReversePillars
from tui.games.wizbits.pillar_tree.stepping import Mode, SteppingTree
from tui.games.wizbits.pillar_tree.text import PillarOutline, PillarReading, Row, Styles
from tui.widgets.styles import load_css


class PillarTree(SteppingTree):
    """A pillar as a tree: highlights where the next unit goes, or what resolves next.

    Keys: ``f`` / ``F`` cycle the foundation while building, ``n`` asks for one
    resolution step, ``a`` auto-resolves with a pause, ``p`` pauses, ``e``
    (or space) opens a card's Reverse Pillar, ``enter`` on a foundation picks it.
    """

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("f", "cycle_foundation(1)", "Foundation"),
        Binding("F", "cycle_foundation(-1)", "Prev foundation", show=False),
        Binding("n", "step", "Step"),
        Binding("a", "auto", "Auto"),
        Binding("p", "pause", "Pause"),
        Binding("e", "toggle_reverse", "Reverse Pillar"),
    ]

    COMPONENT_CLASSES = {
        "pillar-tree--name",
        "pillar-tree--facts",
        "pillar-tree--mark",
        "pillar-tree--tag",
        "pillar-tree--foundation",
        "pillar-tree--resolving",
        "pillar-tree--countered",
    }
    """
    | Class | Description |
    | :- | :- |
    | `pillar-tree--name` | A unit's name. |
    | `pillar-tree--facts` | Owner, kind, height and IPH. |
    | `pillar-tree--mark` | The mark column (◆ foundation, #n precedence). |
    | `pillar-tree--tag` | "Current Foundation", "tip" and the like. |
    | `pillar-tree--foundation` | The foundation the next unit will be played on. |
    | `pillar-tree--resolving` | Units about to resolve together. |
    | `pillar-tree--countered` | Countered units still shown because units still standing rest on them. |
    """

    Signal: TypeAlias = messages.Signal
    FoundationChanged: TypeAlias = messages.FoundationChanged
    StepRequested: TypeAlias = messages.StepRequested
    AutoToggled: TypeAlias = messages.AutoToggled
    UnitHighlighted: TypeAlias = messages.UnitHighlighted

    foundation: reactive[int] = reactive(BASE_UID)
    """The uid the next unit will be played on while building; always a legal foundation."""

    rtf: reactive[int] = reactive(1)
    """The Rules Text Format: 1 says "Subpillar", 2 says "Spire"."""

    def __init__(self, pillar: Pillar | Mapping[str, Any] | None = None, *, seats: Sequence[str] = (),
                 cards: Mapping[int, str] | None = None, rtf: int = 1, mode: Mode = "build",
                 targets: Mapping[int, Sequence[TargetView]] | None = None, waiting: Sequence[WaitingTrigger] = (),
                 viewer: int | None = None,
                 auto_pause: float = 1.0, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(auto_pause=auto_pause, name=name, id=id, classes=classes)
        self.pillar: Pillar | None = None
        """The pillar on show (a private copy)."""
        self.seats: tuple[str, ...] = tuple(seats)
        """Seat names, by seat number."""
        self.cards: dict[int, str] = dict(cards or {})
        """Card id of each known instance (a view's ``cards``), for Reverse Pillars."""
        self.targets: dict[int, tuple[TargetView, ...]] = {uid: tuple(found) for uid, found in (targets or {}).items()}
        """Each unit's chosen targets, by uid (a view's ``targets``)."""
        self.waiting: tuple[WaitingTrigger, ...] = tuple(waiting)
        """Triggers waiting for the next pillar, shown in a section of their own."""
        self.viewer = viewer
        """The seat looking (its targets read "your ..."); None: a spectator."""
        self.playing = True
        """False in a replay: no foundation to choose, and no building hint in the explanation (stepping stays)."""
        self._reverse = ReversePillars()
        self.set_reactive(PillarTree.rtf, self.validate_rtf(rtf))
        self.set_reactive(PillarTree.mode, self.validate_mode(mode))
        self._set_pillar(pillar)
        self.set_reactive(PillarTree.foundation, self._read.follow(None) if self._read else BASE_UID)

    def compose(self) -> ComposeResult:
        yield Static(id="pt-title")
        yield PillarOutline(self.row_text, id="pt-tree")
        # A long "why" scrolls in its box, its scrollbar the mark that more follows, rather than being cut.
        with VerticalScroll(id="pt-info-box", can_focus=False):
            yield Static(id="pt-info")
        yield Static(id="pt-detail")

    def on_mount(self) -> None:
        self._mounted = True
        self._rebuild()

    # --- public API ---------------------------------------------------------------------------

    def show(self, pillar: Pillar | Mapping[str, Any] | None, *, cards: Mapping[int, str] | None = None,
             seats: Sequence[str] | None = None, rtf: int | None = None,
             targets: Mapping[int, Sequence[TargetView]] | None = None,
             waiting: Sequence[WaitingTrigger] | None = None, viewer: int | None | Literal["keep"] = "keep") -> None:
        """Draw this pillar; the other arguments replace what was given before when not None ("keep" for ``viewer``).

        While building, the foundation stays put if it is still legal, else
        moves to the new tip of its branch, else to the main Current Foundation.
        """
        old = self.foundation
        if cards is not None:
            self.cards = dict(cards)
        if seats is not None:
            self.seats = tuple(seats)
        if targets is not None:
            self.targets = {uid: tuple(found) for uid, found in targets.items()}
        if waiting is not None:
            self.waiting = tuple(waiting)
        if viewer != "keep":
            self.viewer = viewer
        self._set_pillar(pillar)
        self._waiting = False
        if rtf is not None:
            self.set_reactive(PillarTree.rtf, self.validate_rtf(rtf))
        # Redraw before the watchers run, so none of them looks for a unit that has left.
        self.set_reactive(PillarTree.foundation, self._read.follow(old) if self._read else BASE_UID)
        self._rebuild()
        if self.foundation != old:
            self.post_message(self.FoundationChanged(self, self.foundation))
        if self.auto and not self.next_group:
            self.auto = False

    def show_view(self, view: WizbitsView) -> None:
        """Draw a Wizbits view's pillar with its seat names, cards, RTF, targets and waiting triggers."""
        self.show(view.pillar, cards=view.cards, seats=[player.name for player in view.players], rtf=view.rtf,
                  targets=view.targets, waiting=view.waiting, viewer=view.seat)

    @property
    def legal_foundations(self) -> list[int]:
        """The engine's legal foundations: the main Current Foundation, then each subpillar tip by age."""
        return self.pillar.foundations() if self.pillar is not None else []

    @property
    def next_group(self) -> tuple[Unit, ...]:
        """The units that resolve next, in increasing precedence (the engine's order)."""
        return self.pillar.next_group() if self.pillar is not None else ()

    @property
    def explanation(self) -> str:
        """The line under the tree: where the next unit goes, or why the next step resolves as it does."""
        if self._read is None:
            return no_pillar(len(self.waiting))
        return explanation(self._read, self.mode, self.next_group, self.rtf, self.foundation, self.legal_foundations,
                           hint=self.playing, cards=self.cards)

    def is_expanded(self, uid: int) -> bool:
        """Whether unit ``uid``'s Reverse Pillar is open."""
        return self._reverse.is_open(uid)

    def set_expanded(self, uid: int, expanded: bool = True) -> None:
        """Open or close unit ``uid``'s Reverse Pillar (nothing happens for other units)."""
        self._reverse.set_open(uid, expanded)

    def remember(self) -> Memo:
        """What one seat did to the tree: its foundation and the Reverse Pillars it opened or closed by hand."""
        return self._reverse.keep(self.foundation)

    def restore(self, memo: Memo | None) -> None:
        """Put back what :meth:`remember` kept for the seat now looking (None: fresh, as a new tree is).

        The foundation stays only if it is still legal, as in :meth:`show`; the tree scrolls to its top.
        """
        target = self._read.follow(self._reverse.take(memo)) if self._read else BASE_UID
        if target != self.foundation:
            self.foundation = target
        self._rebuild()
        if self._mounted:
            self.query_one(PillarOutline).scroll_home(animate=False, immediate=True)

    @property
    def cursor_uid(self) -> int | None:
        """The unit under the cursor (the unit owning an Income line), or None."""
        node = self.query_one(PillarOutline).cursor_node if self._mounted else None
        row = node.data if node is not None else None
        return row.uid if row is not None and row.kind in ("unit", "base", "income") else None

    # --- drawing ------------------------------------------------------------------------------

    def row_text(self, row: Row, width: int) -> Text:
        """One tree line for ``row`` in ``width`` cells (0: no limit), styled for its state."""
        styles = Styles(*(self.get_component_rich_style(f"pillar-tree--{part}", partial=True)
                          for part in ("name", "facts", "mark", "tag")))
        if row.kind in ("waiting", "waiting-group"):
            return waiting_line(row, self.waiting, self.seats, width, styles)
        mark, tag, highlight = "", "", ""
        if row.kind in ("unit", "base"):
            mark, tag, highlight = line_marks(row.uid, self.mode, self.foundation, self.next_group, self._tag(row.uid))
        text, highlight = tree_line(row, width, styles, self._reading(), self.seats, self.cards, self.rtf,
                                    mark, tag, highlight, self._aim(row.uid) if row.kind == "unit" else ("", ""))
        if highlight:
            text.stylize(self.get_component_rich_style(f"pillar-tree--{highlight}", partial=True))
        return text

    def _rebuild(self) -> None:
        if not self._mounted:
            return
        tree = self.query_one(PillarOutline)
        cursor = tree.cursor_node.data if tree.cursor_node is not None else None
        resolving = {unit.uid for unit in self.next_group} if self.mode == "step" else set()
        nodes = self._reverse.nodes = tree.fill(self._read, self.cards, lambda uid: self._reverse.starts_open(
            uid, resolving), len(self.waiting))
        target = self._focus_uid()
        node = nodes.get(target) if target is not None else None
        if node is None and cursor is not None:
            node = nodes.get(cursor.uid)
        tree.move_cursor(node)
        self._update_texts()
        self.refresh_bindings()

    def _update_texts(self) -> None:
        countered = self._read.countered_shown if self._read is not None else 0
        self.query_one("#pt-title", Static).update(title_line(self.mode, self.auto, self.pillar, self.rtf, countered))
        self.query_one("#pt-info", Static).update(Text(self.explanation, style="italic"))
        self._update_detail()

    def _update_detail(self) -> None:
        node = self.query_one(PillarOutline).cursor_node
        row = node.data if node is not None else None
        aimed = self._aim(row.uid)[0] if row is not None else ""
        self.query_one("#pt-detail", Static).update(cursor_detail(row, self._read, self.waiting, self.seats,
                                                                  self.cards, self.rtf, aimed))

    # --- actions, watchers and events ---------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (allowed := self.stepping_allows(action)) is not None:
            return allowed
        if action == "cycle_foundation":
            return self.playing and self.mode == "build" and len(self.legal_foundations) > 1
        if action == "toggle_reverse":
            return self._reverse.node(self.cursor_uid) is not None
        return True

    def action_cycle_foundation(self, step: int) -> None:
        """Move the foundation to the next (``1``) or previous (``-1``) legal one."""
        legal = self.legal_foundations
        if self.mode != "build" or len(legal) < 2:
            return
        index = legal.index(self.foundation) if self.foundation in legal else 0
        self.foundation = legal[(index + step) % len(legal)]

    def action_toggle_reverse(self) -> None:
        """Open or close the Reverse Pillar of the unit under the cursor."""
        node = self._reverse.node(self.cursor_uid)
        if node is not None and node.data is not None:
            self.set_expanded(node.data.uid, not node.is_expanded)

    def validate_rtf(self, rtf: int) -> int:
        subpillar_word(rtf)  # raises UnknownRtfError for anything but 1 or 2
        return rtf

    def validate_foundation(self, uid: int) -> int:
        if self.pillar is not None and not self.pillar.is_foundation(uid):
            raise ValueError(f"unit {uid} is not a legal foundation; legal: {self.legal_foundations}")
        return uid

    def watch_foundation(self, uid: int) -> None:
        self.post_message(self.FoundationChanged(self, uid))
        if self.mode == "build":
            self._rebuild()

    def watch_rtf(self) -> None:
        self._rebuild()

    @on(Tree.NodeHighlighted)
    def _node_highlighted(self, event: Tree.NodeHighlighted[Row]) -> None:
        """Show the highlighted unit's detail and tell the screen which unit it is."""
        event.stop()
        self._update_detail()
        self.refresh_bindings()
        self.post_message(self.UnitHighlighted(self, self.cursor_uid))

    @on(Tree.NodeSelected)
    def _node_selected(self, event: Tree.NodeSelected[Row]) -> None:
        """Enter on a legal foundation picks it while building; on a Reverse Pillar it opens or closes it."""
        event.stop()
        row = event.node.data
        if row is None:
            return
        if self.mode == "build" and row.kind in ("unit", "base") and self.pillar is not None \
                and self.pillar.is_foundation(row.uid):
            self.foundation = row.uid
        elif event.node.allow_expand:
            self.set_expanded(row.uid, not event.node.is_expanded)

    @on(Tree.NodeExpanded)
    def _node_expanded(self, event: Tree.NodeExpanded[Row]) -> None:
        """Remember that the player opened this unit's Reverse Pillar."""
        event.stop()
        self._reverse.note_node(event.node, True)

    @on(Tree.NodeCollapsed)
    def _node_collapsed(self, event: Tree.NodeCollapsed[Row]) -> None:
        """Remember that the player closed this unit's Reverse Pillar."""
        event.stop()
        self._reverse.note_node(event.node, False)

    # --- reading the pillar -------------------------------------------------------------------

    def _set_pillar(self, pillar: Pillar | Mapping[str, Any] | None) -> None:
        if pillar is None or isinstance(pillar, Pillar):
            self.pillar = pillar.copy() if pillar is not None else None
        else:
            self.pillar = parse_pillar(dict(pillar))
        self._read = PillarReading(self.pillar) if self.pillar is not None else None

    def _reading(self) -> PillarReading:
        assert self._read is not None, "no pillar is on show"
        return self._read

    def _aim(self, uid: int) -> tuple[str, str]:
        return aim_texts(self.targets.get(uid, ()), self.seats, self.viewer)

    def _tag(self, uid: int) -> str:
        return self._read.tag(uid, self.rtf) if self._read is not None else ""

    def _focus_uid(self) -> int | None:
        if self.mode == "step":
            group = self.next_group
            return group[-1].uid if group else None
        return self.foundation
