"""Table talk on screen: the chat pane of a shared table's lobby and game, and who is there.

The pane is hidden until ``c`` (or ``ctrl+t``, for when a focused pane of the
game answers ``c`` itself, as the Wizards Cup team builder's confirm does)
opens it; while hidden it is disabled, so nothing in it takes the focus, and
it counts the lines it did not show. Everything drawn here came from other
players: names and lines are plain text, never markup. Muting is this
player's own: the muted name's lines are just not shown here.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, RichLog, Static

from saves import SessionStore, StoreError
from saves.records import MAX_NAME_LENGTH
from saves.table_chat import MAX_LINE_CODE_POINTS, MAX_LINE_LENGTH, ChatLine, line_problem
from saves.table_records import TableInfo, parse_time
from tui.chat_mutes import MAX_NAMES, is_mutable_name, muted_at, remember_muted
from tui.context import coven_or_none
from tui.safe_text import plain, plain_lines
from tui.widgets.lean_log import LeanLog

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui.table_link import TableLink

CHAT_KEYS = ("c", "ctrl+t")
"""The keys that open and close the chat pane."""

QUICK_PHRASES = ("Good game", "Thinking…", "Your turn", "Well played", "One moment", "Oops")
"""Stock phrases, said by their number (1 to 6) while the chat line is empty."""

CHAT_HELP = (
    "Chat: c opens the table talk (ctrl+t where the focused pane answers c itself, as a confirm key "
    "may); type a line (at most 200 characters) and press enter. "
    "With the line empty, 1 to 6 say a stock phrase (start a line with a space to begin it with a digit). "
    "/mute NAME hides someone's lines on your screen only, also when you come back to this table; "
    "/unmute NAME shows them again; the host types "
    "/spectators off (or on) to keep spectators quiet. Escape closes the pane; the Chat key counts lines "
    "you have not seen."
)


def away_for(dropped_at: str | None, now: datetime, left: bool = False) -> str:
    """"dropped 3 min ago" for a player who dropped three minutes before ``now`` ("dropped" when unreadable).

    ``left``: the player chose to leave, so it reads "left 3 min ago".
    """
    went = "left" if left else "dropped"
    if dropped_at is None:
        return went
    try:
        seconds = (now - parse_time(dropped_at)).total_seconds()
    except (ValueError, TypeError):
        return went
    minutes = int(seconds // 60)
    return f"{went} just now" if minutes < 1 else f"{went} {minutes} min ago"


def people_line(info: TableInfo, claim: str, now: datetime) -> str:
    """Who is at the table: each seat (bots, who is away and for how long), then who watches."""
    names = []
    for seat in info.seats:
        if seat.role == "remote" and seat.claim is None and not seat.has_token:
            continue  # an open seat: nobody to name
        name = seat.name + (" (you)" if seat.claim == claim else "")
        if seat.role == "bot":
            name += " (bot)"
        elif seat.role == "local" and seat.claim is None:  # its own claim: a guest's Coven may drive the table
            name += " (away)"
        elif seat.role == "remote" and seat.claim is None:
            name += f" ({away_for(seat.dropped_at, now, seat.left)})"
        names.append(name)
    line = " · ".join(names)
    if info.watchers:
        watching = ", ".join(watcher.name + (" (you)" if watcher.claim == claim else "") for watcher in info.watchers)
        line += f" · watching: {watching}"
    return line


def spectators_line(info: TableInfo) -> str:
    """Whether spectators may watch and talk, and who watches."""
    if not info.allow_spectators:
        return "Spectators: not allowed at this table."
    talk = "may talk" if info.spectator_chat else "may watch but not talk (the host said so)"
    if not info.watchers:
        return f"Spectators: allowed ({talk}); nobody is watching."
    return f"Spectators ({talk}): {', '.join(watcher.name for watcher in info.watchers)}."


def line_text(line: ChatLine, claim: str) -> Text:
    """One line as drawn: "Bea: hello", a spectator's marked "(watching)"; never markup."""
    who = line.name + (" (watching)" if line.spectator else "")
    text = Text(plain_lines(who), style="bold" if line.claim == claim else "")
    text.append(f": {plain_lines(line.text)}")
    return text


