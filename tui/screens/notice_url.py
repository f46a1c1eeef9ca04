"""A signed-in player's own notice URL: typed, checked at once, kept only when it passes.

Opened by ``u`` on the Settings screen. Enter keeps the URL (an empty line
forgets it, so the server's URL is used again); a refused URL stays in the
box with the reason under it; escape keeps what was there.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.notify.url import MAX_URL_LENGTH, NotifyUrlError, check_notify_url
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter

TYPED_LIMIT = 4 * MAX_URL_LENGTH
"""What the box takes at most: past the URL limit, so a long paste is refused in words rather than cut."""


class NoticeUrlScreen(ModalScreen[str | None]):
    """Edit the notice URL; dismisses with the checked URL, "" to forget it, or None (escape)."""

    HELP_TITLE = "Notice URL"
    HELP = ("Where coven serve posts a notice when a table asks for your choice while you are not connected: "
            "http:// or https://, with no user name or password in it. For ntfy, give its address with your "
            "topic, as in https://ntfy.example/?topic=my-coven-turns. Enter keeps it; an empty line uses the "
            "server's URL again; escape changes nothing.")
    DEFAULT_CSS = """
    NoticeUrlScreen { align: center middle; background: $background 60%; }
    #notice-url-box { width: 76; max-width: 100%; height: auto; border: thick $accent; background: $surface;
                      padding: 0 1; }
    #notice-url-title { text-style: bold; }
    #notice-url-problem { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "close", "Back")]

    def __init__(self, current: str | None) -> None:
        """Start from ``current`` (None: no URL of the player's own yet)."""
        super().__init__()
        self.current = current or ""

    def compose(self) -> ComposeResult:
        """A title, the box, the reason a URL was refused (empty until then) and the Footer."""
        with Vertical(id="notice-url-box"):
            yield Static("Your notice URL (enter keeps it; empty: the server's)", id="notice-url-title")
            yield Input(self.current, placeholder="https://ntfy.example/?topic=my-coven-turns",
                        max_length=TYPED_LIMIT, id="notice-url-input")
            yield Static("", id="notice-url-problem")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the box."""
        self.query_one(Input).focus()

    @on(Input.Submitted, "#notice-url-input")
    def _submitted(self, event: Input.Submitted) -> None:
        """Keep a URL that passes, or say why not and stay."""
        event.stop()
        text = event.value
        if not text.strip():
            self.dismiss("")
            return
        try:
            url = check_notify_url(text)
        except NotifyUrlError as error:
            self.query_one("#notice-url-problem", Static).update(plain(f"Not kept: {error}"))
            self.notify(str(error), title="Notice URL", severity="error", markup=False)
            return
        self.dismiss(url)

    def action_close(self) -> None:
        """Leave without changing anything."""
        self.dismiss(None)
