"""The pillar tree's parts: its lines fitted to a width, its sentences, and the tree itself.

The widget decides what to show (which unit is a foundation, which resolve
next) by asking the engine, and these helpers only say it. Every line keeps
its facts (owner, kind, height, IPH) and gives up the unit's name first when
the pane is narrow. :class:`PillarOutline` is the Textual tree inside the
widget; it lays the pillar out and asks the widget for each line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.model import Ability, Card
from engine.wizbits.pillar.text import branch_name, reverse_reason, subpillar_word
from engine.wizbits.pillar.tree import BASE_UID, MAIN, Pillar, Unit, UnitKind
from engine.wizbits.text import ability_text

NAME_MIN = 5
"""A name is never cut below this many cells (the ellipsis included)."""
OWNER_MAX = 10
OWNER_MIN = 3
"""When nothing else helps, seat names are cut to ``OWNER_MAX`` cells, then ``OWNER_MIN`` (the ellipsis included)."""
TARGET_MAX = 12
TARGET_MIN = 6
"""In narrow lines a unit's targets are cut to ``TARGET_MAX`` cells, then ``TARGET_MIN`` (the ellipsis included)."""
KIND_SHORT = {UnitKind.CARD: "card", UnitKind.ABILITY: "abil", UnitKind.TRIGGER: "trig", UnitKind.DAMAGE: "dmg",
              UnitKind.CONTINUE: "cont"}
"""Kinds in the compact lines."""

Form = tuple[str, str, str]
"""``(name, facts, tag)`` of one way to write a tree line."""


@dataclass(frozen=True)
class Styles:
    """The rich styles the widget takes from its component classes."""

    name: Style = Style(bold=True)
    facts: Style = Style(dim=True)
    mark: Style = Style(bold=True)
    tag: Style = Style(italic=True)


def seat_name(seats: Sequence[str], owner: int) -> str:
    """The seat's name, or "Seat n" when no name was given for it."""
    return seats[owner] if 0 <= owner < len(seats) else f"Seat {owner + 1}"


def cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending with … when it was longer."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "…" if width > 0 else ""


_WHERE = re.compile(r" \(h-?\d+[^()]*\)$")
"""Where a unit aimed at stands, after its name: `` (h2)`` or `` (h3, Subpillar 1)``."""


def cut_aim(names: str, width: int) -> str:
    """A unit's targets with their names cut to ``width`` cells, keeping where a unit aimed at stands (it tells
    apart two units of one name): ``Sparkswarm … (h2)``."""
    where = _WHERE.search(names)
    if where is None:
        return cut(names, width)
    return cut(names[:where.start()], width) + where.group(0)


def fit_line(mark: str, forms: Sequence[Form], width: int, styles: Styles,
             cuttable: Sequence[Form] | None = None) -> Text:
    """``mark name facts tag`` in ``width`` cells (0: no limit).

    ``forms`` go from the longest to the shortest. The first that fits whole
    is drawn; else the first of ``cuttable`` (default: the tagless forms)
    whose name can be cut to fit, down to :data:`NAME_MIN`, keeping its tag
    (a cuttable form with a tag keeps it whole, so "CF ◀ next" stays in view);
    last, the last form cut with an ellipsis.
    """
    chosen = forms[0]
    if width > 0:
        chosen = next((form for form in forms if len(mark) + sum(map(len, form)) <= width), forms[-1])
        if len(mark) + sum(map(len, chosen)) > width:
            for name, facts, tag in (cuttable if cuttable is not None else [f for f in forms if not f[2]]):
                room = width - len(mark) - len(facts) - len(tag)
                if room >= min(NAME_MIN, len(name)):
                    chosen = (cut(name, room), facts, tag)
                    break
    name, facts, tag = chosen
    line = Text.assemble((mark, styles.mark), (name, styles.name), (facts, styles.facts), (tag, styles.tag))
    if width > 0 and line.cell_len > width:
        line.truncate(width, overflow="ellipsis")
    return line


def branch_prefix(branch: int, rtf: int) -> str:
    """The short subpillar label before a unit's name: ``S2 `` (``Sp2 `` for a Spire); none on the main pillar.

    The group header above the unit spells the word out.
    """
    if branch == MAIN:
        return ""
    return f"{'S' if subpillar_word(rtf) == 'Subpillar' else 'Sp'}{branch} "


