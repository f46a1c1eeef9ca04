"""Dialogs of the Pillar Lab: pick one thing from a list (cards, targets), and set up the table.

Both are modal screens that dismiss with the answer (None when cancelled),
so the Lab screen can ``await push_screen_wait`` them one after another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.core.rng import seeded_rng
from engine.core.text import clean_text
from engine.core.words import plural
from engine.wizbits.cards.card_set import CHARACTERS
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import parse_decklist
from engine.wizbits.effects import Effect
from engine.wizbits.lab.table import LabCard, LabSide, LabTable, Scenario
from saves import SessionStore, StoreError
from saves.decks import DeckStore
from saves.paths import data_dir
from tui.safe_text import markup_safe, plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import load_css

NO_DECK = "-"
"""The deck choice for a side with an empty deck."""

KEEP = "="
"""The deck choice that keeps a side's own list of cards."""

SAVED = "saved:"
"""Prefix of the deck choices that are saved deck lists."""

EXPORTS = "exports"
"""The folder, in Coven's data directory, that the save and export dialogs offer (a typed path: tui/user_paths.py)."""


def exports_dir() -> Path:
    """Where exported deck lists and saved Lab scenarios go by default (not created here)."""
    return data_dir() / EXPORTS


class PickScreen(ModalScreen[str | None]):
    """Choose one entry of a list; dismisses with its id, or None on Escape."""
    HELP_TITLE = "Choose"
    HELP = "Pick one entry with the arrow keys and enter; escape cancels."

    DEFAULT_CSS = load_css(__file__)
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str, str | Text]], detail: str = "",
                 details: Mapping[str, str] | None = None) -> None:
        """``choices`` are ``(id, label)`` pairs, shown in order; ``details`` a text per id, shown when highlighted."""
        super().__init__()
        self.title_text = title
        self.choices = list(choices)
        self.detail = detail
        self.details = dict(details or {})

    def compose(self) -> ComposeResult:
        with Vertical(classes="lab-dialog"):
            yield Label(plain(self.title_text), classes="lab-dialog-title")  # may name a player: never markup
            if self.detail:
                yield Static(plain(self.detail), classes="lab-dialog-detail")
            # Labels may name players (typed in the Lab or read from a scenario file): text labels are never markup.
            yield OptionList(*(Option(plain(label) if isinstance(label, str) else label, id=key)
                               for key, label in self.choices), id="pick-list")
            if self.details:
                yield Static(id="pick-detail")
            yield Static("enter: choose · escape: cancel", classes="lab-dialog-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionHighlighted, "#pick-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.details:
            self.query_one("#pick-detail", Static).update(plain(self.details.get(event.option.id or "", "")))

    @on(OptionList.OptionSelected, "#pick-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without a choice."""
        self.dismiss(None)


class SetupScreen(ModalScreen[Scenario | None]):
    """The table's settings: title, format, RTF, base, and each side's name, deck and Main Character.

    Dismisses with the scenario changed (cards in play and plays kept), or None.
    """
    HELP_TITLE = "Lab set-up"
    HELP = ("The Lab table's settings and each side's name, deck and Main Character. Tab moves between "
            "fields.")

    DEFAULT_CSS = load_css(__file__)
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "apply", "Apply", priority=True)]

    def __init__(self, scenario: Scenario, saved: Mapping[str, tuple[tuple[str, ...], str]] | None = None) -> None:
        """``saved`` maps saved deck names to their cards (top first) and Main Character."""
        super().__init__()
        self.scenario = scenario
        self.saved = dict(saved or {})

    def compose(self) -> ComposeResult:
        scenario = self.scenario
        decks = [(deck.name, deck_id) for deck_id, deck in STARTER_DECKS.items()]
        decks += [(markup_safe(f"Saved: {name}"), f"{SAVED}{name}") for name in self.saved] + [("Empty deck", NO_DECK)]
        mains = [(card.name, card.card_id) for card in CHARACTERS]
        with Vertical(classes="lab-dialog lab-setup"):
            yield Label("Set up the Lab table", classes="lab-dialog-title")
            yield Input(scenario.title, placeholder="Title", id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Select([("Constructed", "constructed"), ("Limited", "limited")], value=scenario.format,
                             allow_blank=False, id="setup-format")
                yield Select([("RTF 1 (Subpillar)", 1), ("RTF 2 (Spire)", 2)], value=scenario.rtf,
                             allow_blank=False, id="setup-rtf")
                yield Select([("Turn base", "turn"), ("Damage base", "damage")], value=scenario.base,
                             allow_blank=False, id="setup-base")
            for seat, side in enumerate(scenario.sides):
                deck = side.deck if isinstance(side.deck, str) else KEEP if side.deck else NO_DECK
                own = [(f"Its own list ({plural(len(side.deck), 'card')})", KEEP)] if deck == KEEP else []
                with Horizontal(classes="setup-row"):
                    yield Input(side.name, placeholder=f"Seat {seat + 1}", id=f"setup-name-{seat}",
                                classes="setup-name")
                    yield Select(own + decks, value=deck, allow_blank=False, id=f"setup-deck-{seat}")
                    yield Select(mains, value=side.main.card, allow_blank=False, id=f"setup-main-{seat}")
            yield Static("tab: next field · enter or ctrl+s: apply · escape: cancel", classes="lab-dialog-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.query_one("#setup-title", Input).focus()

    def _side(self, seat: int) -> LabSide:
        side = self.scenario.sides[seat]
        # A Lab name never leaves this terminal, so what the rule refuses is dropped rather than refused.
        name = clean_text(self.query_one(f"#setup-name-{seat}", Input).value, max_length=40) or side.name
        deck_value = str(self.query_one(f"#setup-deck-{seat}", Select).value)
        main_id = str(self.query_one(f"#setup-main-{seat}", Select).value)
        deck: str | tuple[str, ...] = deck_value
        if deck_value == KEEP:
            deck = side.deck
        elif deck_value == NO_DECK:
            deck = ()
        elif deck_value.startswith(SAVED):
            cards, deck_main = self.saved[deck_value[len(SAVED):]]
            if main_id == side.main.card:
                main_id = deck_main  # the saved deck's own Main Character, unless another was picked
            listed = list(cards)
            if main_id in listed:
                listed.remove(main_id)  # that copy starts in play
            deck = tuple(listed)
        main = side.main if main_id == side.main.card else LabCard(main_id)
        return replace(side, name=name, deck=deck, main=main)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_apply()

    def action_apply(self) -> None:
        """Close with the new settings."""
        base = str(self.query_one("#setup-base", Select).value)
        scenario = self.scenario
        title = self.query_one("#setup-title", Input).value.strip()[:80] or scenario.title
        attackers, defenders = scenario.attackers, scenario.defenders
        if base == "turn":
            attackers, defenders = (), ()
        elif not attackers or not defenders:
            # A battle needs someone on each side: the two Main Characters, until the player changes it.
            attackers, defenders = (f"{scenario.active}/main",), (f"{1 - scenario.active}/main",)
        self.dismiss(replace(
            scenario, title=title, format=str(self.query_one("#setup-format", Select).value),
            rtf=int(str(self.query_one("#setup-rtf", Select).value)), base=base,
            sides=(self._side(0), self._side(1)), attackers=attackers, defenders=defenders))

    def action_cancel(self) -> None:
        """Close without changes."""
        self.dismiss(None)


def ref_label(table: LabTable, ref: str | None) -> str:
    """How a target reference reads in a picker: ``"Bo · Pondskater Scout"`` or a unit with its height and IPH."""
    if ref is None:
        return "nothing (no legal choice)"
    if ref.startswith(("play/", "unit/")):
        unit = table.pillar.unit(table.unit_uid(ref))
        owner = table.state.players[unit.owner].name
        return f"{unit.name} by {owner} (height {unit.height}, IPH {unit.iph})"
    iid = table.card_iid(ref) if ref[0] in "01" else int(ref.split("/")[1])
    return f"{table.state.players[table.state.owner(iid)].name} · {table.state.card(iid).name}"


async def ask_targets(app: App[Any], table: LabTable, slots: Sequence[Effect],
                      options: Sequence[Sequence[str | None]]) -> tuple[str | None, ...] | None:
    """Ask for each chosen target in turn (a slot with one legal choice takes it); None if cancelled.

    Call it from a worker: it waits for each picker.
    """
    chosen: list[str | None] = []
    for number, (effect, legal) in enumerate(zip(slots, options, strict=False), start=1):
        if len(legal) == 1:
            chosen.append(legal[0])
            continue
        title = f"Target {number} of {len(slots)}: {effect.target.phrase}"
        picked = await app.push_screen_wait(PickScreen(title, [(str(ref), ref_label(table, ref)) for ref in legal]))
        if picked is None:
            return None
        chosen.append(picked)
    return tuple(chosen)


def saved_decks(store: SessionStore | None, seed: int) -> dict[str, tuple[tuple[str, ...], str]]:
    """The saved Wizbits deck lists: name -> (cards shuffled with ``seed``, Main Character); {} without a store."""
    if store is None:
        return {}
    try:
        saved = DeckStore(store).list_decks()
    except StoreError:
        return {}
    found = {}
    for number, deck in enumerate(saved):
        try:
            parsed = parse_decklist(deck.text)
        except ValueError:
            continue
        cards = parsed.card_ids()
        seeded_rng(seed, "lab deck", number).shuffle(cards)
        if parsed.main is not None:
            found[deck.name] = (tuple(cards), parsed.main)
    return found
