"""Wizards Cup for the card lookup: each wizard's whole text, and where it stands in a seat's view."""

from __future__ import annotations

from engine.wizards_cup.cards import BEATS, WIZARDS, Element, Wizard
from engine.wizards_cup.state import PlayerView, WizardsCupView
from tui.games.lookup import CardEntry
from tui.games.wizards_cup.wizard_card import TIMING_LABELS, power_summary
from tui.narration import names_phrase, possessive


def _beats(element: Element) -> str:
    beaten = [other.value for other in Element if other in BEATS[element]]
    if not beaten:
        return f"{element.value} neither beats nor loses to any element."
    return f"{element.value} beats {names_phrase(beaten)}."


def wizard_text(wizard: Wizard) -> str:
    """The wizard's whole card as plain lines: element, value, Magic Power (with its timing) and what it beats."""
    lines = [f"Element: {wizard.element.value}. Value: {wizard.value}."]
    if wizard.power is None:
        lines.append("No Magic Power.")
    else:
        lines.append(f"Magic Power, {TIMING_LABELS[wizard.power.timing].lower()}: {power_summary(wizard)}")
    lines.append(_beats(wizard.element))
    return "\n".join(lines)


def card_index() -> list[CardEntry]:
    """The 18 wizards, by value."""
    return [CardEntry(wizard.card_id, wizard.name, "wizard", wizard_text(wizard)) for wizard in WIZARDS]


def _places(view: WizardsCupView, index: int, player: PlayerView, key: str) -> list[str]:
    """Where ``key`` stands among one player's cards, as far as the view shows them."""
    mine = index == view.seat
    whose = "your" if mine else possessive(player.name)
    places = []
    if player.zone == key:
        places.append(f"in {whose} Duel zone, duel {view.duel} of round {view.round}")
    if player.displayed == key:
        places.append(f"{whose} displayed wizard")
    if player.waiting == key:
        places.append(f"{whose} Waiting Card")
    if player.deck is not None and key in player.deck:
        places.append(f"in {whose} lineup, number {player.deck.index(key) + 1} of {len(player.deck)} still to duel")
    elif player.team is not None and key in player.team and not places:
        places.append(f"in {whose} team")
    if key in player.discard:
        top = player.discard[-1] == key
        places.append(f"on top of {whose} discard pile" if top else f"in {whose} discard pile")
    return places


def card_now(view: WizardsCupView, seat: int | None, key: str) -> str | None:
    """Where wizard ``key`` stands for the seat looking; None when its view shows it nowhere."""
    places = [place for index, player in enumerate(view.players) for place in _places(view, index, player, key)]
    if not places:
        return None
    text = "; ".join(places)
    return f"Now: {text[:1].upper()}{text[1:]}."