def unit_forms(unit: Unit, seats: Sequence[str], rtf: int, tag: str, short_tag: str,
               countered: bool, aim: tuple[str, str] = ("", "")) -> list[Form]:
    """The ways to write a unit's line, longest first (see :func:`fit_line`); the last three are for cutting.

    Every form keeps the subpillar label, owner, kind, height and IPH:
    ``S2 Sunder · Ana · card · h2 IPH2 · → your Pup · tip``, then without the kind
    repeated in the name, then ``S2 Sunder Ana card h2 IPH2 →your Pup tip``, then
    without the tag, then with the target's owner left out and the owner and
    target cut as a last resort. ``aim`` is the targets in full and as bare names;
    with targets, the very last form (target cut short) is meant only for cutting,
    so a name is cut before a target is cut to :data:`TARGET_MIN`.
    """
    owner = seat_name(seats, unit.owner)
    prefix = branch_prefix(unit.branch, rtf)
    height = "h-1" if unit.kind is UnitKind.CONTINUE else f"h{unit.height} IPH{unit.iph}"
    status = " countered" if countered else ""
    name = prefix + unit.name
    suffix = f" {unit.kind.value}"
    bare = name[:-len(suffix)] if unit.name.endswith(suffix) and len(unit.name) > len(suffix) else name
    aimed, names = aim
    full = f" · {owner} · {unit.kind.value} · {height}{status}" + (f" · → {aimed}" if aimed else "")
    short = KIND_SHORT[unit.kind]
    compact = f" {owner} {short} {height}{status}"
    forms: list[Form] = [(name, full, f" · {tag}" if tag else ""), (bare, full, f" · {tag}" if tag else "")]
    if short_tag:
        forms.append((bare, compact + (f" →{aimed}" if aimed else ""), f" {short_tag}"))
        if names:
            forms.append((bare, f"{compact} →{cut_aim(names, TARGET_MAX)}", f" {short_tag}"))
    forms.append((bare, compact + (f" →{aimed}" if aimed else ""), ""))
    # The target is never dropped, only cut: it is what the opponent needs to see.
    cuts = ((OWNER_MAX, TARGET_MAX), (OWNER_MIN, TARGET_MAX), (OWNER_MIN, TARGET_MIN)) if names \
        else ((OWNER_MAX, 0), (OWNER_MIN, 0))
    for most, aim_most in cuts:
        forms.append((bare, f" {cut(owner, most)} {short} {height}{status}" + (f" →{cut_aim(names, aim_most)}"
                                                                               if names else ""), ""))
    return forms


def foundation_tag(unit: Unit | None, main_tip: bool, rtf: int) -> str:
    """What kind of foundation a unit (None: the base) is: the main Current Foundation or a tip."""
    if main_tip:
        return "Current Foundation"
    if unit is not None and unit.branch != MAIN:
        return f"{subpillar_word(rtf)} {unit.branch} tip"
    return ""


def short_tag(tag: str) -> str:
    """A foundation tag for narrow lines: "CF" for the Current Foundation, "tip" for a subpillar's."""
    for long, short in (("Current Foundation", "CF"), ("Spire", "tip"), ("Subpillar", "tip")):
        if tag.startswith(long):
            return short + tag[tag.index("◀") - 1:] if "◀" in tag else short
    return tag


def group_line(branch: int, on: str, rtf: int, width: int, styles: Styles) -> Text:
    """The header of a subpillar: ``Subpillar 2 · on Sunder`` (``Spire 2`` under RTF 2); the label is never cut."""
    label = f"{subpillar_word(rtf)} {branch}"
    return fit_line("", [(label, f" · on {on}", ""), (label, f" on {on}", ""),
                         (label, f" on {cut(on, max(NAME_MIN, width - len(label) - 4))}", "")], width, styles)


def reverse_pillar(card_id: str | None) -> tuple[tuple[int, Ability], ...]:
    """``(printed position from 1, ability)`` of a card's Incomes in Reverse Pillar order.

    Empty unless the card is known and has several Incomes (one Income has no
    order to show). The order is the engine's :attr:`Card.incomes`.
    """
    card: Card | None = CARDS_BY_ID.get(card_id) if card_id is not None else None
    if card is None or len(card.incomes) < 2:
        return ()
    printed = {id(ability): index + 1 for index, ability in enumerate(card.abilities)}
    return tuple((printed[id(ability)], ability) for ability in card.incomes)


def income_line(step: int, printed: int, ability: Ability, width: int, styles: Styles) -> Text:
    """One Income of a Reverse Pillar: ``1. Income (quick): Draw 1 card. [printed 2]``."""
    line = Text.assemble((f"{step}. ", styles.mark), (ability_text(ability), ""),
                         (f" [printed {printed}]", styles.facts))
    if width > 0 and line.cell_len > width:
        line.truncate(width, overflow="ellipsis")
    return line


