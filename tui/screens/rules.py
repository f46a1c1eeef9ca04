"""The in-app rules viewer, and a small game picker."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Header, MarkdownViewer, OptionList, Static
from textual.widgets.option_list import Option

from engine import get_game
from engine.core import UnknownGameError
from tui.games import playable_games
from tui.rules_docs import RULES_DIR
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


def rules_markdown(game_id: str, rules_dir: Path | None = None) -> str:
    """The rules document of ``game_id``, or a friendly note when it is missing."""
    folder = RULES_DIR if rules_dir is None else rules_dir
    try:
        spec = get_game(game_id)
    except UnknownGameError:
        return f"# Unknown game\n\nCoven does not know a game called `{game_id}`."
    path = folder / spec.rules_doc if spec.rules_doc else None
    if path is None or not path.is_file():
        return (
            f"# {spec.title}\n\n{spec.summary}\n\n"
            "The full rules are not installed with this copy of Coven"
            + (f" (expected `{path}`)." if path is not None else ".")
        )
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"# {spec.title}\n\nThe rules file could not be read: {error}"


class RulesScreen(Screen[None]):
    """Shows one game's rules as Markdown with an optional table of contents."""
    HELP_TITLE = "Rules"
    HELP = "The rules of one game. Arrow keys and page keys scroll."

    CSS_PATH = css_beside(__file__, "rules.tcss")
    BINDINGS = [
        Binding("t", "toggle_toc", "Contents"),
        Binding("escape,q", "app.pop_screen", "Back"),
    ]

    def __init__(self, game_id: str, rules_dir: Path | None = None) -> None:
        """Show the rules of ``game_id`` (from ``rules_dir``, default :data:`RULES_DIR`)."""
        super().__init__()
        self.game_id = game_id
        self.rules_dir = rules_dir

    def compose(self) -> ComposeResult:
        """Header, the document and the footer."""
        try:
            title = get_game(self.game_id).title
        except UnknownGameError:
            title = self.game_id
        self.sub_title = f"Rules of {title}"
        yield Header()
        yield MarkdownViewer(
            rules_markdown(self.game_id, self.rules_dir), show_table_of_contents=False, id="rules-viewer"
        )
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the document so arrow keys scroll it."""
        self.query_one(MarkdownViewer).focus()

    def action_toggle_toc(self) -> None:
        """Show or hide the table of contents."""
        viewer = self.query_one(MarkdownViewer)
        viewer.show_table_of_contents = not viewer.show_table_of_contents


class GamePicker(ModalScreen[str | None]):
    """Choose one of the registered games; dismisses with its id or None."""
    HELP_TITLE = "Choose a game"
    HELP = "Pick a game from the list with the arrow keys and enter."

    CSS_PATH = css_beside(__file__, "rules.tcss")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str) -> None:
        """Remember the question."""
        super().__init__()
        self.picker_title = title

    def compose(self) -> ComposeResult:
        """The question and one option per game."""
        with Vertical(id="picker-box"):
            yield Static(self.picker_title, classes="screen-title")
            yield OptionList(*(Option(spec.title, id=spec.game_id) for spec in playable_games()), id="picker")
        yield FittingFooter()

    @on(OptionList.OptionSelected, "#picker")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Close with the chosen game's id."""
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
