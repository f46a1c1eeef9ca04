"""Wizbits in words: the announce key, the turn prompt, and the Pillar and the table as lines of text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.words import plural
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.pillar.json_form import parse_pillar
from engine.wizbits.pillar.text import branch_name
from engine.wizbits.pillar.tree import Pillar, Unit
from engine.wizbits.state import Phase
from engine.wizbits.unit_targets import TargetView, targets_phrase
from engine.wizbits.views import PermanentView, PlayerView, WizbitsView
from tui.games.narration import Narration, Question
from tui.narration import names_phrase, possessive
from tui.verbosity import DEFAULT, Verbosity


def card_name(card_id: str | None) -> str:
    """A card's printed name (its id if unknown)."""
    if card_id is None:
        return "an unknown card"
    card = CARDS_BY_ID.get(card_id)
    return card_id if card is None else card.name


def phase_words(view: WizbitsView) -> str:
    """``"Turn 3, Ana's turn, Play Phase 1: Elements"``."""
    label = Phase.LABELS.get(view.phase, view.phase)
    if view.phase in (Phase.ELEMENTS, Phase.NON_ELEMENTS):
        label = f"Play Phase {view.play_round}: {label}"
    return f"Turn {view.turn}, {view.players[view.active].name}'s turn, {label}"


def priority_words(view: WizbitsView) -> str:
    """Who holds Priority, from the viewer's side."""
    if view.over:
        return ""
    if view.resolving:
        return "The Pillar is resolving."
    if view.priority is None:
        return "Nobody holds Priority."
    holder = "You hold" if view.priority == view.seat else f"{view.players[view.priority].name} holds"
    return f"{holder} Priority."


def unit_words(view: WizbitsView, unit: Unit) -> str:
    """``"Sparkswarm Volley by Ana, height 2, targets your Pondskater Scout"``."""
    return unit_sentence(unit, view.targets.get(unit.uid, ()), [p.name for p in view.players], view.seat)


def unit_sentence(unit: Unit, targets: Sequence[TargetView], names: Sequence[str], viewer: int | None) -> str:
    """One unit with its owner ("you" for the viewer), height and targets."""
    owner = "you" if unit.owner == viewer else names[unit.owner] if 0 <= unit.owner < len(names) else "nobody"
    text = f"{unit.name} by {owner}, height {unit.height}"
    if targets:
        text += f", targets {targets_phrase(targets, names, viewer)}"
    return text


def pillar_units(view: WizbitsView) -> list[Unit]:
    """The units on the Pillar in play order (empty when there is none)."""
    if view.pillar is None:
        return []
    return sorted(parse_pillar(view.pillar).units(), key=lambda unit: unit.order)


def top_words(view: WizbitsView) -> str:
    """The top of the Pillar and its targets, in a sentence."""
    if view.pillar is None:
        return "No Pillar is open."
    units = [unit for unit in pillar_units(view) if unit.height >= 1]
    if not units:
        return "The Pillar is empty."
    return f"Top of the Pillar: {unit_words(view, units[-1])}."


def scn_words(view: WizbitsView) -> str:
    """Each Main Character's SCN: ``"SCNs: yours 9 (2 damage), Bo's 7"``."""
    parts = []
    for index, player in enumerate(view.players):
        main = next((card for card in player.in_play if card.iid == player.main), None)
        if main is None or main.points is None:
            continue
        whose = "yours" if index == view.seat else f"{player.name}'s"
        damage = f" ({plural(main.damage, 'damage', 'damage')})" if main.damage else ""
        parts.append(f"{whose} {main.points.scn}{damage}")
    return f"SCNs: {', '.join(parts)}." if parts else ""


def permanent_words(permanent: PermanentView, cards: dict[int, str]) -> str:
    """One card in play: name, Main Points with SCN, damage, flipped."""
    text = card_name(cards.get(permanent.iid, permanent.card_id))
    if permanent.is_main:
        text += " (Main Character)"
    points = permanent.points
    if points is not None:
        text += f", Strength d{points.strength}, Will d{points.will}, Magic d{points.magic}, SCN {points.scn}"
    if permanent.damage:
        text += f", {permanent.damage} damage"
    if permanent.seceded:
        text += ", seceded"
    return text