def unit_detail(unit: Unit, seats: Sequence[str], rtf: int, on: str, main_tip: bool, tip: bool,
                countered: bool, aimed: str = "") -> Text:
    """A unit in short sentences, for the lines under the tree; ``aimed`` names its targets."""
    text = Text.assemble((unit.name, "bold"), f" — {unit.kind.value} by {seat_name(seats, unit.owner)}. ")
    if unit.kind is UnitKind.CONTINUE:
        return text.append("Height -1, under the base.")
    status = " (Current Foundation)" if main_tip else " (tip)" if tip else ""
    text.append(f"Height {unit.height}, IPH {unit.iph}, {branch_name(unit.branch, rtf)}{status}, on {on}.")
    if aimed:
        text.append(f" Targets {aimed}.")
    if countered:
        text.append(" Countered: it left unresolved.", style="italic")
    return text


def row_detail(read: PillarReading, kind: str, uid: int, branch: int, step: int, cards: Mapping[int, str],
               seats: Sequence[str], rtf: int, aimed: str = "") -> Text:
    """The sentences under the tree for the line under the cursor (see ``Row`` in the widget)."""
    if kind == "income":
        incomes = reverse_pillar(read.card_id(uid, cards))
        printed, ability = incomes[step - 1]
        why = reverse_reason([income.speed for _, income in incomes], step)
        return Text.assemble((f"{read.name_of(uid)}, Reverse Pillar {step}: ", "bold"), ability_text(ability),
                             (f" (printed {printed}; {why})", "dim"))
    if kind == "unit":
        unit, countered = read.unit(uid)
        main_tip = not countered and uid == read.pillar.main_tip_uid()
        tip = not countered and read.pillar.is_foundation(uid)
        return unit_detail(unit, seats, rtf, read.name_of(unit.foundation), main_tip, tip, countered, aimed)
    if kind == "base":
        return Text(f"{read.pillar.base_name}: height 0, IPH 0.")
    return Text(f"{subpillar_word(rtf)} {branch}, standing on {read.on_name(branch)}.")


def countered_in_use(pillar: Pillar) -> dict[int, Unit]:
    """The countered units that a unit still standing rests on, directly or through other countered units."""
    countered = {unit.uid: unit for _, unit in pillar.countered}
    kept: dict[int, Unit] = {}
    below = [unit.foundation for unit in pillar.units()]
    while below:
        uid = below.pop()
        if uid in countered and uid not in kept:
            kept[uid] = countered[uid]
            below.append(countered[uid].foundation)
    return kept


class PillarReading:
    """Look-ups on one pillar for drawing it: units by branch, names, foundation tags.

    A countered unit is included while a unit still standing rests on it
    (directly or through other countered units), so the tree can show what a
    subpillar stands on; once nothing does, it is gone from the tree as from
    the count of units. The engine keeps some longer (:attr:`Pillar.countered`),
    for rebuilding the pillar.
    """

    def __init__(self, pillar: Pillar) -> None:
        self.pillar = pillar
        self._countered = countered_in_use(pillar)
        self.branches: dict[int, list[Unit]] = {}
        """Units by branch id, in play order (so lowest first)."""
        for unit in sorted([*pillar.units(), *self._countered.values()], key=lambda u: u.order):
            self.branches.setdefault(unit.branch, []).append(unit)

    @property
    def countered_shown(self) -> int:
        """How many countered units the tree shows (those that units still standing rest on)."""
        return len(self._countered)

    def unit(self, uid: int) -> tuple[Unit, bool]:
        """The unit ``uid`` and whether it was countered.

        Raises:
            KeyError: no such unit is on the pillar.
        """
        if uid in self._countered:
            return self._countered[uid], True
        return self.pillar.unit(uid), False

    def name_of(self, uid: int) -> str:
        """A unit's name, or the base's."""
        return self.pillar.base_name if uid == BASE_UID else self.unit(uid)[0].name

    def on_name(self, branch: int) -> str:
        """The name of what subpillar ``branch`` stands on."""
        return cut(self.name_of(self.branches[branch][0].foundation), 24)

    def card_id(self, uid: int, cards: Mapping[int, str]) -> str | None:
        """The card id of a card unit, when ``cards`` (a view's iid map) knows it."""
        unit = self.unit(uid)[0]
        iid = unit.payload.get("iid") if unit.kind is UnitKind.CARD else None
        return cards.get(iid) if isinstance(iid, int) else None

    def tag(self, uid: int, rtf: int) -> str:
        """"Current Foundation", "Subpillar n tip" or "" (see :func:`foundation_tag`)."""
        if not self.pillar.is_foundation(uid):
            return ""
        unit = None if uid == BASE_UID else self.pillar.unit(uid)
        return foundation_tag(unit, uid == self.pillar.main_tip_uid(), rtf)

    def follow(self, old: int | None) -> int:
        """The foundation to keep after the pillar changed.

        ``old`` if it is still legal, else the tip of its branch if that
        still stands, else the main Current Foundation.
        """
        if old is not None and self.pillar.is_foundation(old):
            return old
        branch = MAIN
        if old is not None and old != BASE_UID:
            try:
                branch = self.unit(old)[0].branch
            except KeyError:  # it has resolved
                branch = MAIN
        tips = self.pillar.subpillar_tips()
        return tips[branch] if branch in tips else self.pillar.main_tip_uid()


