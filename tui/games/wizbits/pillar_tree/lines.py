"""What the pillar tree's lines and sentences say: marks, unit lines with their targets, the
waiting triggers' section and the explanation under the tree.

:mod:`tui.games.wizbits.pillar_tree.text` fits text to a width and lays the tree
out; this module decides the words for one line or sentence from a
:class:`PillarReading`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from engine.wizbits.pillar.text import describe_group, reverse_reason, subpillar_word
from engine.wizbits.pillar.tree import Pillar, Unit
from engine.wizbits.unit_targets import TargetView, WaitingTrigger, targets_phrase
from tui.games.wizbits.pillar_tree.text import (
    OWNER_MIN,
    Form,
    PillarReading,
    Row,
    Styles,
    cut,
    fit_line,
    group_line,
    income_line,
    reverse_pillar,
    row_detail,
    seat_name,
    short_tag,
    unit_forms,
)

WAITING_TITLE = "Waiting for the next pillar"


def waiting_detail(step: int, waiting: Sequence[WaitingTrigger], seats: Sequence[str]) -> Text:
    """The sentences under the tree for the waiting section (``step`` 0) or one waiting trigger."""
    if step == 0:
        return Text("Triggers set off when no pillar was open. They go on the next pillar, "
                    "in the order they were set off.")
    trigger = waiting[step - 1]
    return Text.assemble((f"{trigger.name}", "bold"), f" — trigger by {seat_name(seats, trigger.owner)}, "
                         f"set off when {trigger.event}. It waits for the next pillar and goes on it first.")


def line_marks(uid: int, mode: str, foundation: int, group: Sequence[Unit], tag: str) -> tuple[str, str, str]:
    """(mark column, tag, highlight class) of a unit's or the base's line.

    In step mode the units about to resolve are ranked ``#1`` (the one that
    prevails) upwards; while building, the foundation for the next unit is ``◆``.
    """
    ranks = {unit.uid: len(group) - index for index, unit in enumerate(group)}
    if mode == "step" and uid in ranks:
        return f"#{ranks[uid]} ", "prevails" if ranks[uid] == 1 and len(group) > 1 else "", "resolving"
    if mode == "build" and uid == foundation:
        return "◆ ", f"{tag} ◀ next" if tag else "◀ next", "foundation"
    return ("◇ " if tag else "  "), tag, ""


def waiting_line(row: Row, waiting: Sequence[WaitingTrigger], seats: Sequence[str], width: int,
                 styles: Styles) -> Text:
    """The waiting section's header, or one waiting trigger: ``Gloomgnat Swarm · Bo · trig · when this card is destroyed``."""
    if row.kind == "waiting-group":
        return fit_line("", [(WAITING_TITLE, f" · {len(waiting)}", ""), ("Waiting", f" {len(waiting)}", "")],
                        width, styles)
    trigger = waiting[row.step - 1]
    owner = seat_name(seats, trigger.owner)
    forms: list[Form] = [(trigger.name, f" · {owner} · trigger · when {trigger.event}", ""),
                         (trigger.name, f" {owner} trig", ""), (trigger.name, f" {cut(owner, OWNER_MIN)} trig", "")]
    return fit_line("⧗ ", forms, width, styles)


def aim_texts(targets: Sequence[TargetView], seats: Sequence[str], viewer: int | None) -> tuple[str, str]:
    """A unit's targets for its tree line: in full (``your Pup, Bo's Sunder``) and as bare names."""
    if not targets:
        return "", ""
    return targets_phrase(targets, seats, viewer), ", ".join(target.name for target in targets)


def tree_line(row: Row, width: int, styles: Styles, read: PillarReading, seats: Sequence[str],
              cards: Mapping[int, str], rtf: int, mark: str, tag: str, highlight: str,
              aim: tuple[str, str] = ("", "")) -> tuple[Text, str]:
    """The text of one tree line and its highlight class (``"countered"`` overrides the one given)."""
    if row.kind == "group":
        return group_line(row.branch, read.on_name(row.branch), rtf, width, styles), highlight
    if row.kind == "income":
        printed, ability = reverse_pillar(read.card_id(row.uid, cards))[row.step - 1]
        return income_line(row.step, printed, ability, width, styles), highlight
    if row.kind == "base":
        name = read.pillar.base_name
        forms = [(name, " · h0", f" · {tag}" if tag else ""), (name, " h0", f" {short_tag(tag)}" if tag else ""),
                 (name, " h0", "")]
        return fit_line(mark, forms, width, styles, cuttable=_tagged_first(forms[-1:], tag)), highlight
    unit, countered = read.unit(row.uid)
    unit_lines = unit_forms(unit, seats, rtf, tag, short_tag(tag), countered, aim)
    whole = unit_lines[:-1] if aim[1] else unit_lines
    cuttable = _tagged_first(unit_lines[-3:], tag)
    return fit_line(mark, whole, width, styles, cuttable=cuttable), "countered" if countered else highlight


