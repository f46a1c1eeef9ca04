"""The Wizbits battlefield's side panels and turn timeline, plus the names every pane shares.

:class:`SidePanel` draws one seat from a :class:`~engine.wizbits.views.WizbitsView`:
its Main Character's Strength, Will and Magic as die levels with the SCN and
the damage in it, the other characters, the Non-Elements, seceded cards with
their flip abilities, and the deck, discard and hand counts. :class:`Timeline`
is the turn-structure bar with the current phase lit and who holds Priority.
Both only read the view; they know no rule.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.visual import visualize
from textual.widget import Widget
from textual.widgets import Static

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.dice import die_level
from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.state import Phase
from engine.wizbits.terms import Attribute
from engine.wizbits.text import ability_text
from engine.wizbits.unit_targets import threatened
from engine.wizbits.views import PermanentView, PlayerView, WizbitsView
from tui.games.wizbits import side_brief
from tui.games.wizbits.card import ELEMENT_COLOURS, ELEMENT_GLYPHS
from tui.safe_text import markup_safe
from tui.widgets.styles import load_css

THREAT_MARK = side_brief.THREAT_MARK
"""Marks a card in play that a unit on the Pillar targets (a glyph, so it never rests on colour alone)."""


def card_label(view: WizbitsView, iid: int | None) -> str:
    """A card instance's name, or "?" when the viewer can't identify it ("none" for no target)."""
    if iid is None:
        return "none"
    card_id = view.cards.get(iid)
    return CARDS_BY_ID[card_id].name if card_id in CARDS_BY_ID else "?"


def unit_label(view: WizbitsView, uid: int | None) -> str:
    """A pillar unit's name and owner, e.g. ``"Sunder (Bo)"``."""
    if uid is None or view.pillar is None:
        return "none"
    for unit in parse_pillar(dict(view.pillar)).units():
        if unit.uid == uid:
            return f"{unit.name} ({view.players[unit.owner].name})"
    return f"unit {uid}"


def owned_label(view: WizbitsView, iid: int | None) -> str:
    """A card in play with its owner's name, e.g. ``"Ember Pup (Bo)"``."""
    if iid is None:
        return "none"
    for index, player in enumerate(view.players):
        if any(permanent.iid == iid for permanent in player.in_play):
            return f"{card_label(view, iid)} ({view.players[index].name})"
    return card_label(view, iid)


def points_text(permanent: PermanentView) -> str:
    """``"S d8 W d6 M d10 SCN 9 (2 dmg)"``: die levels, and how much of the SCN is damage."""
    points = permanent.points
    if points is None:
        return ""
    dice = f"S d{die_level(points.strength)} W d{die_level(points.will)} M d{die_level(points.magic)}"
    damage = f" ({permanent.damage} dmg)" if permanent.damage else ""
    return f"{dice} SCN {points.scn}{damage}"


def _name(permanent: PermanentView) -> Text:
    card = CARDS_BY_ID[permanent.card_id]
    return Text(f"{ELEMENT_GLYPHS[card.element]} {card.name}", style=f"bold {ELEMENT_COLOURS[card.element]}")


def counts_text(player: PlayerView, width: int = 0) -> str:
    """Deck, discard and hand counts in ``width`` cells (0: no limit), on two lines when one is too narrow."""
    deck, discard, hand = player.deck_count, len(player.discard), player.hand_count
    for form in (f"Deck {deck}  Disc {discard}  Hand {hand}", f"Deck {deck} Disc {discard} Hand {hand}"):
        if not width or len(form) <= width:
            return form
    return f"Deck {deck}  Disc {discard}\nHand {hand}"


def side_text(view: WizbitsView, seat: int, *, brief: bool = False, width: int = 0) -> Text:
    """One seat's side as lines: counts, ★ Main Character, • characters, ▪ Non-Elements, ⟲ seceded cards.

    A card that a unit on the Pillar targets is marked ``◎ targeted`` while that unit stands.

    ``brief`` keeps only the counts and the Main Character; ``width`` fits the counts line (0: no limit).
    """
    return Text("\n").join(part for _, part in side_parts(view, seat, brief=brief, width=width))


