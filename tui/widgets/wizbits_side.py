"""The Wizbits battlefield's side panels and turn timeline, plus the names every pane shares.

:class:`SidePanel` draws one seat from a :class:`~engine.wizbits.views.WizbitsView`:
its Main Character's Strength, Will and Magic as die levels with the SCN and
the damage in it, the other characters, the Non-Elements, seceded cards with
their flip abilities, and the deck, discard and hand counts. :class:`Timeline`
is the turn-structure bar with the current phase lit and who holds Priority.
Both only read the view; they know no rule.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from engine.wizbits.cards import CARDS_BY_ID
from engine.wizbits.dice import die_level
from engine.wizbits.pillar_json import parse_pillar
from engine.wizbits.state import Phase
from engine.wizbits.terms import Attribute
from engine.wizbits.text import ability_text
from engine.wizbits.unit_targets import threatened
from engine.wizbits.views import PermanentView, PlayerView, WizbitsView
from tui.safe_text import markup_safe
from tui.widgets.styles import load_css
from tui.widgets.wizbits_card import ELEMENT_COLOURS, ELEMENT_GLYPHS

THREAT_MARK = "◎"
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
    player: PlayerView = view.players[seat]
    aimed_at = threatened(view.targets)
    out = Text()
    counts = counts_text(player, width)
    out.append(counts)
    if player.points:
        granted = f" · {player.points} granted"
        last = counts.rsplit("\n", 1)[-1]
        out.append(granted if not width or len(last) + len(granted) <= width else f"\n{player.points} granted",
                   style="bold")
    main = next((p for p in player.in_play if p.is_main), None)
    if main is not None:
        out.append("\n★ ")
        out.append_text(_name(main))
        _threat(out, main, aimed_at)
        _attributes(out, main)
        out.append("\n " + points_text(main))
    if brief:
        # The brief side hides the other cards, but never that one of them is threatened.
        aimed = [CARDS_BY_ID[p.card_id].name for p in player.in_play if not p.is_main and p.iid in aimed_at]
        if aimed:
            out.append(f"\n{THREAT_MARK} targeted: {', '.join(aimed)}", style="bold")
        return out
    for permanent in player.in_play:
        if permanent.is_main:
            continue
        if permanent.seceded:
            out.append("\n⟲ ")
            out.append_text(_name(permanent))
            out.append(" FLIPPED", style="bold reverse")
            _threat(out, permanent, aimed_at)
            for ability in CARDS_BY_ID[permanent.card_id].flip_abilities:
                out.append("\n  " + ability_text(ability), style="dim")
            continue
        out.append("\n• " if permanent.points is not None else "\n▪ ")
        out.append_text(_name(permanent))
        _threat(out, permanent, aimed_at)
        _attributes(out, permanent)
        if permanent.points is not None:
            out.append("\n " + points_text(permanent))
    return out


def _threat(out: Text, permanent: PermanentView, aimed_at: frozenset[int]) -> None:
    if permanent.iid in aimed_at:
        out.append(f" {THREAT_MARK} targeted", style="bold reverse")


def _attributes(out: Text, permanent: PermanentView) -> None:
    if permanent.attributes:
        out.append(" (" + ", ".join(Attribute(name).label for name in permanent.attributes) + ")", style="italic")


class SidePanel(VerticalScroll):
    """One seat's side: the border title names the seat, marks whose turn it is and who holds Priority.

    It scrolls when the side holds more than fits.
    """

    DEFAULT_CSS = load_css(__file__)

    brief: reactive[bool] = reactive(False)
    """Show only the counts and the Main Character (the compact layout's opponent)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WizbitsView | None = None
        self.seat = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="side-body")

    def show(self, view: WizbitsView, seat: int) -> None:
        """Draw ``seat``'s side of ``view``."""
        self.view, self.seat = view, seat
        player = view.players[seat]
        marks = " ▶" if view.active == seat else ""
        marks += " ◆ Priority" if view.priority == seat else ""
        self.border_title = markup_safe(f"{player.name}{marks}")  # border titles read markup
        self.border_subtitle = markup_safe(f"you · {player.deck_name}" if view.seat == seat else player.deck_name)
        self._update()

    def watch_brief(self) -> None:
        self._update()

    def _update(self) -> None:
        if self.is_mounted:
            self.query_one(".side-body", Static).update(self.text)

    def on_mount(self) -> None:
        self._update()

    def on_resize(self) -> None:
        self._update()

    @property
    def text(self) -> Text:
        """The seat's cards and counts as shown."""
        if self.view is None:
            return Text("")
        # The body's width, less a cell for the scrollbar a long side shows.
        width = max(1, self.size.width - 1) if self.size.width else 0
        return side_text(self.view, self.seat, brief=self.brief, width=width)


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
                text.append(f" {label} ", style="bold reverse")
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
