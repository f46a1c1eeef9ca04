"""The Pillar Lab's table: both sides' cards in play, with keys to change the set-up.

Each entry's id is the card's Lab reference (``"0/main"``, ``"1/table/2"``).
The keys only post :class:`LabCards.Edit`; the Lab screen changes its
scenario and rebuilds, so this widget holds no state of its own.
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.wizbits.continuous import points_of
from engine.wizbits.lab.table import LabTable
from tui.widgets.styles import load_css


def permanent_lines(table: LabTable) -> list[tuple[str, Text]]:
    """``(reference, label)`` for every card in play, seat 0's first, each side under a heading id ``side-N``."""
    state = table.state
    battle = set(state.battles[0].attackers + state.battles[0].defenders) if state.battles else set()
    lines: list[tuple[str, Text]] = []
    for seat, player in enumerate(state.players):
        lines.append((f"side-{seat}", Text(f"{player.name} (seat {seat + 1})", style="bold underline")))
        for permanent in player.in_play:
            card = state.card(permanent.iid)
            label = Text()
            label.append("★ " if permanent.iid == player.main else "  ", style="bold yellow")
            label.append(card.name, style="bold")
            facts = []
            if card.is_character:
                points = points_of(state, permanent)
                facts.append(f"d{points.strength}/d{points.will}/d{points.magic}")
                facts.append(f"SCN {points.scn}" + (f" ({permanent.damage} dmg)" if permanent.damage else ""))
            else:
                facts.append(card.category.label)
            flags = [flag for flag, on in (("seceded", permanent.seceded), ("in battle", permanent.iid in battle)) if on]
            label.append("\n    " + " · ".join(facts), style="dim")
            # Flags get their own line so a narrow panel never cuts them off.
            if flags:
                label.append("\n    " + " · ".join(flags), style="dim italic")
            lines.append((table.ref_of(permanent.iid), label))
    return lines


class LabCards(OptionList):
    """Cards in play on the Lab table; keys change damage, secession, battle and what is in play."""

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("plus,equals_sign", "edit('damage+')", "+Damage"),
        Binding("minus", "edit('damage-')", "-Damage"),
        Binding("v", "edit('secede')", "Secede"),
        Binding("m", "edit('battle')", "Battle", show=False),
        Binding("x,delete", "edit('remove')", "Remove"),
    ]

    class Edit(Message):
        """Change card ``ref`` of the set-up: ``damage+``, ``damage-``, ``secede``, ``battle`` or ``remove``."""

        def __init__(self, ref: str, what: str) -> None:
            super().__init__()
            self.ref = ref
            self.what = what

    def show(self, table: LabTable) -> None:
        """List the table's cards in play, keeping the highlighted card if it is still there."""
        current = self.highlighted_option.id if self.highlighted_option is not None else None
        self.clear_options()
        lines = permanent_lines(table)
        self.add_options([Option(label, id=ref, disabled=ref.startswith("side-")) for ref, label in lines])
        refs = [ref for ref, _ in lines]
        if current in refs:
            self.highlighted = refs.index(current)
        elif len(refs) > 1:
            self.highlighted = 1

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "edit":
            option = self.highlighted_option
            # Cards a play brought into play are results, not set-up: they can't be edited.
            return option is not None and option.id is not None and option.id[0] in "01"
        return True

    def action_edit(self, what: str) -> None:
        """Ask the Lab to change the highlighted card."""
        option = self.highlighted_option
        if option is not None and option.id is not None and option.id[0] in "01":
            self.post_message(self.Edit(option.id, what))