def side_parts(view: WizbitsView, seat: int, *, brief: bool = False, width: int = 0) -> list[tuple[int | None, Text]]:
    """:func:`side_text` piece by piece: ``(iid, lines)`` for each card in play, ``(None, lines)`` for the rest.

    The pieces let a panel tell which cards sit below its visible rows.
    """
    player: PlayerView = view.players[seat]
    aimed_at = threatened(view.targets)
    head = Text()
    counts = counts_text(player, width)
    head.append(counts)
    if player.points:
        granted = f" · {player.points} granted"
        last = counts.rsplit("\n", 1)[-1]
        head.append(granted if not width or len(last) + len(granted) <= width else f"\n{player.points} granted",
                    style="bold")
    parts: list[tuple[int | None, Text]] = [(None, head)]
    main = next((p for p in player.in_play if p.is_main), None)
    if main is not None:
        out = Text("★ ")
        out.append_text(_name(main))
        _threat(out, main, aimed_at)
        _attributes(out, main)
        out.append("\n " + points_text(main))
        parts.append((main.iid, out))
    if brief:
        # The brief side hides the other cards, but never that one of them is threatened.
        aimed = [CARDS_BY_ID[p.card_id].name for p in player.in_play if not p.is_main and p.iid in aimed_at]
        if aimed:
            parts.append((None, Text(f"{THREAT_MARK} targeted: {', '.join(aimed)}", style="bold")))
        return parts
    for permanent in player.in_play:
        if permanent.is_main:
            continue
        out = Text()
        if permanent.seceded:
            out.append("⟲ ")
            out.append_text(_name(permanent))
            out.append(" FLIPPED", style="bold reverse")
            _threat(out, permanent, aimed_at)
            for ability in CARDS_BY_ID[permanent.card_id].flip_abilities:
                out.append("\n  " + ability_text(ability), style="dim")
        else:
            out.append("• " if permanent.points is not None else "▪ ")
            out.append_text(_name(permanent))
            _threat(out, permanent, aimed_at)
            _attributes(out, permanent)
            if permanent.points is not None:
                out.append("\n " + points_text(permanent))
        parts.append((permanent.iid, out))
    return parts


def _threat(out: Text, permanent: PermanentView, aimed_at: frozenset[int]) -> None:
    if permanent.iid in aimed_at:
        out.append(f" {THREAT_MARK} targeted", style="bold reverse")


def _attributes(out: Text, permanent: PermanentView) -> None:
    if permanent.attributes:
        out.append(" (" + ", ".join(Attribute(name).label for name in permanent.attributes) + ")", style="italic")


class SidePanel(VerticalScroll):
    """One seat's side: the border title names the seat, marks whose turn it is and who holds Priority.

    It scrolls when the side holds more than fits, and then says on its bottom
    border how many cards wait below (``▼ 2 more``) or above; the brief side
    says how many cards it leaves out and the key that shows them.
    """

    DEFAULT_CSS = load_css(__file__)

    brief: reactive[bool] = reactive(False)
    """The dense form of :mod:`~tui.games.wizbits.side_brief` (the compact layout's opponent): every Character's
    points, then the counts; the other cards wait behind :attr:`BRIEF_KEY`."""

    BRIEF_KEY = "o"
    """The key that shows a brief side whole (the battlefield's opponent pane)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WizbitsView | None = None
        self.seat = 0
        self._starts: list[tuple[int, int]] = []
        """Each card shown, as (iid, the body line its name is on)."""
        self.more = (0, 0)
        """How many cards start above and below the visible rows (or, brief, how many are left out)."""

    def compose(self) -> ComposeResult:
        yield Static(classes="side-body")

    def show(self, view: WizbitsView, seat: int) -> None:
        """Draw ``seat``'s side of ``view``."""
        self.view, self.seat = view, seat
        player = view.players[seat]
        marks = " ▶" if view.active == seat else ""
        marks += " ◆ Priority" if view.priority == seat else ""
        self.border_title = markup_safe(f"{player.name}{marks}")  # border titles read markup
        self._update()

    def watch_brief(self) -> None:
        self._update()

    def _update(self) -> None:
        if not self.is_mounted:
            return
        parts = self.parts
        body = self.query_one(".side-body", Static)
        body.update(Text("\n").join(part for _, part in parts))
        width = self.scrollable_content_region.width
        self._starts, line = [], 0
        for iid, part in parts:
            if iid is not None:
                self._starts.append((iid, line))
            # Measured as the body wraps it (Textual's own widgets pass their styles as the rules map).
            rules: Any = body.styles
            line += visualize(body, part).get_height(rules, width) if width > 0 else part.plain.count("\n") + 1
        self._mark_more()

    def _mark_more(self) -> None:
        """Put the "more" marker and the deck's name on the bottom border, the marker first when room is short."""
        if self.view is None:
            return
        player = self.view.players[self.seat]
        if self.brief:
            left_out = len(player.in_play) - len(self._starts)
            self.more = (0, left_out)
            marker = f"▼ {left_out} more ({self.BRIEF_KEY})" if left_out else ""
        else:
            top, rows = round(self.scroll_y), self.scrollable_content_region.height
            above = sum(1 for _, line in self._starts if line < top)
            below = sum(1 for _, line in self._starts if rows and line >= top + rows)
            self.more = (above, below)
            marker = " ".join(([f"▲ {above}"] if above else []) + ([f"▼ {below} more"] if below else []))
        mine = self.view.seat == self.seat
        room = max(0, self.size.width - 3)  # the content width; the border title keeps "─ " and " ─" round it
        forms = [f"you · {player.deck_name}" if mine else player.deck_name] + (["you"] if mine else []) + [""]
        if marker:
            forms = [f"{marker} · {form}" if form else marker for form in forms]
        subtitle = next((form for form in forms if len(form) <= room), forms[-1])
        if self.border_subtitle != markup_safe(subtitle):
            self.border_subtitle = markup_safe(subtitle)  # border titles read markup

    def on_mount(self) -> None:
        self._update()

    def on_resize(self) -> None:
        self._update()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._mark_more()

    def scroll_to_card(self, iid: int) -> bool:
        """Scroll so card ``iid``'s name is the top line; False when the side doesn't show it."""
        line = next((line for shown, line in self._starts if shown == iid), None)
        if line is None:
            return False
        self.scroll_to(y=line, animate=False, immediate=True)
        return True

    @property
    def parts(self) -> list[tuple[int | None, Text]]:
        """The seat's cards and counts as shown, piece by piece (see :func:`side_parts`)."""
        if self.view is None:
            return []
        # The body's width, less a cell for the scrollbar a long side shows.
        width = max(1, self.size.width - 1) if self.size.width else 0
        if self.brief and width:
            # The dense form fits the rows the panel may take (its max-height less the border), so nothing scrolls.
            cap = self.styles.max_height
            rows = int(cap.value) - self.styles.gutter.height if cap is not None and cap.is_cells else 6
            return side_brief.brief_parts(self.view, self.seat, width=width, rows=max(rows, 1))
        return side_parts(self.view, self.seat, brief=self.brief, width=width)

    @property
    def text(self) -> Text:
        """The seat's cards and counts as shown."""
        return Text("\n").join(part for _, part in self.parts)


