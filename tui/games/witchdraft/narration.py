"""WitchDraft in words: the announce key, the turn prompt and each potion as rows of cells."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.words import plural
from engine.witchdraft.cards import CARDS
from engine.witchdraft.geometry import Placement, cells
from engine.witchdraft.scoring import score_so_far, total
from engine.witchdraft.state import ApprenticeView, WitchDraftView
from tui.games.narration import Narration, Question
from tui.narration import names_phrase, possessive
from tui.verbosity import DEFAULT, Verbosity


def card_name(card_id: str | None) -> str:
    """A card's printed name (its id if unknown)."""
    if card_id is None:
        return "nothing"
    card = CARDS.get(card_id)
    return card_id if card is None else card.name


def column_name(index: int) -> str:
    """``A`` for the area's first column, ``B`` next…; past ``Z``, ``column 27``."""
    return chr(ord("A") + index) if 0 <= index < 26 else f"column {index + 1}"


def half_words(card_id: str, half: int) -> str:
    """``"Lantern Owl (Amber), half B, flea grass in a circle"``.

    The colour is named because the grid shows it as a colour (a letter only with the colour-blind
    letters), and Colour Pairs and Monochrome score it: a reader without colour must still follow them.
    """
    card = CARDS.get(card_id)
    if card is None:
        return f"{card_name(card_id)}, half {'AB'[half]}"
    colour = f" ({card.colour.value})" if card.colour is not None else ""
    words = f"{card.name}{colour}, half {'AB'[half]}"
    middle = card.halves[half]
    if middle.gem:
        words += ", a gem"
    if middle.circle is not None:
        words += f", {middle.circle.value} in a circle"
    return words


def area_rows(area: Sequence[tuple[str, int, int, int]]) -> list[str]:
    """A potion as rows of words, top row first: ``"Row 1: Lantern Owl, half A, a gem at A1; …"``."""
    found: dict[tuple[int, int], str] = {}
    for card_id, x, y, rotation in area:
        for half, cell in enumerate(cells(Placement(x, y, rotation))):
            found[cell] = half_words(card_id, half)
    if not found:
        return ["The potion is empty."]
    left = min(x for x, _ in found)
    top = min(y for _, y in found)
    rows = []
    for y in sorted({y for _, y in found}):
        row = y - top + 1
        items = [f"{found[(x, y)]} at {column_name(x - left)}{row}" for x in sorted(x for x, yy in found if yy == y)]
        rows.append(f"Row {row}: " + "; ".join(items) + ".")
    return rows


def score_line(view: WitchDraftView, seat: int) -> str | None:
    """``"Your score so far: 12 brew points"``, or None when the view hides that seat's cards."""
    scores = score_so_far(view, seat)
    if scores is None:
        return None
    whose = "Your" if seat == view.seat else f"{view.players[seat].name}'s"
    return f"{whose} score so far: {plural(total(scores), 'brew point')}"


def stage_words(view: WitchDraftView) -> str:
    """``"Phase 1, pick 3"`` or ``"Phase 1, placing pick 3"``."""
    if view.over:
        return "The potions are scored"
    step = "placing pick" if view.stage == "place" else "pick"
    return f"Phase {view.phase}, {step} {view.pick}"


def waiting(view: WitchDraftView) -> str:
    """Who has not chosen yet in this stage."""
    names = [player.name for player in view.players if not player.ready]
    return f"Waiting for {names_phrase(names)}." if names and not view.over else ""


def own_words(view: WitchDraftView, me: ApprenticeView) -> str:
    """The viewing seat's hand size and score."""
    text = f"Your hand holds {plural(me.hand_count, 'card')}."
    if view.stage == "place" and me.picked is not None and not view.over:
        text += f" You are placing {card_name(me.picked)}."
    score = score_line(view, view.seat) if view.seat is not None else None
    return text + (f" {score}." if score else "")


def hand_answer(view: WitchDraftView, me: ApprenticeView) -> str:
    """The asking seat's hand by name, with its secret pick and the card it is placing."""
    text = f"Your hand: {names_phrase([card_name(card) for card in me.hand])}." if me.hand else "Your hand is empty."
    if me.pending is not None and not view.over:
        text += f" You picked {card_name(me.pending)}; it is shown once every pick is in."
    if view.stage == "place" and me.picked is not None and not view.over:
        text += f" You are placing {card_name(me.picked)}."
    return text


def public_answer(view: WitchDraftView, player: ApprenticeView) -> str:
    """What anyone sees of ``player``: the cards of its potion, the pick it is placing and its hand's size."""
    cards = names_phrase([card_name(card) for card, *_ in player.area])
    text = (f"{possessive(player.name)} potion holds {plural(len(player.area), 'card')}" + (f": {cards}" if cards else "")
            + f"; {player.name} holds {plural(player.hand_count, 'card')}")
    if view.stage == "place" and player.picked is not None and not view.over:
        text += f" and is placing {card_name(player.picked)}"
    return text + "."


