"""WitchDraft's final screen: each seat's potion beside its score lines, the totals and the winners.

``[`` and ``]`` move from seat to seat; the potion pans with the arrows (it is a
:class:`~tui.games.witchdraft.potion_grid.PotionGrid`) and ``z`` zooms it; ``t`` swaps the
potions for the whole sheet, every category of every seat side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from engine import Result
from engine.witchdraft.scoring import CategoryScore, total
from engine.witchdraft.state import WitchDraftView
from tui.games.witchdraft.draft_score import category_marks
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.widgets.element_look import victory_hue
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.game_over import GameOverScreen
from tui.widgets.styles import css_beside


def winners_sentence(names: Sequence[str]) -> str:
    """``"Ana wins"``, ``"Ana and Bo share the victory"``, ``"Ana, Bo and Cy share the victory"``."""
    if not names:
        return "Nobody wins"
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} share the victory"


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 1] + "…"


def cell_text(line: CategoryScore, compact: bool) -> Text:
    """``"2 x 3 = 6"`` (``"2x3=6"`` when ``compact``), the brew points in bold."""
    if compact:
        text = Text(f"{line.count}×{line.points}=", style="dim" if not line.brew else "")
    else:
        text = Text(f"{line.count} x {line.points} = ", style="dim" if not line.brew else "")
    text.append(str(line.brew), style="bold" if line.brew else "dim")
    return text


def score_table(view: WitchDraftView, scores: Sequence[Sequence[CategoryScore]],
                winners: Sequence[int]) -> Table:
    """Categories down, seats across; each cell ``count x points = BP``; a totals row."""
    seats = len(view.players)
    compact = seats >= 4
    width = 11 if compact else 14
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False, expand=False,
                  header_style="bold", footer_style="bold", show_footer=True)
    table.add_column("Category", footer="Total", no_wrap=True, style="bold")
    totals = [total(lines) for lines in scores]
    for seat, player in enumerate(view.players):
        won = seat in winners
        label = ("★ " if won else "") + player.name
        table.add_column(
            Text(_short(label, width), style=f"bold {victory_hue()}" if won else "bold"),
            footer=Text(f"{totals[seat]} BP", style=f"bold {victory_hue()}" if won else "bold"),
            justify="right", no_wrap=True, max_width=width, min_width=7 if compact else 9,
        )
    for row, category in enumerate(line.category for line in scores[0]):
        # The rulebook's own names (at most 12 cells, so five seats still fit 80 columns).
        table.add_row(category,
                      *(cell_text(lines[row], compact) for lines in scores))
    return table


def seat_strip(view: WitchDraftView, scores: Sequence[Sequence[CategoryScore]], winners: Sequence[int],
               shown: int) -> Text:
    """Every seat and its total on one line, the seat on show in reverse: ``Ana 66 · ★ Bo 70 · ★ Cy 70``."""
    text = Text(no_wrap=True, overflow="ellipsis")
    width = max(4, 60 // max(1, len(view.players)) - 9)
    for seat, player in enumerate(view.players):
        if seat:
            text.append(" · ", style="dim")
        won = seat in winners
        label = f"{'★ ' if won else ''}{_short(player.name, width)} {total(scores[seat])}"
        style = f"bold {victory_hue()}" if won else "bold"
        text.append(f" {label} " if seat == shown else label, style=f"{style} reverse" if seat == shown else style)
    return text


def potion_lines(view: WitchDraftView, scores: Sequence[Sequence[CategoryScore]], winners: Sequence[int],
                 seat: int) -> Text:
    """One seat's score lines: whose potion, its recipe and ingredient cards, eight categories and the total."""
    player = view.players[seat]
    lines = scores[seat]
    won = seat in winners
    text = Text.assemble((f"{player.name}'s potion", f"bold {victory_hue()}" if won else "bold"), (" ★" if won else "", victory_hue()))
    if player.recipe is None or not lines:  # a finished game shows every card; said for the type checker
        return text
    from engine.witchdraft.cards import INGREDIENT_CARDS_BY_ID, RECIPES_BY_ID

    text.append(f"\n{RECIPES_BY_ID[player.recipe].name}", style="italic")
    if player.ingredients is not None:
        text.append(f"\n{INGREDIENT_CARDS_BY_ID[player.ingredients].name}", style="italic")
    for line, mark in zip(lines, category_marks(player.recipe), strict=False):
        mark.truncate(7, pad=True)
        value = Text(f"{line.count:>3} x {line.points} = ", style="" if line.brew else "dim")
        value.append(f"{line.brew:>2}", style="bold" if line.brew else "dim")
        text.append("\n")
        text.append_text(Text.assemble((f"{line.category:<13}", "bold"), mark, value))
    text.append_text(Text.assemble("\n", ("Total".ljust(24), "bold"),
                                   (f"{total(lines):>5} BP", f"bold {victory_hue()}" if won else "bold")))
    return text


