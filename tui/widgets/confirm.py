"""Small modal dialogs: a yes/no question and a one-line text prompt."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


class ConfirmScreen(ModalScreen[bool]):
    """Ask a yes/no question; dismisses with True for yes."""
    HELP_TITLE = "Are you sure?"
    HELP = "A question before something that cannot be undone. Tab moves between the answers."

    CSS_PATH = css_beside(__file__, "confirm.tcss")
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes_label: str = "Yes", no_label: str = "No") -> None:
        """Remember the question and button labels."""
        super().__init__()
        self.question = question
        self.yes_label = yes_label
        self.no_label = no_label

    def compose(self) -> ComposeResult:
        """The question and two buttons; No is focused so Enter is safe."""
        with Vertical(classes="dialog"):
            yield Static(plain(self.question), classes="dialog-text")  # quotes names and paths: never markup
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.yes_label, variant="error", id="yes")
                yield Button(self.no_label, variant="primary", id="no")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the harmless answer."""
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        """Close with True for the Yes button, else False."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Close the dialog with ``yes``."""
        self.dismiss(yes)


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text (a file path); dismisses with it or None."""
    HELP_TITLE = "Type a value"
    HELP = "Type the value asked for, then enter; escape cancels."

    CSS_PATH = css_beside(__file__, "confirm.tcss")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str = "", placeholder: str = "", ok_label: str = "OK") -> None:
        """Remember the prompt's title and default text."""
        super().__init__()
        self.prompt_title = title
        self.default = default
        self.placeholder = placeholder
        self.ok_label = ok_label

    def compose(self) -> ComposeResult:
        """A label, an input and OK/Cancel buttons."""
        with Vertical(classes="dialog"):
            yield Label(plain(self.prompt_title), classes="dialog-text")
            yield Input(self.default, placeholder=self.placeholder, id="prompt-input")
            yield Static("", id="prompt-error", classes="error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.ok_label, variant="primary", id="ok")
                yield Button("Cancel", id="cancel")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Put the cursor in the input."""
        self.query_one(Input).focus()

    def _submit(self) -> None:
        """Close with the typed text, unless it is blank."""
        value = self.query_one(Input).value.strip()
        if not value:
            self.query_one("#prompt-error", Static).update("Please type something, or press Escape.")
            return
        self.dismiss(value)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        """Enter in the input submits."""
        self._submit()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        """The OK button submits."""
        self._submit()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        """The Cancel button closes without an answer."""
        self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.dismiss(None)