def player_words(view: WizbitsView, index: int, player: PlayerView) -> list[str]:
    """One side of the table as lines."""
    whose = "You" if index == view.seat else player.name
    lines = [f"{whose}: {plural(player.hand_count, 'card')} in hand, {player.deck_count} in the deck, "
             f"{len(player.discard)} in the discard pile."]
    lines += [f"In play: {permanent_words(card, view.cards)}." for card in player.in_play]
    if player.hand:
        lines.append(f"Your hand: {names_phrase([card_name(view.cards.get(iid)) for iid in player.hand])}.")
    return lines


def pillar_lines(view: WizbitsView) -> list[str]:
    """The Pillar, top first, branch by branch."""
    pillar = None if view.pillar is None else parse_pillar(view.pillar)
    return pillar_sentences(pillar, view.targets, [p.name for p in view.players], view.seat, view.rtf)


def pillar_sentences(pillar: Pillar | None, targets: Mapping[int, Sequence[TargetView]], names: Sequence[str],
                     viewer: int | None, rtf: int) -> list[str]:
    """A pillar as lines of words, top first, one line per branch (the Pillar Lab's too)."""
    if pillar is None:
        return ["No Pillar is open."]
    units = sorted((unit for unit in pillar.units() if unit.height >= 1), key=lambda unit: unit.order)
    if not units:
        return ["The Pillar is empty."]
    branches: dict[int, list[Unit]] = {}
    for unit in units:
        branches.setdefault(unit.branch, []).append(unit)
    lines = []
    for branch in sorted(branches):
        name = branch_name(branch, rtf)
        words = "; ".join(unit_sentence(unit, targets.get(unit.uid, ()), names, viewer)
                          for unit in reversed(branches[branch]))
        lines.append(f"{name[0].upper()}{name[1:]}, top first: {words}.")
    return lines


def hand_answer(view: WizbitsView, me: PlayerView) -> str:
    """The asking seat's hand by name, and the Secession points it holds for its next payment."""
    names = [card_name(view.cards.get(iid)) for iid in me.hand or ()]
    text = f"Your hand: {names_phrase(names)}." if names else "Your hand is empty."
    if me.points:
        text += f" You hold {plural(me.points, 'Secession point')} for your next payment."
    return text


def public_answer(view: WizbitsView, index: int, player: PlayerView) -> str:
    """What anyone sees of one side: its piles' sizes and its cards in play."""
    lines = player_words(view, index, player)[:1]  # the counts; never the hand's line
    in_play = [permanent_words(card, view.cards) for card in player.in_play]
    if in_play:
        lines.append(f"In play: {'; '.join(in_play)}.")
    return " ".join(lines)


def score_answer(view: WizbitsView) -> str:
    """Each Main Character's Main Points and current SCN with its damage: what decides a Break check."""
    parts = []
    for index, player in enumerate(view.players):
        main = next((card for card in player.in_play if card.iid == player.main), None)
        whose = "Your" if index == view.seat else possessive(player.name)
        if main is None or main.points is None:
            parts.append(f"{whose} Main Character is not in play.")
            continue
        points = main.points
        damage = f" ({plural(main.damage, 'damage', 'damage')} taken)" if main.damage else ""
        parts.append(f"{whose} Main Character {card_name(view.cards.get(main.iid, main.card_id))}: Strength "
                     f"d{points.strength}, Will d{points.will}, Magic d{points.magic}, SCN {points.scn}{damage}.")
    return " ".join(parts)


def board_answer(view: WizbitsView) -> str:
    """The Pillar, top first, and who attacks in a Conflict."""
    lines = pillar_lines(view)
    if view.attackers:
        lines.append(f"Attacking: {names_phrase([card_name(view.cards.get(iid)) for iid in view.attackers])}.")
    return " ".join(lines)