@dataclass(frozen=True)
class Row:
    """What one tree line shows: a unit, the base, a subpillar header or one Income of a Reverse Pillar."""

    kind: Literal["unit", "base", "group", "income", "waiting", "waiting-group"]
    uid: int = BASE_UID
    """The unit (for an Income, the unit whose card it is on)."""
    branch: int = MAIN
    """The subpillar a group header names."""
    step: int = 0
    """An Income's place on the Reverse Pillar, from 1; a waiting trigger's place in line, from 1."""


class PillarOutline(Tree[Row]):
    """The tree inside the pillar widget: top of the pillar first, each line fitted by ``row_text``.

    Each branch lists its units highest first; a subpillar is a group drawn
    just above the unit it stands on, so every line stands above what it was
    built on. The base comes last, then Continue units (height -1).
    """

    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "

    def __init__(self, row_text: Callable[[Row, int], Text], *, id: str | None = None) -> None:
        super().__init__("Pillar", id=id)
        self.row_text = row_text
        self.show_root = False
        self.guide_depth = 2  # narrow guides leave the room to the facts on deep subpillars
        self.auto_expand = False

    def fill(self, read: PillarReading | None, cards: Mapping[int, str],
             opened: Callable[[int], bool], waiting: int = 0) -> dict[int, TreeNode[Row]]:
        """Lay out ``read``'s pillar (None: nothing); ``opened(uid)`` says which Reverse Pillars are open.

        ``waiting`` triggers, set off outside a pillar, follow in a section of their own.

        Returns:
            The node of each unit, the base (``BASE_UID``) and Continue unit.
        """
        self.clear()
        nodes: dict[int, TreeNode[Row]] = {}
        if read is not None:
            self._add_branch(self.root, MAIN, read, cards, opened, nodes)
            nodes[BASE_UID] = self.root.add_leaf("", Row("base"))
            for unit in read.pillar.continues:
                nodes[unit.uid] = self.root.add_leaf("", Row("unit", unit.uid))
        if waiting:
            section = self.root.add("", Row("waiting-group"), expand=True)
            for step in range(1, waiting + 1):
                section.add_leaf("", Row("waiting", step=step))
        self.root.expand()
        _ = self.last_line  # lay the lines out now, so nodes know their line for the cursor
        return nodes

    def _add_branch(self, parent: TreeNode[Row], branch: int, read: PillarReading, cards: Mapping[int, str],
                    opened: Callable[[int], bool], nodes: dict[int, TreeNode[Row]]) -> None:
        for unit in reversed(read.branches.get(branch, [])):
            self._add_groups(parent, unit.uid, read, cards, opened, nodes)
            incomes = reverse_pillar(read.card_id(unit.uid, cards))
            if not incomes:
                nodes[unit.uid] = parent.add_leaf("", Row("unit", unit.uid))
                continue
            node = nodes[unit.uid] = parent.add("", Row("unit", unit.uid), expand=opened(unit.uid))
            for step in range(1, len(incomes) + 1):
                node.add_leaf("", Row("income", unit.uid, step=step))
        if branch == MAIN:
            self._add_groups(parent, BASE_UID, read, cards, opened, nodes)

    def _add_groups(self, parent: TreeNode[Row], on: int, read: PillarReading, cards: Mapping[int, str],
                    opened: Callable[[int], bool], nodes: dict[int, TreeNode[Row]]) -> None:
        # Newest first, keeping "later above" within what stands on one unit.
        for branch in sorted((b for b, units in read.branches.items() if b != MAIN and units[0].foundation == on),
                             reverse=True):
            group = parent.add("", Row("group", branch=branch), expand=True)
            self._add_branch(group, branch, read, cards, opened, nodes)

    def render_label(self, node: TreeNode[Row], base_style: Style, style: Style) -> Text:
        if node.data is None:
            return Text()
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        # Guides take guide_depth cells per level; a leaf has no toggle icon, so its mark sits under the icons.
        icon = (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE) if node.allow_expand else ""
        width = max(1, self.size.width - depth * self.guide_depth - len(icon)) if self.size.width else 0
        label = self.row_text(node.data, width)
        label.stylize(style)
        return Text.assemble((icon, base_style), label)