def score_answer(view: WitchDraftView, seat: int | None) -> str:
    """Each potion's score so far where the viewer may reckon it (the asking seat's first), else what it shows."""
    order = sorted(range(len(view.players)), key=lambda index: index != seat)
    parts = []
    for index in order:
        player = view.players[index]
        line = score_line(view, index)
        parts.append(f"{line}." if line is not None else
                     f"{possessive(player.name)} potion shows {plural(len(player.area), 'card')}; its score stays "
                     "hidden until the recipe cards are shown.")
    return " ".join(parts)


def potion_answer(me: ApprenticeView) -> str:
    """The asking seat's potion, row by row."""
    if not me.area:
        return "Your potion is empty."
    return f"Your potion, {plural(len(me.area), 'card')}: " + " ".join(area_rows(me.area))


class WitchDraftNarration(Narration[WitchDraftView]):
    """WitchDraft's sentences: phase and pick, the hand size and the score so far."""

    def announce(self, view: WitchDraftView, seat: int | None, detail: bool) -> str:
        """E.g. "Phase 1, pick 3. Your hand holds 4 cards. Your score so far: 6 brew points."."""
        me = view.me
        parts = [f"{stage_words(view)}."]
        if view.over:
            winners = [view.players[index].name for index in view.winners or ()]
            parts.append(f"{names_phrase(winners) or 'Nobody'} won.")
        if me is not None:
            parts.append(own_words(view, me))
        parts.append(waiting(view))
        if detail:
            if me is not None and me.hand:
                parts.append(f"In your hand: {names_phrase([card_name(card) for card in me.hand])}.")
            scores = score_so_far(view, view.seat) if view.seat is not None else None
            if scores:
                parts.append("Scoring: " + "; ".join(line.line for line in scores) + ".")
            for index, player in enumerate(view.players):
                if index != view.seat:
                    other = score_line(view, index)
                    parts.append(f"{player.name} holds {plural(player.hand_count, 'card')}"
                                 + (f"; {other[0].lower()}{other[1:]}." if other else "."))
        return " ".join(part for part in parts if part)

    def answer(self, view: WitchDraftView, seat: int | None, question: Question, names: Sequence[str],
               level: Verbosity = DEFAULT) -> str | None:
        """Your hand and potion, the other potions, and the scores so far; at full, the hand answer adds your potion
        and score, the board answer every other potion."""
        me = view.me
        full = level is Verbosity.FULL
        if question is Question.HAND and me is not None:
            text = hand_answer(view, me)
            if full:
                score = score_line(view, seat) if seat is not None else None
                text += " " + potion_answer(me) + (f" {score}." if score else "")
            return text
        if question is Question.OPPONENTS:
            return " ".join(public_answer(view, player) for index, player in enumerate(view.players) if index != seat)
        if question is Question.SCORE:
            return score_answer(view, seat)
        if question is Question.BOARD:
            if full:  # every potion row by row, the seat's own first
                order = sorted(range(len(view.players)), key=lambda index: index != seat)
                return " ".join(potion_answer(view.players[index]) if index == seat
                                else f"{possessive(view.players[index].name)} potion: "
                                     + " ".join(area_rows(view.players[index].area))
                                for index in order)
            return "You are watching: you have no potion (o reads every potion)." if me is None else potion_answer(me)
        return None

    def prompt(self, view: WitchDraftView, seat: int) -> str:
        """Pick a card, or place the one picked."""
        if view.stage == "place":
            return f"place {card_name(view.players[seat].picked)} on your potion"
        return "pick a card from your hand"

    def linear(self, view: WitchDraftView, seat: int | None, level: Verbosity = DEFAULT) -> str:
        """Every potion as rows of cells, the viewer's first (at terse one line a potion, its cards' names only;
        at full with each potion's score so far where it may be reckoned)."""
        order = sorted(range(len(view.players)), key=lambda index: index != seat)
        lines = [f"{stage_words(view)}."]
        for index in order:
            player = view.players[index]
            whose = "Your potion" if index == seat else f"{player.name}'s potion"
            if level is Verbosity.TERSE:
                lines.append(f"{whose}: {names_phrase([card_name(card) for card, *_ in player.area]) or 'empty'}.")
                continue
            lines.append(f"{whose}, {plural(len(player.area), 'card')}:")
            lines.extend(area_rows(player.area))
            score = score_line(view, index) if level is Verbosity.FULL else None
            if score:
                lines.append(f"{score}.")
        return "\n".join(lines)


NARRATION = WitchDraftNarration()
"""The one WitchDraft narration the UI hands out."""
