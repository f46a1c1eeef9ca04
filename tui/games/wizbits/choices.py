"""The choices a Wizbits player makes on the battlefield, read from the engine's legal actions.

Nothing here decides what is legal: every option offered comes from the
``legal`` list the rules gave the table (targets, attackers, blocks,
assignments, damage targets, discards), and the finished choice is checked by
the rules again before it is sent. A :class:`ChoiceRow` is one line the player
changes with the keys (cycle a value, toggle, count up or down).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from engine.wizbits import actions as act
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.effects import Effect, TargetKind
from engine.wizbits.model import Ability
from engine.wizbits.payment import OFFERING_POINTS, SECEDE_POINTS
from engine.wizbits.plays import card_slots
from engine.wizbits.resolve import chosen_slots
from engine.wizbits.terms import Attribute
from engine.wizbits.text import ability_text
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.card import CATEGORY_SHORT, NAME_CELLS, card_name
from tui.games.wizbits.cost import Secedable
from tui.games.wizbits.side import card_label, owned_label, unit_label


@dataclass
class ChoiceRow:
    """One line of a choice: a label and a value the player cycles through ``options``.

    Attributes:
        key: What the line is about (an iid, or a target slot's index).
        label: Shown before the value.
        options: The values offered, in order.
        names: How each value reads.
        index: The value chosen.
        card_id: The card to show in full while the line is highlighted.
        arrow: Draw the line as ``label → value`` (an assignment).
        kind: ``"cycle"`` (None is "nothing"), ``"toggle"`` (True/False) or ``"count"`` (0 is "nothing").
    """

    key: int
    label: str
    options: list[Any]
    names: list[str]
    index: int = 0
    card_id: str | None = None
    arrow: bool = False
    kind: str = "cycle"

    @property
    def value(self) -> Any:
        """The chosen value."""
        return self.options[self.index]

    @property
    def is_set(self) -> bool:
        """Whether the value is something (a target, True, a positive count), not "nothing"."""
        if self.kind == "toggle":
            return self.value is True
        if self.kind == "count":
            return bool(self.value)
        return self.value is not None

    def cycle(self, step: int) -> None:
        """Move to the next (``1``) or previous (``-1``) option."""
        self.index = (self.index + step) % len(self.options)

    def text(self) -> Text:
        """The line as shown in the list."""
        line = Text(self.label, style="bold")
        # An assignment reads as its own line under the attacker, so both names fit a narrow pane.
        line.append("\n  → " if self.arrow else ": ", style="dim")
        name = self.names[self.index]
        line.append(name, style="bold green" if self.is_set else "dim italic")
        if self.kind == "count":
            line.append(" damage", style="dim")
        elif len(self.options) > 2:
            line.append(f"  ({self.index + 1}/{len(self.options)})", style="dim")
        return line


@dataclass(frozen=True)
class Entry:
    """Something in the hand pane: a card to play or an ability to use.

    Attributes:
        iid: The card's instance (for an ability, the card in play).
        card_id: The printed card.
        ability: The ability's index among the card's live abilities, None for a card play.
        playable: Whether the legal actions include a way to do it now.
    """

    iid: int
    card_id: str
    ability: int | None = None
    playable: bool = False
    matches: tuple[Any, ...] = field(default=(), compare=False)

    def text(self, view: WizbitsView, width: int = 0) -> Text:
        """``"3 ▲ Sunder  Elem"`` for a card, ``"⚡ Archmage: Trigger …"`` for an ability.

        Given the list's ``width``, a card's row too wide for it drops its category (the card pane below says
        it) before the name is cut, so a list as narrow as a cost and the longest name shows every name whole.
        """
        card = CARDS_BY_ID[self.card_id]
        style = "" if self.playable else "dim"
        if self.ability is None:
            line = Text(f"{card.cost} ", style="bold" if self.playable else "dim")
            category = f" {CATEGORY_SHORT[card.category]}"
            full = line.cell_len + NAME_CELLS + len(category) + (len("  not now") if not self.playable else 0)
            if width and full > width:
                indent = line.cell_len
                name = card_name(self.card_id, bold=self.playable)
                if line.cell_len + name.cell_len > width:
                    name = _wrapped(name, width - line.cell_len, line.cell_len)
                line.append_text(name)
                if not self.playable:
                    # Said in words whatever the width: on its own row when the name's row has no room for it.
                    last = line.plain.rsplit("\n", 1)[-1]
                    fits = cell_len(last) + len("  not now") <= width
                    line.append("  not now" if fits else "\n" + " " * indent + "not now")
                    line.stylize("dim")
                return line
            line.append_text(card_name(self.card_id, width=NAME_CELLS, bold=self.playable))
            line.append(category, style="dim")
            if not self.playable:
                line.append("  not now")  # in words, not only dimmed: it reads in monochrome and aloud
                line.stylize("dim")
            return line
        line = Text("⚡ ", style="bold yellow")
        line.append(card.name, style="bold")
        if not self.playable:
            line.append(" (not now)", style="dim")
        line.append(f": {ability_text(entry_ability(view, self))}", style=style)
        return line


def _wrapped(name: Text, room: int, indent: int) -> Text:
    """``name`` broken between words into lines of ``room`` cells, the later ones indented by ``indent``.

    A name wider than the list goes on two rows rather than being cut.
    """
    lines = name.wrap(Console(width=max(room, 1), legacy_windows=False), max(room, 1))
    joined = Text()
    for number, part in enumerate(lines):
        if number:
            joined.append("\n" + " " * indent)
        joined.append_text(part)
    return joined


def entry_ability(view: WizbitsView, entry: Entry) -> Ability:
    """The ability an entry uses: among the flip abilities while its card is seceded."""
    card = CARDS_BY_ID[entry.card_id]
    seceded = any(p.iid == entry.iid and p.seceded for player in view.players for p in player.in_play)
    abilities = card.flip_abilities if seceded else card.abilities
    assert entry.ability is not None
    return abilities[entry.ability]


def hand_entries(view: WizbitsView, seat: int, legal: Sequence[Any]) -> list[Entry]:
    """The seat's hand, cards with a legal play first marked playable, then each ability it may use."""
    hand = view.players[seat].hand or ()
    entries = []
    for iid in hand:
        card_id = view.cards[iid]
        matches = tuple(a for a in legal if isinstance(a, act.PlayCard) and view.cards.get(a.card) == card_id)
        entries.append(Entry(iid, card_id, None, bool(matches), matches))
    seen: list[tuple[int, int]] = []
    for action in legal:
        if isinstance(action, act.Activate) and (action.card, action.ability) not in seen:
            seen.append((action.card, action.ability))
    for iid, index in seen:
        uses = tuple(a for a in legal if isinstance(a, act.Activate) and (a.card, a.ability) == (iid, index))
        entries.append(Entry(iid, view.cards[iid], index, True, uses))
    return entries


def _target_name(view: WizbitsView, effect: Effect | None, value: int | None) -> str:
    if value is None:
        return "no legal target"
    if effect is not None and effect.target.kind is TargetKind.UNIT:
        return unit_label(view, value)
    return owned_label(view, value)


def _unique(values: Sequence[Any]) -> list[Any]:
    found: list[Any] = []
    for value in values:
        if value not in found:
            found.append(value)
    return found


def target_rows(view: WizbitsView, entry: Entry) -> list[ChoiceRow]:
    """One row per chosen target of a play or ability use, offering the targets its legal actions use."""
    if not entry.matches:
        return []
    if entry.ability is None:
        slots = card_slots(CARDS_BY_ID[entry.card_id])
    else:
        slots = chosen_slots((entry_ability(view, entry),))
    count = len(entry.matches[0].targets)
    rows = []
    for index in range(count):
        effect = slots[index] if index < len(slots) else None
        options = _unique([a.targets[index] for a in entry.matches])
        label = effect.target.phrase if effect is not None else f"target {index + 1}"
        rows.append(ChoiceRow(index, label[:1].upper() + label[1:], options,
                              [_target_name(view, effect, value) for value in options], arrow=True))
    return rows


def payments_for(entry: Entry, targets: tuple[int | None, ...]) -> list[act.Payment]:
    """The payments the legal actions list for these targets (any exact payment is accepted too)."""
    return _unique([a.pay for a in entry.matches if a.targets == targets])


def pending_rows(view: WizbitsView, legal: Sequence[Any]) -> list[ChoiceRow]:
    """Targets for a pending flip Income, one row per target, from the legal choices."""
    choices = [a for a in legal if isinstance(a, act.ChooseTargets)]
    if not choices:
        return []
    rows = []
    for index in range(len(choices[0].targets)):
        options = _unique([a.targets[index] for a in choices])
        rows.append(ChoiceRow(index, f"Flip Income target {index + 1}", options,
                              [owned_label(view, value) if value is not None else "no legal target"
                               for value in options], arrow=True))
    return rows


def _toggle(key: int, label: str, card_id: str, on: str) -> ChoiceRow:
    return ChoiceRow(key, label, [False, True], ["no", on], card_id=card_id, kind="toggle")


def attack_rows(view: WizbitsView, legal: Sequence[Any]) -> list[ChoiceRow]:
    """Each character that may attack, toggled on or off."""
    fighters = _unique([iid for a in legal if isinstance(a, act.Attack) for iid in a.attackers])
    return [_toggle(iid, card_label(view, iid), view.cards[iid], "attacks") for iid in fighters]


def block_rows(view: WizbitsView, legal: Sequence[Any]) -> list[ChoiceRow]:
    """Each defender that may block, cycling through the attackers it may battle (or none)."""
    pairs = _unique([pair for a in legal if isinstance(a, act.Block) for pair in a.blocks])
    defenders = _unique([d for d, _ in pairs])
    rows = []
    for defender in defenders:
        options: list[int | None] = [None, *[a for d, a in pairs if d == defender]]
        rows.append(ChoiceRow(defender, card_label(view, defender), options,
                              ["does not block"] + [f"blocks {card_label(view, a)}" for a in options[1:]],
                              card_id=view.cards[defender], arrow=True))
    return rows


def assign_rows(view: WizbitsView, legal: Sequence[Any]) -> list[ChoiceRow]:
    """Each unblocked attacker, cycling through the opposing characters it may be sent at (or none)."""
    pairs = _unique([pair for a in legal if isinstance(a, act.Assign) for pair in a.assignments])
    attackers = _unique([a for a, _ in pairs])
    rows = []
    for attacker in attackers:
        options: list[int | None] = [None, *[d for a, d in pairs if a == attacker]]
        rows.append(ChoiceRow(attacker, card_label(view, attacker), options,
                              ["unassigned"] + [card_label(view, d) for d in options[1:]],
                              card_id=view.cards[attacker], arrow=True))
    return rows


def divide_rows(view: WizbitsView, legal: Sequence[Any]) -> tuple[list[ChoiceRow], int]:
    """A counter per opposing character in the battle, and the total Strength to divide."""
    splits = [a for a in legal if isinstance(a, act.Divide)]
    if not splits:
        return [], 0
    total = sum(points for _, points in splits[0].damage)
    targets = _unique([iid for a in splits for iid, _ in a.damage])
    rows = [ChoiceRow(iid, card_label(view, iid), list(range(total + 1)), [str(n) for n in range(total + 1)],
                      card_id=view.cards[iid], kind="count") for iid in targets]
    return rows, total


def discard_rows(view: WizbitsView, seat: int, legal: Sequence[Any]) -> tuple[list[ChoiceRow], int]:
    """Each card in hand, toggled for discarding, and how many must go."""
    options = [a for a in legal if isinstance(a, act.DiscardCards)]
    need = len(options[0].cards) if options else 0
    hand = view.players[seat].hand or ()
    return [_toggle(iid, card_label(view, iid), view.cards[iid], "discard") for iid in hand], need


def chosen(rows: Sequence[ChoiceRow]) -> list[tuple[int, Any]]:
    """(key, value) of each row whose value is something (see :attr:`ChoiceRow.is_set`)."""
    return [(row.key, row.value) for row in rows if row.is_set]


def load_stage(stage: str, view: WizbitsView, seat: int | None, legal: Sequence[Any],
               entry: Entry | None) -> tuple[list[ChoiceRow], list[Entry], int]:
    """The lines for ``stage``: choice rows, hand entries, and the total to divide or discard."""
    me = view.seat if view.seat is not None else 0
    if stage in ("watch", "hand"):
        return [], hand_entries(view, me, legal) if view.players[me].hand is not None else [], 0
    if stage == "compose":
        assert entry is not None
        return target_rows(view, entry), [], 0
    if stage == "divide":
        rows, total = divide_rows(view, legal)
        return rows, [], total
    if stage == "discard":
        assert seat is not None
        rows, total = discard_rows(view, seat, legal)
        return rows, [], total
    makers = {"attack": attack_rows, "block": block_rows, "assign": assign_rows, "pending": pending_rows}
    return makers[stage](view, legal), [], 0


def row_action(stage: str, rows: Sequence[ChoiceRow]) -> act.Action:
    """The action the choice lines of ``stage`` (attack, block, assign, divide, discard or pending) describe."""
    picked = chosen(rows)
    if stage == "attack":
        return act.Attack(tuple(key for key, _ in picked))
    if stage == "block":
        return act.Block(tuple(picked))
    if stage == "assign":
        return act.Assign(tuple(picked))
    if stage == "divide":
        return act.Divide(tuple(picked))
    if stage == "discard":
        return act.DiscardCards(tuple(key for key, _ in picked))
    assert stage == "pending", stage
    return act.ChooseTargets(tuple(row.value for row in rows))


def secedables(view: WizbitsView, seat: int, payments: Sequence[act.Payment]) -> list[Secedable]:
    """The cards the legal payments secede, with the points each gives (three with Offering)."""
    own = {permanent.iid: permanent for permanent in view.players[seat].in_play}
    found = []
    for iid in dict.fromkeys(i for pay in payments for i in pay.secede):
        offering = iid in own and Attribute.OFFERING.value in own[iid].attributes
        found.append(Secedable(iid, card_label(view, iid), OFFERING_POINTS if offering else SECEDE_POINTS))
    return found
