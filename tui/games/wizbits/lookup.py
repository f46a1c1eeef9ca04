"""Wizbits for the card lookup: every card's whole text, and its current values where a seat sees it."""

from __future__ import annotations

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.views import PlayerView, WizbitsView
from tui.games.lookup import CardEntry
from tui.games.wizbits.card import card_renderable
from tui.games.wizbits.inspection import points_note
from tui.narration import possessive


def card_index() -> list[CardEntry]:
    """Every card of the set, with its whole printed text (the text Inspect shows, without colour)."""
    return [CardEntry(card_id, card.name, card.category.label, card_renderable(card).plain)
            for card_id, card in CARDS_BY_ID.items()]


def _places(view: WizbitsView, index: int, player: PlayerView, key: str) -> list[str]:
    whose = "your" if index == view.seat else possessive(player.name)
    places = []
    for permanent in player.in_play:
        if permanent.card_id != key:
            continue
        words = f"in play for {'you' if index == view.seat else player.name}"
        if permanent.is_main:
            words += " as the Main Character"
        if permanent.seceded:
            words += ", seceded (its FLIP abilities live)"
        note = points_note(permanent).removeprefix("Now: ").rstrip(".")  # "S d8 ... SCN 7 (2 dmg) (printed ...)"
        if permanent.damage and not note:
            words += f", {permanent.damage} damage"
        places.append(f"{words}: {note}" if note else words)
    if player.hand is not None:
        held = sum(view.cards.get(iid) == key for iid in player.hand)
        if held:
            places.append(f"in {whose} hand" + (f" ({held} copies)" if held > 1 else ""))
    discarded = sum(card_id == key for _, card_id in player.discard)
    if discarded:
        places.append(f"in {whose} discard pile" + (f" ({discarded} copies)" if discarded > 1 else ""))
    return places


def _on_the_pillar(view: WizbitsView, key: str) -> list[str]:
    """The Pillar's units that came from a card ``key`` (the Pillar is public; an iid the view cannot name is skipped)."""
    if view.pillar is None:
        return []
    places = []
    for unit in parse_pillar(dict(view.pillar)).units():
        iid = unit.payload.get("iid")
        if not isinstance(iid, int) or view.cards.get(iid) != key:
            continue
        owner = view.players[unit.owner].name if 0 <= unit.owner < len(view.players) else f"Seat {unit.owner + 1}"
        places.append(f"on the Pillar: {unit.name}, {unit.kind.value} by {owner}, height {unit.height}")
    return places


def card_now(view: WizbitsView, seat: int | None, key: str) -> str | None:
    """Where card ``key`` stands for the seat looking, with a character's current Main Points and damage."""
    places = [place for index, player in enumerate(view.players) for place in _places(view, index, player, key)]
    places += _on_the_pillar(view, key)
    if not places:
        return None
    text = "; ".join(places)
    return f"Now: {text[:1].upper()}{text[1:]}."
