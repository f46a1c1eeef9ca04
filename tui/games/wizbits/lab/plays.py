"""The Pillar Lab's plays: a card, a Trigger ability or a damage unit for the side whose turn it is.

Each is picked from a list, then its targets, and goes on the pillar tree's
foundation for free. :class:`LabPlayActions` sits between
:class:`~tui.games.wizbits.lab.files.LabFileActions` and
:class:`~tui.games.wizbits.lab.screen.PillarLabScreen`; the engine's
:func:`~engine.wizbits.lab.table.add_play` checks each play and the screen redraws
(:meth:`LabPlayActions._refresh`).
"""

from __future__ import annotations

from rich.text import Text
from textual import work

from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID
from engine.wizbits.effects import Effect
from engine.wizbits.lab.table import LabError, LabPlay, ability_choices, add_play, card_choices, trigger_abilities
from engine.wizbits.plays import card_slots
from engine.wizbits.resolve import chosen_slots
from engine.wizbits.text import ability_text, card_text
from tui.games.wizbits.lab.dialogs import PickScreen, ask_targets, ref_label
from tui.games.wizbits.lab.files import LabFileActions
from tui.games.wizbits.pillar_tree.tree import PillarTree


class LabPlayActions(LabFileActions):
    """Add a play to the scenario: pick what, then its targets; it stands on the tree's foundation."""

    def _refresh(self, reset_logs: bool = False) -> None:
        """Redraw the table after a change (the screen does it)."""
        raise NotImplementedError

    def _names(self) -> list[str]:
        return [player.name for player in self.table.state.players]

    @property
    def pillar_tree(self) -> PillarTree:
        """The pillar tree."""
        return self.query_one(PillarTree)

    def _on(self) -> str | None:
        """The tree's foundation as a Lab reference (None: the main Current Foundation)."""
        uid = self.pillar_tree.foundation
        return None if uid == self.table.pillar.main_tip_uid() else self.table.unit_ref(uid)

    def _play(self, play: LabPlay) -> None:
        try:
            self.table = add_play(self.table, play)
        except LabError as error:
            self.notify(str(error), title="Not possible", severity="error")
            return
        self._refresh()

    def _label(self, ref: str | None) -> str:
        return ref_label(self.table, ref)

    async def _targets(self, slots: list[Effect], options: list[list[str | None]]) -> tuple[str | None, ...] | None:
        return await ask_targets(self.app, self.table, slots, options)

    @work(exclusive=True)
    async def action_play_card(self) -> None:
        """Pick a card from the whole pool, then its targets; it goes on the tree's foundation."""
        name = self._names()[self.seat]
        choices = [(card.card_id, Text.assemble((card.name, "bold"), (f"  {card.category.label} · {card.element.label}"
                                                                      f" · cost {card.cost}", "dim"))) for card in CARDS]
        details = {card.card_id: "\n".join(card_text(card).splitlines()[2:-2]) for card in CARDS}
        card_id = await self.app.push_screen_wait(PickScreen(f"Play which card for {name}? (free)", choices,
                                                             details=details))
        if card_id is None:
            return
        on = self._on()
        slots = card_slots(CARDS_BY_ID[card_id])
        targets = await self._targets(slots, card_choices(self.table, self.seat, card_id))
        if targets is not None:
            self._play(LabPlay(self.seat, card=card_id, on=on, targets=targets))

    @work(exclusive=True)
    async def action_use_ability(self, _shown: bool = True) -> None:
        """Pick a Trigger ability of the side's cards in play, then its targets."""
        found = trigger_abilities(self.table, self.seat)
        name = self._names()[self.seat]
        if not found:
            self.notify(f"{name} has no card in play with a Trigger ability.")
            return
        choices = [(f"{ref}#{index}", f"{self._label(ref).split(' · ')[1]}: {ability_text(ability)}")
                   for ref, index, ability in found]
        picked = await self.app.push_screen_wait(PickScreen(f"Use which ability for {name}? (free)", choices))
        if picked is None:
            return
        ref, _, index_text = picked.partition("#")
        index = int(index_text)
        on = self._on()
        ability = next(ability for r, i, ability in found if (r, i) == (ref, index))
        options = ability_choices(self.table, self.seat, ref, index)
        targets = await self._targets(chosen_slots((ability,)), options)
        if targets is not None:
            self._play(LabPlay(self.seat, source=ref, ability=index, on=on, targets=targets))

    @work(exclusive=True)
    async def action_add_damage(self) -> None:
        """A damage unit: the side deals some points to one character of the battle's other side."""
        state = self.table.state
        battle = state.battles[0] if state.battles else None
        if battle is None:
            return
        other = battle.defenders if self.seat == state.active else battle.attackers
        refs = [self.table.ref_of(iid) for iid in other if state.permanent(iid) is not None]
        target = await self.app.push_screen_wait(
            PickScreen("Deal damage to which character?", [(ref, self._label(ref)) for ref in refs]))
        if target is None:
            return
        on = self._on()
        points = await self.app.push_screen_wait(
            PickScreen("How many points?", [(str(n), f"{n} point{'s' if n > 1 else ''}") for n in range(1, 13)]))
        if points is not None:
            self._play(LabPlay(self.seat, damage=((target, int(points)),), on=on))