def _tagged_first(forms: Sequence[Form], tag: str) -> list[Form]:
    """The forms to cut a name in: on the next unit's foundation, first with its short tag, so the name is cut
    rather than "CF ◀ next"; then bare."""
    if "◀" not in tag:
        return list(forms)
    tags = dict.fromkeys((f" {short_tag(tag)}", " ◀ next", " ◀"))  # the tag itself shortens last
    return [(name, facts, short) for short in tags for name, facts, _ in forms] + list(forms)


def reverse_notes(read: PillarReading, group: Sequence[Unit], cards: Mapping[int, str]) -> str:
    """`` Ember Rite: Reverse Pillar: Conflict Speed first.`` for each resolving card whose Incomes differ in speed."""
    notes = ""
    for unit in reversed(group):
        speeds = [income.speed for _, income in reverse_pillar(read.card_id(unit.uid, cards))]
        if len(set(speeds)) > 1:
            notes += f" {unit.name}: {reverse_reason(speeds, 1)}."
    return notes


def explanation(read: PillarReading, mode: str, group: Sequence[Unit], rtf: int, foundation: int,
                legal: Sequence[int], *, hint: bool, cards: Mapping[int, str] | None = None) -> str:
    """The line under the tree: why the next step resolves as it does, or where the next unit goes.

    ``hint`` adds which of the legal foundations is chosen (not in a replay, where nobody builds).
    """
    if mode == "step":
        return describe_group(tuple(group), rtf) + reverse_notes(read, group, cards or {}) if group \
            else "The pillar has resolved."
    where = f"Next unit goes on {read.name_of(foundation)}"
    tag = read.tag(foundation, rtf)
    where += f" ({'main ' if tag == 'Current Foundation' else ''}{tag})." if tag else "."
    shown = hint and len(legal) > 1
    return where + (f" f: {list(legal).index(foundation) + 1} of {len(legal)}." if shown else "")


def no_pillar(waiting: int) -> str:
    """The line under the tree when no pillar stands, and ``waiting`` triggers wait for the next one."""
    return "No pillar stands." + (f" {waiting} trigger{'s wait' if waiting != 1 else ' waits'} for the next one."
                                  if waiting else "")


def title_line(mode: str, auto: bool, pillar: Pillar | None, rtf: int, countered: int = 0) -> Text:
    """The line over the tree: ``Step mode (auto) · 3 units · 1 countered · 1 Subpillar``.

    ``countered`` is how many countered units the tree still draws (others rest on them): they
    are no units to resolve, but the count says they are there.
    """
    title = Text("Step mode" if mode == "step" else "Building", style="bold")
    if auto:
        title.append(" (auto)", style="bold")
    if pillar is not None:
        live, left = len(pillar.subpillar_tips()), pillar.remaining()
        word = subpillar_word(rtf) + ("s" if live != 1 else "")
        shown = f" · {countered} countered" if countered else ""
        title.append(f" · {left} unit{'s' if left != 1 else ''}{shown} · {live} {word}", style="dim")
    title.no_wrap, title.overflow = True, "ellipsis"
    return title


def cursor_detail(row: Row | None, read: PillarReading | None, waiting: Sequence[WaitingTrigger],
                  seats: Sequence[str], cards: Mapping[int, str], rtf: int, aimed: str) -> Text:
    """The sentences under the tree for the line under the cursor (``aimed``: its unit's targets in full)."""
    if row is not None and row.kind in ("waiting", "waiting-group"):
        return waiting_detail(row.step, waiting, seats)
    if row is not None and read is not None:
        return row_detail(read, row.kind, row.uid, row.branch, row.step, cards, seats, rtf, aimed)
    return Text()
