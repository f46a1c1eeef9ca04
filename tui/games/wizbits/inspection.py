"""Looking at anything on the Wizbits table: the cards in play on both sides and the pillar's units.

:func:`table_looks` lists what a player may inspect, the way digital card
games let you look at the opponent's cards: each card in play (the opponent's
first) and each unit standing on the pillar. A :class:`Look` names the card to
show in full and a note (an ability unit's generated text, or what a damage
unit is). :class:`ChoiceList` is the battlefield's choice list, whose ``enter``
acts on its own highlighted line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.pillar.text import branch_name
from engine.wizbits.pillar.tree import Unit, UnitKind
from engine.wizbits.text import ability_text
from engine.wizbits.unit_targets import targets_phrase, threatened
from engine.wizbits.views import PermanentView, WizbitsView
from tui.games.wizbits.card import ELEMENT_COLOURS, ELEMENT_GLYPHS
from tui.games.wizbits.side import THREAT_MARK, points_text


@dataclass(frozen=True)
class Look:
    """One thing to inspect: its list line, the card to show in full (if any) and a note for the prompt."""

    label: Text
    card_id: str | None
    note: str = ""
    uid: int | None = None
    """The pillar unit looked at, if it is one."""


def _card_text(card_id: str) -> Text:
    card = CARDS_BY_ID[card_id]
    return Text(f"{ELEMENT_GLYPHS[card.element]} {card.name}", style=f"bold {ELEMENT_COLOURS[card.element]}")


def _unit_look(view: WizbitsView, unit: Unit) -> Look:
    owner = view.players[unit.owner].name if 0 <= unit.owner < len(view.players) else f"Seat {unit.owner + 1}"
    iid = unit.payload.get("iid")
    card_id = view.cards.get(iid) if isinstance(iid, int) else None
    where = branch_name(unit.branch, view.rtf)
    note = f"{unit.name}: {unit.kind.value} by {owner}, height {unit.height}, IPH {unit.iph}, {where}."
    index = unit.payload.get("ability")
    if unit.kind is UnitKind.ABILITY and card_id in CARDS_BY_ID and isinstance(index, int):
        card = CARDS_BY_ID[card_id]
        abilities = card.flip_abilities if unit.payload.get("flip") else card.abilities
        if 0 <= index < len(abilities):
            note += f" {ability_text(abilities[index])}"
    targets = view.targets.get(unit.uid, ())
    seats = [player.name for player in view.players]
    if targets:
        note += f" Targets: {targets_phrase(targets, seats, view.seat)}."
    label = Text.assemble(("Pillar ", "dim"), (unit.name, "bold"), (f" {owner}", "dim"))
    if targets:
        label.append(f" → {targets_phrase(targets, seats, view.seat)}")
    return Look(label, card_id if card_id in CARDS_BY_ID else None, note, unit.uid)


def points_note(permanent: PermanentView) -> str:
    """A character's Main Points as they stand, beside the printed ones the card below shows.

    ``"Now: S d8 W d8 M d10 SCN 5 (printed S d8 W d6 M d10 SCN 5)."``; empty for a card without points.
    """
    card = CARDS_BY_ID.get(permanent.card_id)
    now = points_text(permanent)
    if card is None or card.main_points is None or not now:
        return ""
    printed = card.main_points
    return (f"Now: {now} (printed S d{printed.strength} W d{printed.will} M d{printed.magic} "
            f"SCN {printed.scn}).")


def threat_note(view: WizbitsView, iid: int) -> str:
    """Which units on the pillar target card ``iid``: ``"Targeted by Bo's Eclipse Sting."``."""
    if view.pillar is None:
        return ""
    pillar = parse_pillar(dict(view.pillar))
    by = [f"{view.players[unit.owner].name}'s {unit.name}" if 0 <= unit.owner < len(view.players) else unit.name
          for unit in pillar.units()
          if any(target.kind == "card" and target.ref == iid for target in view.targets.get(unit.uid, ()))]
    return f"Targeted by {', '.join(by)}." if by else ""


def unit_looks(view: WizbitsView) -> list[Look]:
    """The pillar's units, highest first, then Continue units."""
    if view.pillar is None:
        return []
    pillar = parse_pillar(dict(view.pillar))
    units = sorted(pillar.units(), key=lambda unit: (-unit.height, -unit.order))
    return [_unit_look(view, unit) for unit in [*units, *pillar.continues]]


