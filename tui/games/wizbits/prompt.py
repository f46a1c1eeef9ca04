"""The Wizbits battlefield's prompt (what to do now and with which keys) and its dice pane.

:func:`prompt_text` says what the decision on show asks for, the keys that
make it, what remains to divide or discard, the declared attacks and battles
as ``attacker → defender`` lines, and the rules' last refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.choices import ChoiceRow, Entry, chosen, entry_ability
from tui.games.wizbits.dice_log import DiceLog
from tui.games.wizbits.side import card_label

PROMPTS = {
    "watch": "Watching.",
    "hand": "Your Priority: enter chooses a card or ability · x passes · y/Y yield.",
    "compose": "space: next target · f: foundation · enter: pay and play · esc: back.",
    "attack": "Declare attackers: space toggles · enter declares (none is fine).",
    "block": "Block: space picks whom each character battles · enter confirms.",
    "assign": "Assign unblocked attackers: space picks the defender · enter confirms.",
    "divide": "Divide your damage: type it, or + and - · * all here · enter confirms.",
    "discard": "Reconcile: space marks cards to discard · enter discards.",
    "pending": "Choose targets for the flip Income: space cycles · enter confirms.",
}
"""What each decision asks for, and its keys."""


def conflict_lines(view: WizbitsView) -> list[str]:
    """Declared attacks, blocks and battles, one ``attacker → defender`` line each (▶ the battle being fought)."""
    lines = []
    if view.battles:
        for number, (attackers, defenders) in enumerate(view.battles):
            mark = "▶ " if number == view.battle else "  "
            lines.append(f"{mark}{', '.join(card_label(view, a) for a in attackers)} → "
                         f"{', '.join(card_label(view, d) for d in defenders)}")
    elif view.attackers:
        blocked = {attacker: defender for defender, attacker in view.blocks}
        for attacker in view.attackers:
            defender = blocked.get(attacker)
            lines.append(f"{card_label(view, attacker)} → "
                         f"{card_label(view, defender) if defender is not None else '(unblocked)'}")
    return lines


def prompt_text(view: WizbitsView, stage: str, rows: Sequence[ChoiceRow], total: int, *, step_mode: bool,
                pillar_hidden: bool, keys_hint: str | None, playing: str | None, message: str,
                note: str = "") -> Text:
    """The prompt above the choice list.

    Args:
        view: The view on show.
        stage: The decision on show (see :data:`PROMPTS`).
        rows: The choice lines, for what remains to divide or how many are marked.
        total: The damage to divide or the cards to discard.
        step_mode: Whether resolution waits for ``n``.
        pillar_hidden: The compact layout hides the pillar tree.
        keys_hint: The replay's own keys, shown while watching.
        playing: "Card on foundation" while a card or ability is being played.
        message: The rules' last refusal, if any.
        note: While watching, the seat's yield or the auto-pass setting ("Auto-pass on (P).").
    """
    text = Text()
    if message:  # first, so a long prompt never hides it
        text.append(f"{message}\n", style="bold red")
    if stage == "watch":
        if view.resolving and keys_hint is not None:  # the replay: its own keys, none of the table's
            text.append("Resolving the pillar (n: next step). ", style="bold")
            text.append(keys_hint, style="italic")
        elif view.resolving:
            how = "n: step · a: auto · p: pause · m: step mode off" if step_mode else \
                "playing by itself (m: step mode)"
            if pillar_hidden:
                how += " · t: show it"
            text.append(f"Resolving the pillar — {how}", style="bold")
        elif view.over:
            text.append("The game is over.", style="bold")
        else:
            text.append(keys_hint or PROMPTS["watch"], style="italic")
            if note and keys_hint is None:
                text.append(f" {note}", style="dim")
    else:
        if stage == "compose" and playing:
            text.append(f"Playing {playing}\n", style="bold")
        text.append(PROMPTS[stage], style="italic")
        if stage == "divide":
            left = total - sum(row.value for row in rows)
            text.append(f"\nRemaining: {left} of {total}", style="bold green" if left == 0 else "bold yellow")
        elif stage == "discard":
            text.append(f"\nMarked {len(chosen(rows))} of {total}", style="bold")
    # While declaring, the list's own lines say who goes where.
    for line in conflict_lines(view) if stage not in ("attack", "block", "assign") else ():
        text.append("\n" + line, style="cyan")
    return text


def inspect_text(note: str, compact: bool) -> Text:
    """The prompt while inspecting the table: the keys, then the note on the line looked at."""
    text = Text("Inspecting: ↑↓ looks · i or esc goes back" + (" · t: tree" if compact else ""), style="italic")
    if note:
        text.append(f"\n{note}")
    return text


def printed_cost(entry: Entry, view: WizbitsView) -> int:
    """A card's printed cost, or an ability's cost in points (the engine may change what is owed)."""
    if entry.ability is None:
        return CARDS_BY_ID[entry.card_id].cost
    cost = entry_ability(view, entry).cost
    return cost.points if cost is not None else 0


class WizbitsDiceLog(DiceLog):
    """The battlefield's dice log (the shared :class:`DiceLog`, which re-wraps when resized)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
