"""WitchDraft's running score and the table of seats, both drawn from a seat's view.

Scores come from :func:`engine.witchdraft.scoring.score_so_far`, which reads
only the view: a seat's own score is always there, another seat's only when
its recipe and ingredient cards are face up (or the game is over).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.witchdraft.cards import CARDS, RECIPES_BY_ID, Ingredient
from engine.witchdraft.scoring import CategoryScore, score_so_far, total
from engine.witchdraft.state import WitchDraftView
from tui.games.witchdraft.draft_text import animal_text, colour_text
from tui.games.witchdraft.look import (
    ANIMAL_GLYPHS,
    BOND,
    GEM,
    GEM_STYLE,
    INGREDIENT_LETTERS,
    INGREDIENT_STYLES,
)

LABEL_WIDTH = 8
VALUE_WIDTH = 7
"""``13×3=39`` at most: thirteen bonds at three points is about the most a potion holds."""


def short_name(name: str, width: int) -> str:
    """``name`` cut to ``width`` cells with an ellipsis."""
    return name if len(name) <= width else name[:width - 1] + "…"


def _value(line: CategoryScore) -> Text:
    text = Text(f"{line.count}×{line.points}=", style="dim" if not line.brew else "")
    text.append(f"{line.brew:>2}", style="bold" if line.brew else "dim")
    text.pad_left(VALUE_WIDTH - text.cell_len)
    return text


def category_marks(recipe_id: str) -> list[Text]:
    """What each of the eight categories counts for this recipe, in scoring order, at most 7 cells each.

    ``Cr+Az`` scores pairs of both colours, ``Am/Ja`` each card of either.
    """
    recipe = RECIPES_BY_ID[recipe_id]
    first, second = recipe.colour_pair
    mono_a, mono_b = recipe.monochrome
    marks = [
        Text(f"{ANIMAL_GLYPHS[recipe.companion]} {recipe.companion.value}", style="bold"),
        Text.assemble(colour_text(first, short=True), ("+", "dim"), colour_text(second, short=True)),
        Text.assemble(colour_text(mono_a, short=True), ("/", "dim"), colour_text(mono_b, short=True)),
        Text(GEM * 2, style=GEM_STYLE),
        Text(BOND, style="bold"),
    ]
    for ingredient in (Ingredient.DRAGON_SCALE, Ingredient.FLEA_GRASS, Ingredient.FIRE_ROOT):
        marks.append(Text(INGREDIENT_LETTERS[ingredient], style=f"bold {INGREDIENT_STYLES[ingredient]}"))
    return marks


def _labels(recipe_id: str) -> list[Text]:
    """The running score's labels: the recipe's marks, then the ingredient card's with a word each."""
    marks = category_marks(recipe_id)
    words = (" bond", " scale", " grass", " root")
    return marks[:4] + [Text.assemble(mark, (word, "dim")) for mark, word in zip(marks[4:], words, strict=True)]


def score_rows(lines: list[CategoryScore], recipe_id: str) -> list[Text]:
    """Four rows of 32 cells: the recipe's categories on the left, the ingredient card's on the right."""
    labels = _labels(recipe_id)
    cells: list[Text] = []
    for label, line in zip(labels, lines, strict=False):
        cell = label.copy()
        cell.truncate(LABEL_WIDTH, pad=True)
        cells.append(Text.assemble(cell, _value(line)))
    return [Text.assemble(cells[row], "  ", cells[row + 4]) for row in range(4)]


def score_card(view: WitchDraftView, watching: int) -> Text:
    """The brew so far, category by category, of the watched seat when its cards are public, else your own.

    A spectator of a game with secret cards gets a line saying so.
    """
    seat: int | None = watching if score_so_far(view, watching) is not None else view.seat
    lines = score_so_far(view, seat) if seat is not None else None
    if seat is None or lines is None:
        return Text("Brews so far: recipes hidden", style="dim italic")
    player = view.players[seat]
    assert player.recipe is not None  # score_so_far said so
    # One line of at most 32 cells, so the four rows below stay where they are at 80x24.
    if seat != watching:
        text = Text.assemble(("Yours ", "bold"), (f"{total(lines)} BP", "bold"),
                             (f" · {short_name(view.players[watching].name, 8)}: hidden", "dim"))
    else:
        owner = "Your" if seat == view.seat else f"{short_name(player.name, 12)}'s"
        text = Text.assemble((f"{owner} brew so far ", "bold"), (f"{total(lines)} BP", "bold"))
    for row in score_rows(lines, player.recipe):
        text.append("\n")
        text.append_text(row)
    return text


def seats_text(view: WitchDraftView, watching: int) -> Text:
    """One line per seat: whose potion is watched, done or not, brew so far (when public), revealed pick."""
    names = [short_name(player.name, 10) + (" (you)" if seat == view.seat else "")
             for seat, player in enumerate(view.players)]
    width = max(len(name) for name in names)
    text = Text(no_wrap=True, overflow="ellipsis")
    for seat, player in enumerate(view.players):
        watched = seat == watching
        if seat:
            text.append("\n")
        text.append("▶ " if watched else "  ", style="bold cyan")
        text.append(names[seat].ljust(width), style="bold cyan" if watched else "bold")
        if not view.over:
            text.append(" ✓" if player.ready else " …", style="bold green" if player.ready else "dim")
        lines = score_so_far(view, seat)
        if lines is None:
            text.append("  hidden", style="dim italic")
        else:
            text.append(f"  {total(lines):>3} BP", style="bold")
        if player.picked is not None:  # revealed, not placed yet
            card = CARDS[player.picked]
            text.append("  ")
            text.append_text(animal_text(card.animal))
            text.append(" ")
            text.append_text(colour_text(card.colour, bare=True))
    return text


class SeatsTable(Static):
    """Every seat on one line each, under the potion; ``[`` and ``]`` move the ▶ to watch another."""

    def show(self, view: WitchDraftView, watching: int) -> None:
        """Redraw from ``view`` with ``watching`` marked."""
        self.update(seats_text(view, watching))


__all__ = ["SeatsTable", "category_marks", "score_card", "score_rows", "seats_text", "short_name"]
