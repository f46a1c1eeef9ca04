"""Wizards Cup in words: the announce key, the turn prompt and the duel zone as lines of text."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.words import plural
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase, PlayerView, WizardsCupView
from tui.games.narration import Narration, Question
from tui.narration import names_phrase, possessive
from tui.verbosity import DEFAULT, Verbosity

PHASE_WORDS = {Phase.TEAM: "choosing teams", Phase.LINEUP: "setting lineups", Phase.DUEL: "duels",
               Phase.SWAP: "swaps", Phase.OVER: "the Cup is over"}
"""Each phase as a sentence says it."""


def wizard(card_id: str | None) -> str:
    """``"Ember Adept (Fire 5)"``: the name, element and value; "nobody" for an empty place."""
    if card_id is None:
        return "nobody"
    card = CARDS.get(card_id)
    return card_id if card is None else f"{card.name} ({card.element.value} {card.value})"


def wizards(card_ids: Sequence[str]) -> str:
    """Several wizards in a sentence, or "none"."""
    return names_phrase([wizard(card) for card in card_ids]) or "none"


def where(view: WizardsCupView) -> str:
    """``"Round 2, duel 3"``, or the phase before the first round."""
    if not view.round:
        return PHASE_WORDS[view.phase].capitalize()
    text = f"Round {view.round}"
    if view.phase is Phase.DUEL:
        return f"{text}, duel {view.duel}" if view.duel else f"{text}, before the first duel"
    return f"{text}, {PHASE_WORDS[view.phase]}"


def tokens(view: WizardsCupView) -> str:
    """``"Cup Tokens: Ana 1, Bo 0 (first to 2)"``."""
    counts = ", ".join(f"{player.name} {player.tokens}" for player in view.players)
    return f"Cup Tokens: {counts} (first to {view.tokens_to_win})"


def duel_on_table(view: WizardsCupView) -> str:
    """Who stands in the Duel zone, or who has chosen."""
    if view.phase in (Phase.TEAM, Phase.LINEUP, Phase.SWAP):
        waiting = [player.name for player in view.players if not player.ready]
        return f"Waiting for {names_phrase(waiting)}." if waiting else "Every choice is in."
    zones = [player.zone for player in view.players]
    if not any(zones):
        return "The Duel zone is empty."
    first, second = view.players
    if first.zone and second.zone:
        return (f"In the Duel zone: {wizard(first.zone)} for {first.name} against {wizard(second.zone)} "
                f"for {second.name}.")
    there, empty = (first, second) if first.zone else (second, first)
    return f"In the Duel zone: {wizard(there.zone)} for {there.name}; {empty.name} has no wizard there."


def side(player: PlayerView, mine: bool) -> str:
    """One side's piles as the viewer may see them."""
    text = (f"{player.name}: deck {player.deck_count}, discard {len(player.discard)}"
            + (f" (top {wizard(player.discard[-1])})" if player.discard else ""))
    if mine and player.deck:
        text += f", next {wizard(player.deck[0])}"
    if player.waiting:
        text += f", Waiting Card {wizard(player.waiting)}"
    return text + "."


def hand_words(view: WizardsCupView, me: PlayerView) -> str:
    """The asking seat's wizards: its team, and in the duels who is still to come and its Waiting Card."""
    if not me.team:
        chosen = "is chosen: it shows once both teams are in" if me.ready else "is not chosen yet"
        return f"Your team {chosen}. Your displayed wizard is {wizard(me.displayed)}."
    text = f"Your team: {wizards(me.team)}."
    if view.phase is Phase.DUEL:
        text += f" Still to duel, in order: {wizards(me.deck or ())}"
        text += f"; your Waiting Card is {wizard(me.waiting)}." if me.waiting else "."
    return text


def public_words(view: WizardsCupView, player: PlayerView) -> str:
    """What anyone sees of ``player``: the displayed wizard, the one in the Duel zone, the discards, and the others
    the duels have shown."""
    text = f"{possessive(player.name)} displayed wizard is {wizard(player.displayed)}"
    if player.zone:
        text += f"; in the Duel zone: {wizard(player.zone)}"
    if view.phase is Phase.DUEL:
        text += f"; {plural(player.deck_count, 'wizard')} still to duel"
    if player.discard:
        text += f"; discarded this round: {wizards(player.discard)}"
    shown = [card for card in player.seen if card not in (player.displayed, player.zone, *player.discard)]
    return text + "." + (f" Seen in earlier duels: {wizards(shown)}." if shown else "")


