"""Shared by test_pillar_tree.py and other test modules, which import them from here.

Host, two_subpillars, moved here from tests/tui/wizbits/test_pillar_tree.py.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Footer

from engine.wizbits.pillar.tree import Pillar, UnitKind
from tui.games.wizbits.pillar_tree.text import PillarOutline
from tui.games.wizbits.pillar_tree.tree import PillarTree

SEATS = ("Ana", "Bo")
CARDS = {10: "dawnfly-oracle", 13: "wildfire-cascade", 14: "sunlit-insight", 20: "morning-chorus"}
"""iid -> card id, as a view's ``cards`` map gives them."""


def two_subpillars(format: str = "limited") -> Pillar:
    """Dawnfly Oracle on the base; two abilities on it open Subpillars 1 and 2; cards on the main tip and Subpillar 1."""
    continues = [(0, "Halo Lantern continue", {"iid": 30, "ability": 0})] if format == "constructed" else []
    pillar = Pillar.open("turn", format, continues)  # type: ignore[arg-type]
    oracle = pillar.play(UnitKind.CARD, 0, "Dawnfly Oracle", {"iid": 10})
    duelist = pillar.play(UnitKind.ABILITY, 1, "Ashmoth Duelist ability", {"iid": 11, "ability": 0})
    pillar.play(UnitKind.ABILITY, 0, "Glowworm Warden ability", {"iid": 12, "ability": 0})
    pillar.play(UnitKind.CARD, 1, "Wildfire Cascade", {"iid": 13}, on=oracle.uid)
    pillar.play(UnitKind.CARD, 0, "Sunlit Insight", {"iid": 14}, on=duelist.uid)
    return pillar


class Host(App[None]):
    """A pillar tree in a pane of ``width`` columns, with a footer; it records the tree's messages."""

    def __init__(self, pillar: Pillar | dict[str, Any] | None, *, width: int = 40, **options: Any) -> None:
        super().__init__()
        self.pillar = pillar
        self.width = width
        self.options = {"seats": SEATS, "cards": CARDS, **options}
        self.messages: list[PillarTree.Signal] = []

    def compose(self) -> ComposeResult:
        tree = PillarTree(self.pillar, id="pt", auto_pause=0.05, **self.options)
        tree.styles.width = self.width
        yield tree
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(PillarOutline).focus()

    def on_pillar_tree_foundation_changed(self, message: PillarTree.FoundationChanged) -> None:
        self.messages.append(message)

    def on_pillar_tree_step_requested(self, message: PillarTree.StepRequested) -> None:
        self.messages.append(message)

    def on_pillar_tree_auto_toggled(self, message: PillarTree.AutoToggled) -> None:
        self.messages.append(message)

    def on_pillar_tree_unit_highlighted(self, message: PillarTree.UnitHighlighted) -> None:
        self.messages.append(message)

    def of(self, kind: type[PillarTree.Signal]) -> list[Any]:
        return [message for message in self.messages if isinstance(message, kind)]