TIMELINE: tuple[tuple[str, str], ...] = (
    ("Reconcile", "Rec"), ("Test", "Test"), ("Play", "Play"), ("Characters", "Chars"), ("Play", "Play"),
    ("Conflict and Battle", "Conflict"), ("Play", "Play"), ("Second Test", "Test 2"), ("Reconcile", "Rec"),
)
"""The turn's segments in order, full and short names."""

_CONFLICT = frozenset({Phase.ATTACK, Phase.BLOCK, Phase.ASSIGN, Phase.RESPOND, Phase.DIVIDE, Phase.DAMAGE})


def timeline_index(view: WizbitsView) -> int:
    """Which segment of :data:`TIMELINE` the view's phase is in."""
    phase = view.phase
    if phase in (Phase.ELEMENTS, Phase.NON_ELEMENTS):
        return {1: 2, 2: 4, 3: 6}.get(view.play_round, 2)
    order = {Phase.RECONCILE_UP: 0, Phase.TEST: 1, Phase.CHARACTERS: 3, Phase.SECOND_TEST: 7,
             Phase.RECONCILE_DOWN: 8}
    return 5 if phase in _CONFLICT else order.get(phase, 0)


def timeline_text(view: WizbitsView, width: int) -> Text:
    """The bar, e.g. ``Reconcile › Test › [Play 1: Elements] › Characters …  Priority: Bo``."""
    current = timeline_index(view)
    label = Phase.LABELS[view.phase]
    if view.phase in (Phase.ELEMENTS, Phase.NON_ELEMENTS):
        label = f"Play {view.play_round}: {label}"
    holder = view.players[view.priority].name if view.priority is not None else "nobody"
    active = view.players[view.active].name
    resolving = " · resolving" if view.resolving else ""
    tails = (f"  Turn {view.turn} ({active}) · Priority: {holder}{resolving}",
             f" T{view.turn} · Priority {holder}{resolving}", f" T{view.turn} ◆ {holder}")
    text = Text()
    for short, tail in ((False, tails[0]), (True, tails[0]), (True, tails[1]), (True, tails[2])):
        text = Text()
        for index, (full, brief) in enumerate(TIMELINE):
            if index:
                text.append("›" if short else " › ", style="dim")
            if index == current:
                # Brackets, not only reverse video, say which phase is now (the same width as the spaces).
                text.append(f"[{label}]", style="bold reverse")
            else:
                text.append(brief if short else full, style="dim")
        text.append(tail, style="bold")
        if text.cell_len <= width:
            return text
    text.truncate(max(width, 1), overflow="ellipsis")
    return text


class Timeline(Widget):
    """The turn-structure bar: Reconcile, Test, Play, Characters, Play, Conflict and Battle, Play, Second Test, Reconcile."""

    DEFAULT_CSS = """
    Timeline { height: 1; width: 1fr; background: $panel; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: WizbitsView | None = None

    def show(self, view: WizbitsView) -> None:
        """Light the view's phase."""
        self.view = view
        self.refresh()

    def render(self) -> Text:
        """The bar cut to the widget's width (short names when the full ones don't fit)."""
        return timeline_text(self.view, self.size.width) if self.view is not None else Text("")
