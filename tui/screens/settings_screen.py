"""The Settings screen: every setting with its value; left and right change the highlighted one at once.

A change is kept as soon as it is made (per player: this machine's, or the
``coven serve`` account's) and takes effect at once, so moving through the
themes previews each on the whole screen.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from saves import StoreError
from tui.context import coven
from tui.notify.seat_asked import own_url, set_own_url
from tui.notify.url import NotifyUrlError
from tui.player_settings import SETTINGS, Setting, Settings, SettingValue, read_settings, reset_settings, write_setting
from tui.safe_text import plain
from tui.screens.notice_url import NoticeUrlScreen
from tui.settings_apply import apply_settings
from tui.widgets.fitting_footer import FittingFooter


class SettingsScreen(Screen[None]):
    """Lists the settings; left/right (or enter/space) change the highlighted one, r sets all back."""

    HELP_TITLE = "Settings"
    HELP = ("Your settings: theme, colour and motion, notifications and what New game offers. Left and right "
            "(or enter and space) change the highlighted one; it is kept at once and takes effect at once. "
            "Over SSH they are your account's (without sign-in, this visit's, starting from the host's). "
            "Signed in over SSH, u sets the URL your notices while away go to. "
            "`coven settings` does the same from a shell.")
    DEFAULT_CSS = """
    SettingsScreen { align: center top; }
    #settings-box { width: 76; max-width: 100%; height: auto; padding: 1 1 0 1; }
    #settings-title { text-style: bold; padding-bottom: 1; }
    #settings-list { height: auto; max-height: 14; }
    #settings-about { padding-top: 1; height: auto; min-height: 3; }
    """
    BINDINGS = [
        Binding("right,space", "change(1)", "Next value"),
        Binding("left", "change(-1)", "Previous value"),
        Binding("r", "reset", "All to defaults"),
        Binding("u", "notice_url", "Notice URL"),
        Binding("escape,q", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        """Read the settings when shown."""
        super().__init__()
        self.settings = Settings()

    def compose(self) -> ComposeResult:
        """Title, the settings list, what the highlighted one does, the footer."""
        with Vertical(id="settings-box"):
            yield Static("Settings", id="settings-title")
            yield OptionList(id="settings-list")
            yield Static("", id="settings-about")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Read the player's settings and list them."""
        context = coven(self)
        self.settings = read_settings(context.store, context.account)
        self._list()
        self.query_one(OptionList).focus()

    def _list(self, highlighted: int = 0) -> None:
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(Option(self._line(item), id=item.name) for item in SETTINGS)
        options.highlighted = highlighted

    def _line(self, item: Setting) -> str:
        value = item.shown(self.settings[item.name])
        return plain(f"{item.label:<24} {value}").plain

    @property
    def current(self) -> Setting:
        """The highlighted setting."""
        return SETTINGS[self.query_one(OptionList).highlighted or 0]

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        item = self.current
        choices = " · ".join(item.shown(choice) for choice in item.choices)
        self.query_one("#settings-about", Static).update(plain(f"{item.about}\nChoices: {choices}"))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a setting moves it to its next value, as right does."""
        event.stop()
        self.action_change(1)

    def action_change(self, step: int) -> None:
        """Move the highlighted setting to its next (or previous) value, keep it and apply it."""
        item = self.current
        values = list(item.choices)
        now = self.settings[item.name]
        value: SettingValue = values[(values.index(now) + step) % len(values)] if now in values else item.default
        self._keep(item, value)

    def action_reset(self) -> None:
        """Every setting back to its default."""
        context = coven(self)
        if context.store is None:
            self.notify("No session database is open: settings cannot be kept.", severity="error")
            return
        try:
            reset_settings(context.store, context.account)
        except StoreError as error:
            self.notify(f"The settings could not be reset: {error}", severity="error")
            return
        self.settings = read_settings(context.store, context.account)
        apply_settings(self.app, self.settings)
        self._list(self.query_one(OptionList).highlighted or 0)
        self.notify("Every setting is back to its default.", timeout=3)

    def _keep(self, item: Setting, value: SettingValue) -> None:
        context = coven(self)
        self.settings.values[item.name] = value
        apply_settings(self.app, self.settings)
        options = self.query_one(OptionList)
        index = options.highlighted or 0
        options.replace_option_prompt_at_index(index, self._line(item))
        if context.store is None:
            self.notify("No session database is open: this lasts until Coven closes.", severity="warning")
            return
        try:
            write_setting(context.store, context.account, item.name, value)
        except (StoreError, ValueError) as error:
            self.notify(f"{item.label} could not be kept ({error}); it lasts until Coven closes.",
                        severity="warning")

    # -- the notice URL (signed-in accounts over SSH) ----------------------------------------

    def _own_account(self) -> str | None:
        """The signed-in account whose notice URL ``u`` sets, or None (at this machine, or a visit)."""
        context = coven(self)
        if not context.served or not context.account_is_private or context.store is None:
            return None
        return context.account

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``u`` shows only to a signed-in player over SSH: a visit's URL would be anyone's."""
        if action == "notice_url":
            return self._own_account() is not None
        return super().check_action(action, parameters)

    def action_notice_url(self) -> None:
        """Open the notice URL box with the URL kept now."""
        account = self._own_account()
        if account is None:
            return
        self.app.push_screen(NoticeUrlScreen(own_url(coven(self).store, account)), self._url_typed)

    def _url_typed(self, text: str | None) -> None:
        """Keep the URL the box passed ("" forgets it); None: nothing changes."""
        store, account = coven(self).store, self._own_account()
        if text is None or store is None or account is None:
            return
        try:
            url = set_own_url(store, account, text)
        except (NotifyUrlError, ValueError, StoreError) as error:
            self.notify(f"The notice URL was not kept: {error}", title="Notice URL", severity="error",
                        markup=False)
            return
        if url is None:
            self.notify("Your notices go to the server's URL, if it has one.", title="Notice URL", timeout=5)
        else:
            self.notify("Your notices while away go to your URL now.", title="Notice URL", timeout=5)