class WizbitsNarration(Narration[WizbitsView]):
    """Wizbits' sentences: phase, Priority, the top of the Pillar and its targets, SCNs."""

    def announce(self, view: WizbitsView, seat: int | None, detail: bool) -> str:
        """E.g. "Turn 2, Ana's turn, Play Phase 1: Elements. You hold Priority. Top of the Pillar: …"."""
        if view.over:
            winner = "nobody" if view.winner is None else view.players[view.winner].name
            parts = [f"The game is over: {winner} won.", view.reason]
        else:
            parts = [f"{phase_words(view)}.", priority_words(view), top_words(view)]
        parts.append(scn_words(view))
        if detail:
            if len(pillar_lines(view)) > 1 or len(pillar_units(view)) > 1:
                parts += pillar_lines(view)
            for index, player in enumerate(view.players):
                parts += player_words(view, index, player)
        return " ".join(part for part in parts if part)

    def answer(self, view: WizbitsView, seat: int | None, question: Question, names: Sequence[str],
               level: Verbosity = DEFAULT) -> str | None:
        """Your hand, the other sides' cards in play, the Main Characters' points and SCNs, and the Pillar; at full,
        the hand answer adds your piles and cards in play, the board answer every side of the table."""
        full = level is Verbosity.FULL
        if question is Question.HAND and seat is not None:
            text = hand_answer(view, view.players[seat])
            return f"{text} {public_answer(view, seat, view.players[seat])}" if full else text
        if question is Question.OPPONENTS:
            return " ".join(public_answer(view, index, player) for index, player in enumerate(view.players)
                            if index != seat)
        if question is Question.SCORE:
            return score_answer(view)
        if question is Question.BOARD:
            if full:
                return " ".join([board_answer(view), *(public_answer(view, index, player)
                                                       for index, player in enumerate(view.players))])
            return board_answer(view)
        return None

    def asked(self, view: WizbitsView, seat: int, names: Sequence[str]) -> str | None:
        """Inside another player's turn, "Bo holds Priority in Ana's turn" (or "Bo chooses in Ana's turn")."""
        if seat == view.active or not 0 <= view.active < len(names) or not 0 <= seat < len(names):
            return None
        doing = "holds Priority" if view.priority == seat and view.pending is None else "chooses"
        return f"{names[seat]} {doing} in {possessive(names[view.active])} turn"

    def prompt(self, view: WizbitsView, seat: int) -> str:
        """What the seat is asked for."""
        if view.pending is not None:
            return "answer the choice in front of you"
        if view.phase == Phase.ATTACK:
            return "choose attackers, or none"
        if view.phase == Phase.BLOCK:
            return "choose blockers, or none"
        if view.phase == Phase.ASSIGN:
            return "make the Conflict's assignments"
        if view.phase == Phase.DIVIDE:
            return "divide the damage"
        if view.priority == seat:
            return "play a card or an ability, or pass Priority"
        return "choose"

    def linear(self, view: WizbitsView, seat: int | None, level: Verbosity = DEFAULT) -> str:
        """Phase and Priority, the Pillar top first, then each side of the table (at terse one line for the Pillar
        and one a side, names only; at full with each side's discard pile and Secession points held)."""
        if level is Verbosity.TERSE:
            units = [unit.name for unit in reversed(pillar_units(view)) if unit.height >= 1]
            lines = [f"{phase_words(view)}.", f"Pillar, top first: {'; '.join(units)}." if units else "No Pillar."]
            for index, player in enumerate(view.players):
                whose = "You" if index == view.seat else player.name
                cards = names_phrase([card_name(view.cards.get(card.iid, card.card_id)) for card in player.in_play])
                lines.append(f"{whose}: {cards or 'nothing in play'}.")
            return "\n".join(lines)
        lines = [f"{phase_words(view)}. {priority_words(view)}".strip(), *pillar_lines(view)]
        if view.attackers:
            lines.append(f"Attacking: {names_phrase([card_name(view.cards.get(iid)) for iid in view.attackers])}.")
        for index, player in enumerate(view.players):
            lines += player_words(view, index, player)
            if level is Verbosity.FULL:  # what the counts leave out: the discard pile and the points held
                whose = "Your" if index == view.seat else possessive(player.name)
                pile = names_phrase([card_name(card_id) for _, card_id in player.discard]) or "empty"
                lines.append(f"{whose} discard pile, oldest first: {pile}; "
                             f"{plural(player.points, 'Secession point')} held for the next payment.")
        return "\n".join(lines)


NARRATION = WizbitsNarration()
"""The one Wizbits narration the UI hands out."""