class ChatInput(Input):
    """The chat line: with nothing typed yet, a digit says that stock phrase.

    It holds at most :data:`MAX_LINE_LENGTH` characters as a reader counts them (a letter with its
    accents is one), and a paste of several lines keeps the first and says what was dropped.
    """

    class Phrase(Message):
        """A stock phrase was asked for by its number."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    async def _on_key(self, event: events.Key) -> None:
        if not self.value and event.character is not None and event.character in "123456789":
            index = int(event.character) - 1
            if index < len(QUICK_PHRASES):
                event.stop()
                event.prevent_default()
                self.post_message(self.Phrase(index))
                return
        await super()._on_key(event)

    def replace(self, text: str, start: int, end: int) -> None:
        """Edit the line as Input does, refusing what would make it longer than a line may be."""
        value = self.value
        low, high = sorted((max(0, start), min(len(value), end)))
        if line_problem(f"{value[:low]}{text}{value[high:]}") is not None:
            self.restricted()
            return
        super().replace(text, start, end)

    def _on_paste(self, event: events.Paste) -> None:
        """Paste the first line, cut to what still fits, and say what of the paste was left out."""
        event.stop()
        event.prevent_default()  # Input's own paste handler would paste it again
        lines = [line for line in event.text.splitlines() if line.strip()]
        if not lines:
            return
        first = lines[0]
        selection = self.selection
        low, high = sorted((selection.start, selection.end))
        fits = first[:MAX_LINE_CODE_POINTS]  # no line is longer: the search below stays short
        while fits and line_problem(f"{self.value[:low]}{fits}{self.value[high:]}") is not None:
            fits = fits[:-1]
        if fits:
            self.replace(fits, low, high)
        left_out = []
        if len(lines) > 1:
            more = len(lines) - 1
            left_out.append(f"{more} more line{'s' if more != 1 else ''} dropped: say them one at a time")
        if fits != first:
            left_out.append(f"the line was cut at {MAX_LINE_LENGTH} characters")
        if left_out:
            self.notify(f"Only part of the paste is on the chat line ({'; '.join(left_out)}).", title="Chat",
                        severity="warning", markup=False, timeout=8)


class ChatPane(Vertical):
    """A table's talk: who is there, the lines said, the stock phrases and a line to type."""

    DEFAULT_CSS = """
    ChatPane { height: 9; border-top: solid $accent; border-title-color: $accent; padding: 0 1; }
    ChatPane.hidden { display: none; }
    ChatPane #chat-people { height: 1; color: $text-muted; }
    ChatPane #chat-log { height: 1fr; min-height: 2; overflow-x: hidden; scrollbar-size-vertical: 1; }
    ChatPane #chat-phrases { height: 1; color: $text-muted; }
    ChatPane #chat-input { height: 1; border: none; padding: 0; }
    """

    BINDINGS = [Binding("escape", "close", "Close chat")]

    class UnreadChanged(Message):
        """The number of lines not seen changed (the screen's Chat key shows it)."""

    class Toggled(Message):
        """The pane was opened or closed."""

    def __init__(self, link: TableLink, *, id: str | None = "chat-pane") -> None:
        """Talk at ``link``'s table."""
        super().__init__(id=id, classes="hidden")
        self.link = link
        self.unread = 0
        self._last_id = 0
        self._focus_before: Widget | None = None
        self._mutes_read = False
        self.border_title = "Chat · esc closes"

    def compose(self) -> ComposeResult:
        """People, lines, phrases and the line to type."""
        yield Static("", id="chat-people")
        yield LeanLog(id="chat-log", wrap=True, markup=False, max_lines=500, min_width=20)
        phrases = " ".join(f"{number}:{phrase}" for number, phrase in enumerate(QUICK_PHRASES, 1))
        yield Static(plain(phrases), id="chat-phrases")
        yield ChatInput(placeholder="Say something, enter sends · /mute NAME", id="chat-input")

    def on_mount(self) -> None:
        """Hidden and out of the focus order until opened; the lines so far are read (and not counted).

        Names muted at this table on an earlier visit stay muted (see :mod:`tui.chat_mutes`).
        """
        self.disabled = True
        if not self._read_mutes():
            self.notify("Your earlier mutes at this table could not be read; they will be tried again on /mute.",
                        title="Chat", severity="warning", timeout=6)
        self.fetch(count=False)
        self.show_people(self.link.current())

    @property
    def is_open(self) -> bool:
        """Whether the pane is on screen."""
        return not self.has_class("hidden")

    # -- opening and closing -------------------------------------------------------

    def toggle(self) -> None:
        """Open the pane (focusing the line to type), or close it."""
        if self.is_open:
            self.action_close()
            return
        self._focus_before = self.screen.focused
        self.remove_class("hidden")
        self.disabled = False
        self.query_one(ChatInput).focus()
        # Again after the refresh: a game table that just opened its pane focuses it once the screen settles.
        self.call_after_refresh(self._focus_line)
        self.query_one(RichLog).scroll_end(animate=False)
        self._set_unread(0)
        self.post_message(self.Toggled())

    def _focus_line(self) -> None:
        if self.is_open and not self.query_one(ChatInput).has_focus:
            self.query_one(ChatInput).focus()

    def action_close(self) -> None:
        """Hide the pane and give the focus back to where it was."""
        self.add_class("hidden")
        self.disabled = True
        before, self._focus_before = self._focus_before, None
        if before is not None and before.is_attached and before.focusable:
            before.focus()
        else:
            self.screen.focus_next()
        self.post_message(self.Toggled())

    def _set_unread(self, count: int) -> None:
        if count != self.unread:
            self.unread = count
            self.post_message(self.UnreadChanged())

    # -- lines -----------------------------------------------------------------------

    def show_people(self, info: TableInfo) -> None:
        """Redraw who is at the table."""
        people = self.query("#chat-people")
        if people:
            people.first(Static).update(plain(people_line(info, self.link.claim, self.link.tables.clock())))

    def fetch(self, *, count: bool = True) -> None:
        """Show the lines said since the last one shown; count those that arrive while the pane is closed."""
        logs = self.query(RichLog)
        if not logs:
            return  # not composed yet, or going away with its screen: the next poll reads them
        log = logs.first()
        info = self.link.current()
        try:
            lines = self.link.tables.chat_since(info.table_id, self._last_id)
        except StoreError:
            return  # the next poll tries again; the game itself says when the store fails
        new = 0
        for line in lines:
            self._last_id = max(self._last_id, line.line_id)
            if line.name.casefold() in self.link.muted and line.claim != self.link.claim:
                continue
            log.write(line_text(line, self.link.claim))
            new += line.claim != self.link.claim
        if count and new and not self.is_open:
            self._set_unread(self.unread + new)

    def say(self, text: str) -> bool:
        """Say ``text`` at the table, or say why not; True when it was said."""
        try:
            self.link.tables.say(self.link.current().table_id, text)
        except StoreError as error:
            self.notify(plain_lines(str(error)), title="Chat", severity="warning", markup=False)
            return False
        self.fetch()
        return True

    @on(ChatInput.Phrase)
    def _phrase(self, message: ChatInput.Phrase) -> None:
        message.stop()
        self.say(QUICK_PHRASES[message.index])

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        command, _, rest = text.partition(" ")
        done = self._command(command.lower(), rest.strip()) if command.startswith("/") else self.say(text)
        if done:
            event.input.value = ""

    def _preferences(self) -> tuple[SessionStore | None, str | None]:
        """Where this player's mutes are kept, and whose they are.

        No store outside Coven's app, nor for an account others may share (``account_is_private``).
        """
        context = coven_or_none(self)
        if context is None or not context.account_is_private:
            return None, None
        return context.store, context.account

    def _read_mutes(self) -> bool:
        """Add the names muted here on earlier visits (once); False while the store cannot be read."""
        if self._mutes_read:
            return True
        stored = muted_at(*self._preferences(), self.link.code)
        if stored is None:
            return False
        self.link.muted |= stored
        self._mutes_read = True
        return True

    def _mute(self, argument: str, mute: bool) -> bool:
        """Hide (or show again) the lines of the player called ``argument``, here and on later visits."""
        name = argument.casefold()
        self._read_mutes()  # a read that failed at opening is tried again before anything is written
        muted = self.link.muted
        if mute and (not is_mutable_name(name) or len(argument) > MAX_NAME_LENGTH):
            self.notify(f"No one at a table has a name like that (at most {MAX_NAME_LENGTH} characters).",
                        title="Chat", severity="warning", timeout=6)
            return False
        if mute and name not in muted and len(muted) >= MAX_NAMES:
            self.notify(f"You have muted {MAX_NAMES} names at this table, the most it keeps; /unmute one first.",
                        title="Chat", severity="warning", timeout=6)
            return False
        if mute:
            muted.add(name)
            said = f"{argument}'s lines are hidden on your screen (/unmute {argument} shows them again)."
        else:
            muted.discard(name)
            said = f"{argument}'s new lines show again."
        context = coven_or_none(self)
        if context is not None and not context.account_is_private:
            said += " (For this visit: mutes are kept between visits only for a signed-in account.)"
        elif not self._mutes_read or not remember_muted(*self._preferences(), self.link.code, muted):
            said += " (For this visit only: it could not be saved.)"
        self.notify(plain_lines(said), title="Chat", markup=False, timeout=4)
        return True

    def _command(self, command: str, argument: str) -> bool:
        """``/mute NAME``, ``/unmute NAME`` and the host's ``/spectators on|off``; True when understood."""
        if command in ("/mute", "/unmute") and argument:
            return self._mute(argument, command == "/mute")
        if command == "/spectators" and argument.lower() in ("on", "off"):
            try:
                info = self.link.tables.set_spectator_chat(self.link.code, argument.lower() == "on")
            except StoreError as error:
                self.notify(plain_lines(str(error)), title="Chat", severity="warning", markup=False)
                return False
            self.link.info = info
            self.notify("Spectators may talk." if info.spectator_chat else "Spectators may no longer talk.",
                        title="Chat", timeout=4)
            return True
        self.notify("Chat commands: /mute NAME, /unmute NAME, and for the host /spectators on or off.",
                    title="Chat", severity="warning", timeout=6)
        return False


def c_is_taken(screen: Screen[Any]) -> bool:
    """Whether the focused widget (or a pane around it) answers ``c`` itself, so ``ctrl+t`` is the chat key now."""
    node = screen.focused
    while node is not None and node is not screen:
        if node._bindings.key_to_bindings.get("c"):
            return True
        parent = node.parent
        node = parent if isinstance(parent, Widget) else None
    return False


def describe_chat_key(screen: Screen[Any], pane: ChatPane) -> None:
    """Write the unread count into the Chat key's Footer description ("Chat (3)")."""
    description = f"Chat ({pane.unread})" if pane.unread else "Chat"
    bindings = screen._bindings.key_to_bindings  # the screen's own copy: changing it touches no other screen
    for key in CHAT_KEYS:
        bindings[key] = [replace(binding, description=description) if binding.action.startswith("toggle_chat")
                         else binding
                         for binding in bindings.get(key, [])]