def table_looks(view: WizbitsView) -> list[Look]:
    """Everything to inspect: the opponent's cards in play, yours, the pillar's units top first, waiting triggers."""
    me = view.seat if view.seat is not None else 0
    aimed_at = threatened(view.targets)
    looks = []
    for seat in (1 - me, me):
        player = view.players[seat]
        for permanent in player.in_play:
            if permanent.card_id not in CARDS_BY_ID:
                continue
            label = Text.assemble((f"{player.name} ", "dim"), _card_text(permanent.card_id))
            if permanent.is_main:
                label.append(" ★")
            if permanent.seceded:
                label.append(" flipped", style="italic")
            notes = [points_note(permanent)]
            if permanent.iid in aimed_at:
                label.append(f" {THREAT_MARK} targeted", style="bold")
                notes.append(threat_note(view, permanent.iid))
            looks.append(Look(label, permanent.card_id, " ".join(note for note in notes if note)))
    return looks + unit_looks(view) + waiting_looks(view)


def waiting_looks(view: WizbitsView) -> list[Look]:
    """The triggers waiting for the next pillar, in the order they go on it."""
    looks = []
    for trigger in view.waiting:
        owner = view.players[trigger.owner].name if 0 <= trigger.owner < len(view.players) else "?"
        card_id = view.cards.get(trigger.iid)
        label = Text.assemble(("Waiting ", "dim"), (trigger.name, "bold"), (f" {owner}", "dim"))
        note = (f"{trigger.name}: trigger by {owner}, set off when {trigger.event}. "
                "It waits for the next pillar and goes on it first.")
        looks.append(Look(label, card_id if card_id in CARDS_BY_ID else None, note))
    return looks


class ChoiceList(OptionList):
    """The choice list: ``enter`` picks its own highlighted line, after any arrow keys typed before it.

    ``allowed()`` says whether choosing is possible now; when no line can be
    picked, ``enter`` falls through to the table's own binding.
    """

    BINDINGS = [Binding("enter", "select", "Choose")]

    class Resized(Message):
        """The list's width changed (a pane opened or closed beside it): its rows may fit it anew."""

    def __init__(self, allowed: Callable[[], bool], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.allowed = allowed

    def on_resize(self, event: events.Resize) -> None:
        """Tell the table, whose rows were laid out for the old width (a Resize does not bubble)."""
        self.post_message(self.Resized())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select":
            return self.allowed()
        return True

    @property
    def out_of_view(self) -> tuple[int, int]:
        """How many lines (options) start above the visible rows, and how many start below them."""
        starts = self._line_cache.index_to_line  # the cache as it stands: _index_to_line would rebuild it
        top, rows = round(self.scroll_y), self.scrollable_content_region.height
        above = sum(1 for line in starts.values() if line < top)
        below = sum(1 for line in starts.values() if line >= top + rows) if rows else 0
        return above, below

    def _mark_more(self) -> None:
        """Say on the bottom border how many lines wait above and below, so a long hand never hides silently."""
        above, below = self.out_of_view if self.is_mounted else (0, 0)
        marks = ([f"▲ {above} more"] if above else []) + ([f"▼ {below} more"] if below else [])
        subtitle = " · ".join(marks)
        if str(self.border_subtitle or "") != subtitle:
            self.border_subtitle = subtitle

    def _update_lines(self) -> None:
        super()._update_lines()
        self._mark_more()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._mark_more()

    def action_select(self) -> None:
        index = self.highlighted
        if index is None or self.get_option_at_index(index).disabled:
            raise SkipAction()
        super().action_select()