def board_words(view: WizardsCupView, seat: int | None) -> str:
    """Where the Cup stands, the Duel zone, and each lineup as far as the seat may know it."""
    text = f"{where(view)}. {duel_on_table(view)}"
    if view.phase is not Phase.DUEL:
        return text
    lineups = [f"your lineup still to come: {wizards(player.deck or ())}" if index == seat
               else f"{player.name} has {plural(player.deck_count, 'wizard')} to come"
               for index, player in enumerate(view.players)]
    return f"{text} In the lineups, {'; '.join(lineups)}."


class WizardsCupNarration(Narration[WizardsCupView]):
    """Wizards Cup's sentences: round, tokens and the duel on the table."""

    def announce(self, view: WizardsCupView, seat: int | None, detail: bool) -> str:
        """E.g. "Round 1, duel 2. Cup Tokens: Ana 0, Bo 1 (first to 2). In the Duel zone: …"."""
        if view.phase is Phase.OVER:
            winners = [view.players[index].name for index in view.winners or ()]
            text = f"The Cup is over: {names_phrase(winners) or 'nobody'} won. {tokens(view)}."
        else:
            text = f"{where(view)}. {tokens(view)}. {duel_on_table(view)}"
        if not detail:
            return text
        parts = [text, *(side(player, index == seat) for index, player in enumerate(view.players))]
        me = view.me
        if me is not None and me.team:
            parts.append(f"Your team: {wizards(me.team)}.")
        if view.result_reason:
            parts.append(view.result_reason)
        return " ".join(parts)

    def answer(self, view: WizardsCupView, seat: int | None, question: Question, names: Sequence[str],
               level: Verbosity = DEFAULT) -> str | None:
        """Your team and lineup, the other side's shown wizards, the Cup Tokens, the Duel zone and lineups; at full,
        the hand and board answers add every side's piles as the seat may see them."""
        me = view.me
        full = level is Verbosity.FULL
        if question is Question.HAND and me is not None:
            text = hand_words(view, me)
            if full and seat is not None:
                text += " " + side(me, True)
                if me.discard:
                    text += f" Discarded this round: {wizards(me.discard)}."
            return text
        if question is Question.OPPONENTS:
            return " ".join(public_words(view, player) for index, player in enumerate(view.players) if index != seat)
        if question is Question.SCORE:
            return f"{tokens(view)}."
        if question is Question.BOARD:
            text = board_words(view, seat)
            if full:
                text = " ".join([text, *(side(player, index == seat) for index, player in enumerate(view.players))])
            return text
        return None

    def prompt(self, view: WizardsCupView, seat: int) -> str:
        """What the seat chooses in this phase."""
        return {Phase.TEAM: "choose five wizards to join your displayed one, a team of six",
                Phase.LINEUP: f"set the lineup for round {view.round}",
                Phase.SWAP: "swap one wizard or keep the team"}.get(view.phase, "choose")

    def linear(self, view: WizardsCupView, seat: int | None, level: Verbosity = DEFAULT) -> str:
        """The duel zone as lines: where the Cup stands, then each side (at terse one line a side, its wizard's
        name only; at full with every discarded wizard, and your team, with their values)."""
        if level is Verbosity.TERSE:
            lines = [f"{where(view)}."]
            for index, player in enumerate(view.players):
                you = " (you)" if index == seat else ""
                card = CARDS.get(player.zone) if player.zone else None
                zone = "no wizard" if player.zone is None else player.zone if card is None else card.name
                lines.append(f"{player.name}{you}: {zone}.")
            return "\n".join(lines)
        lines = [f"{where(view)}, first to {plural(view.tokens_to_win, 'Cup Token')}.", duel_on_table(view)]
        for index, player in enumerate(view.players):
            you = " (you)" if index == seat else ""
            zone = f"in the Duel zone {wizard(player.zone)}" if player.zone else "no wizard in the Duel zone"
            lines.append(f"{player.name}{you}: {plural(player.tokens, 'Cup Token')}, {zone}.")
            lines.append(side(player, index == seat))
            if level is Verbosity.FULL:
                lines.append(f"{player.name} discarded: {wizards(player.discard)}.")
                if index == seat and player.team:
                    lines.append(f"Your team: {wizards(player.team)}.")
        return "\n".join(lines)


NARRATION = WizardsCupNarration()
"""The one Wizards Cup narration the UI hands out."""