class WitchDraftScoreScreen(GameOverScreen):
    """The end of a WitchDraft game: each potion with its scoring lines, and who brewed the best potion."""

    HELP_TITLE = "WitchDraft scores"
    HELP = ("Who brewed the best potion, and how. Each seat's potion is shown beside its score lines: count "
            "times points for each category of its recipe and ingredient cards. [ and ] go from seat to seat, "
            "the arrows and z pan and zoom the potion, and t shows the whole sheet, every seat side by side.")
    CSS_PATH = css_beside(__file__, "results.tcss")

    BINDINGS = [
        Binding("left_square_bracket", "seat(-1)", "Prev seat", show=False),
        Binding("right_square_bracket", "seat(1)", "Seats", key_display="[ ]"),
        Binding("t", "sheet", "Sheet"),
    ]

    def __init__(self, view: WitchDraftView, scores: list[list[CategoryScore]], result: Result) -> None:
        """``scores[seat]`` holds that seat's eight category lines, in scoring order."""
        super().__init__()
        self.view = view
        self.scores = scores
        self.result = result
        self.shown = view.seat if view.seat is not None else (result.winners[0] if result.winners else 0)
        """The seat whose potion is on show."""

    def compose(self) -> ComposeResult:
        view, result = self.view, self.result
        names = [player.name for player in view.players]
        title = Text(winners_sentence([names[seat] for seat in result.winners]) + "!", style=f"bold {victory_hue()}")
        with Vertical(id="wd-box"):
            yield Static(Text.assemble(("★ ", victory_hue()), title, (" ★", victory_hue())), id="wd-title")
            if result.reason:
                yield Static(Text(result.reason, style="italic"), id="wd-reason")
            yield Static(id="wd-seats")
            with Horizontal(id="wd-potion"):
                yield PotionGrid(id="wd-grid")
                yield Static(id="wd-lines")
            with Vertical(id="wd-sheet"):
                yield Static(score_table(view, self.scores, result.winners), id="wd-table")
                yield Static(Text("count x points = brew points (BP)", style="dim"), id="wd-legend")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Show the first potion: your own, or a winner's for a spectator."""
        self.query_one("#wd-sheet").display = False
        self._show_seat()
        self.query_one(PotionGrid).focus()

    def _show_seat(self) -> None:
        view, winners = self.view, self.result.winners
        self.query_one("#wd-seats", Static).update(seat_strip(view, self.scores, winners, self.shown))
        self.query_one(PotionGrid).show_area(view.players[self.shown].area)
        self.query_one("#wd-lines", Static).update(potion_lines(view, self.scores, winners, self.shown))

    def action_seat(self, step: int) -> None:
        """Show the next (``1``) or previous (``-1``) seat's potion."""
        self.shown = (self.shown + step) % len(self.view.players)
        sheet = self.query_one("#wd-sheet")
        if sheet.display:
            self.action_sheet()
        self._show_seat()

    def action_sheet(self) -> None:
        """Swap the potions for the whole sheet, every seat side by side, and back."""
        sheet, potion = self.query_one("#wd-sheet"), self.query_one("#wd-potion")
        sheet.display = not sheet.display
        potion.display = not sheet.display
        potion.disabled = sheet.display  # out of view, the grid must not keep the keys (see the game screen)
        if potion.display:
            self.query_one(PotionGrid).focus()


__all__ = ["WitchDraftScoreScreen", "potion_lines", "score_table", "seat_strip", "winners_sentence"]
