"""WitchDraft's final screen: every category of every potion, the totals and the winners."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from engine import Result
from engine.witchdraft.scoring import CategoryScore, total
from engine.witchdraft.state import WitchDraftView
from tui.screens.game_over import GameOverScreen

GOLD = "#ffd75e"


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
            Text(_short(label, width), style=f"bold {GOLD}" if won else "bold"),
            footer=Text(f"{totals[seat]} BP", style=f"bold {GOLD}" if won else "bold"),
            justify="right", no_wrap=True, max_width=width, min_width=7 if compact else 9,
        )
    for row, category in enumerate(line.category for line in scores[0]):
        # The rulebook's own names (at most 12 cells, so five seats still fit 80 columns).
        table.add_row(category,
                      *(cell_text(lines[row], compact) for lines in scores))
    return table


class WitchDraftScoreScreen(GameOverScreen):
    """The end of a WitchDraft game: the scoring sheet and who brewed the best potion."""

    CSS_PATH = "witchdraft_results.tcss"

    def __init__(self, view: WitchDraftView, scores: list[list[CategoryScore]], result: Result) -> None:
        """``scores[seat]`` holds that seat's eight category lines, in scoring order."""
        super().__init__()
        self.view = view
        self.scores = scores
        self.result = result

    def compose(self) -> ComposeResult:
        view, result = self.view, self.result
        names = [player.name for player in view.players]
        title = Text(winners_sentence([names[seat] for seat in result.winners]) + "!", style=f"bold {GOLD}")
        with Vertical(id="wd-box"):
            yield Static(Text.assemble(("★ ", GOLD), title, (" ★", GOLD)), id="wd-title")
            if result.reason:
                yield Static(Text(result.reason, style="italic"), id="wd-reason")
            yield Static(score_table(view, self.scores, result.winners), id="wd-table")
            yield Static(Text("count x points = brew points (BP)", style="dim"), id="wd-legend")
        yield Footer()


__all__ = ["WitchDraftScoreScreen", "score_table", "winners_sentence"]
