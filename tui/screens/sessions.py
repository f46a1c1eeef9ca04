"""Saved sessions: resume, replay, export, import and delete."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from saves import (
    SessionFileError,
    SessionFileExistsError,
    SessionSummary,
    StoreError,
    export_session,
)
from saves.integrity import DamagedSession
from saves.series import series_score
from saves.store_listing import SessionListEntry
from saves.transfer import import_session_file
from tui.context import coven
from tui.navigation import OpenReplay, OpenSession
from tui.safe_text import plain
from tui.screens.sessions_columns import SCROLLBAR, TABLE_MARGIN, column_widths, fit_rows
from tui.screens.sessions_listing import read_listing
from tui.served import refuses_files
from tui.user_paths import user_path
from tui.widgets.confirm import ConfirmScreen, PromptScreen
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside

COLUMNS: tuple[str, ...] = ("ID", "Game", "Seats", "Status", "Progress", "Last played")
"""The sessions table's column labels.

"Game" is left out while every session is of the same game, so the rest fit
80 columns; the detail line under the table names the game anyway.
"""

DAMAGED_WIDTH = 24
"""How much of a damaged session's reason its row shows; the detail line has the rest."""

SEATS_WIDTH = 28
"""The Seats column's widest text, so Status, Progress and Last played stay in 80 columns."""


def current_year() -> int:
    """This year in local time (a function so tests can pin it)."""
    return datetime.now().astimezone().year


def format_time(stamp: str) -> str:
    """An ISO-8601 UTC stamp in local time, short enough for an 80-column table.

    "Nov 29 22:14" within the current year, "2025-11-29" before it, and the
    stamp itself if it can't be read.
    """
    try:
        when = datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return stamp
    if when.year == current_year():
        return when.strftime("%b %d %H:%M")
    return when.strftime("%Y-%m-%d")


def default_export_path(session_id: int) -> Path:
    """Where an export goes unless the user says otherwise."""
    return Path.home() / f"coven-session-{session_id}.json"


class SessionsScreen(Screen[None]):
    """A table of saved sessions, newest first."""
    HELP_TITLE = "Saved sessions"
    HELP = ("Every game saved on this machine (or, over SSH, yours), newest first. Resume one where it "
            "stopped, replay it step by step, or export it to a file to share; the line under the list "
            "says more about the highlighted one.")

    CSS_PATH = css_beside(__file__, "sessions.tcss")
    BINDINGS = [
        Binding("enter", "resume", "Resume", priority=True),
        Binding("p", "replay", "Replay"),
        Binding("e", "export", "Export"),
        Binding("i", "import", "Import"),
        Binding("d,delete", "delete", "Delete"),
        Binding("n", "app.new_game", "New game", show=False),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        """Start empty; rows are loaded on mount and whenever the screen returns."""
        super().__init__()
        self.summaries: list[SessionListEntry] = []

    def compose(self) -> ComposeResult:
        """Title, table, empty-state message and footer."""
        yield Header()
        yield Static("Saved sessions", classes="screen-title")
        table: DataTable[str] = DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="sessions-empty", classes="hint")  # its text is chosen on each reload
        yield Static("", id="session-detail", classes="hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Load the rows."""
        self.reload()

    def on_screen_resume(self) -> None:
        """Sessions may have changed (played, imported) while away."""
        self.reload()

    def reload(self, select: int | None = None) -> None:
        """Re-read the list from the store, keeping the cursor on ``select`` or the current row."""
        table = self.query_one("#sessions-table", DataTable)
        keep = select if select is not None else self.selected_id()
        self.summaries, empty_text = read_listing(coven(self).store, coven(self).account, coven(self).served)
        columns = COLUMNS
        if len({summary.game_id for summary in self.summaries if summary.game_id}) <= 1:
            columns = tuple(column for column in COLUMNS if column != "Game")
        lines = table.size.height or self.app.size.height - 8  # before the first layout: the screen's share
        scrollbar = SCROLLBAR if len(self.summaries) + 1 > lines else 0
        width = max(self.app.size.width - TABLE_MARGIN - scrollbar, 40)
        rows = self.rows(columns, SEATS_WIDTH)
        if "Seats" in columns:  # the seats say "vs 2 others" sooner rather than being cut
            seats_width = column_widths(columns, rows, width)[columns.index("Seats")]
            if seats_width < SEATS_WIDTH:
                rows = self.rows(columns, seats_width)
        rows = fit_rows(columns, rows, width)
        if tuple(str(column.label) for column in table.ordered_columns) != columns:
            table.clear(columns=True)
            table.add_columns(*columns)
        else:
            table.clear()
        for summary, cells in zip(self.summaries, rows, strict=True):
            # Plain Text cells: names and phrases from the store are never markup or terminal controls.
            table.add_row(*(plain(cell) for cell in cells), key=str(summary.session_id))
        empty = not self.summaries
        table.display = not empty
        empty_line = self.query_one("#sessions-empty", Static)
        empty_line.update(plain(empty_text))  # an error's text may quote the database: never markup
        empty_line.display = empty
        if keep is not None:
            ids = [summary.session_id for summary in self.summaries]
            if keep in ids:
                table.move_cursor(row=ids.index(keep))
        if not empty:
            table.focus()
        self.query_one("#session-detail", Static).display = not empty
        self._show_detail()
        self.refresh_bindings()

    def rows(self, columns: tuple[str, ...], seats_width: int) -> list[list[str]]:
        """Every listed session's row, whole but for the seats (at most ``seats_width`` wide)."""
        return [self.damaged_cells(summary, columns) if isinstance(summary, DamagedSession)
                else self.session_cells(summary, columns, seats_width) for summary in self.summaries]

    def session_cells(self, summary: SessionSummary, columns: tuple[str, ...],
                      seats_width: int = SEATS_WIDTH) -> list[str]:
        """The row of a session (:func:`fit_rows` shortens it to the screen)."""
        cells = {
            "ID": str(summary.session_id),
            "Game": coven(self).game_title(summary.game_id),
            "Seats": self.seats_label(summary, seats_width),
            "Status": "finished" if summary.status == "finished" else "in progress",
            "Progress": summary.progress,
            "Last played": format_time(summary.updated),
        }
        return [cells[column] for column in columns]

    def damaged_cells(self, entry: DamagedSession, columns: tuple[str, ...]) -> list[str]:
        """The row of a damaged session: "damaged", and the start of its reason where progress goes."""
        reason = entry.reason if len(entry.reason) <= DAMAGED_WIDTH else entry.reason[:DAMAGED_WIDTH - 1] + "…"
        cells = {
            "ID": str(entry.session_id),
            "Game": coven(self).game_title(entry.game_id) if entry.game_id else "?",
            "Seats": "?",
            "Status": "damaged",
            "Progress": reason,
            "Last played": format_time(entry.updated),
        }
        return [cells[column] for column in columns]

    def refuse_damaged(self, session_id: int, title: str) -> bool:
        """True (after saying why) when ``session_id`` is listed as damaged: it cannot be opened."""
        entry = next((s for s in self.summaries if s.session_id == session_id), None)
        if not isinstance(entry, DamagedSession):
            return False
        self.notify(entry.message, title=title, severity="error", timeout=15)
        return True

    @staticmethod
    def seats_label(summary: SessionSummary, width: int = SEATS_WIDTH) -> str:
        """The seats, bots marked: "Ana vs Merlin (bot)"; "Ana vs 4 others" when that is too long.

        Never wider than :data:`SEATS_WIDTH`: a long first name is cut with "…".
        """
        names = [f"{seat.name} (bot)" if seat.is_bot else seat.name for seat in summary.seats]
        label = " vs ".join(names)
        if len(label) <= width:
            return label
        rest = f" vs {len(names) - 1} other{'s' if len(names) > 2 else ''}"
        first = names[0]
        room = width - len(rest)
        if len(first) > room:
            first = first[:room - 1] + "…"
        return first + rest

    def _show_detail(self) -> None:
        """Describe the highlighted session under the table."""
        session_id = self.selected_id()
        summary = next((s for s in self.summaries if s.session_id == session_id), None)
        if summary is None:
            self.query_one("#session-detail", Static).update("")
            return
        if isinstance(summary, DamagedSession):
            self.query_one("#session-detail", Static).update(plain(summary.message))
            return
        moves = f"{summary.actions} action{'s' if summary.actions != 1 else ''}"
        outcome = summary.result or (f"Not finished yet: {summary.progress}." if summary.progress
                                     else "Not finished yet.")
        self.query_one("#session-detail", Static).update(plain(
            f"Session {summary.session_id} · {coven(self).game_title(summary.game_id)} · {moves} · "
            f"started {format_time(summary.created)}\n{outcome}{self._series_line(summary.session_id)}"
        ))

    def _series_line(self, session_id: int) -> str:
        """A third detail line with the running score when the session continues a rematch series."""
        store = coven(self).store
        score = None if store is None else series_score(store, session_id)
        return f"\nSeries {score.text}" if score is not None and score.games > 1 else ""

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Keep the detail line in step with the cursor."""
        event.stop()
        self._show_detail()

    def selected_id(self) -> int | None:
        """The id of the highlighted session, or None when the list is empty."""
        table = self.query_one("#sessions-table", DataTable)
        if not self.summaries or table.row_count == 0:
            return None
        row = min(max(table.cursor_row, 0), len(self.summaries) - 1)
        return self.summaries[row].session_id

    def _selected_or_explain(self) -> int | None:
        """The highlighted session id, or None after saying there is none."""
        session_id = self.selected_id()
        if session_id is None:
            self.notify("There is no saved session to choose.", severity="warning")
        return session_id

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the per-session actions while the list is empty."""
        if action in ("resume", "replay", "export", "delete") and not self.summaries:
            return False
        if action in ("import", "export") and coven(self).served:
            return False  # no files over SSH (the actions say so if reached anyway)
        return True

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a row resumes it."""
        event.stop()
        self.action_resume()

    def action_resume(self) -> None:
        """Resume the highlighted session."""
        session_id = self._selected_or_explain()
        if session_id is not None and not self.refuse_damaged(session_id, "Cannot resume"):
            self.app.post_message(OpenSession(session_id))

    def action_replay(self) -> None:
        """Step through the highlighted session."""
        session_id = self._selected_or_explain()
        if session_id is not None and not self.refuse_damaged(session_id, "Cannot replay"):
            self.app.post_message(OpenReplay(session_id))

    def action_delete(self) -> None:
        """Delete the highlighted session after confirmation."""
        session_id = self._selected_or_explain()
        if session_id is None or coven(self).refuse_live_table(session_id, "be deleted"):
            return
        store = coven(self).store
        if store is not None and not store.owned_by(session_id, coven(self).account):
            self.notify(f"Session {session_id} is not yours to delete; you may replay it.",
                        title="Not deleted", severity="warning")
            return
        summary = next(s for s in self.summaries if s.session_id == session_id)
        if isinstance(summary, DamagedSession):  # its seats are not to be trusted, nor shown
            question = f"Delete damaged session {session_id}? This cannot be undone."
        else:
            question = (
                f"Delete session {session_id} ({coven(self).game_title(summary.game_id)}: "
                f"{' vs '.join(summary.seat_names)})? This cannot be undone."  # ConfirmScreen draws it as plain text
            )

        def answered(yes: bool | None) -> None:
            """Delete the session if the user said yes."""
            if not yes:
                return
            store = coven(self).store
            try:
                if store is not None:
                    store.delete(session_id)
            except StoreError as error:
                self.notify(str(error), severity="error")
                return
            self.notify(f"Deleted session {session_id}.")
            self.reload()

        self.app.push_screen(ConfirmScreen(question, yes_label="Delete", no_label="Keep"), answered)

    def action_export(self) -> None:
        """Write the highlighted session to a JSON file."""
        if refuses_files(self.app):
            return
        session_id = self._selected_or_explain()
        if session_id is None or self.refuse_damaged(session_id, "Not exported") or \
                coven(self).refuse_live_table(session_id, "be exported"):
            return

        def write(target: Path, overwrite: bool) -> None:
            """Export to ``target``; ask before replacing an existing file."""
            store = coven(self).store
            if store is None:
                return
            try:
                written = export_session(store, session_id, target, overwrite=overwrite)
            except SessionFileExistsError:

                def answered(yes: bool | None) -> None:
                    """Replace the file only if the user said so."""
                    if yes:
                        write(target, True)
                    else:
                        self.notify(f"{target} was left as it was.", title="Not exported", timeout=5)

                question = f"Replace {target}?\nA file with that name already exists."
                self.app.push_screen(ConfirmScreen(question, yes_label="Replace", no_label="Cancel"), answered)
                return
            except (SessionFileError, StoreError, OSError) as error:
                self.notify(str(error), title="Export failed", severity="error", timeout=10)
                return
            self.notify(f"Saved session {session_id} to {written}", title="Exported", timeout=10)

        def chosen(path: str | None) -> None:
            """Act on the path the user typed."""
            if path and path.strip():
                write(user_path(path), False)  # one rule for every path typed: tui/user_paths.py

        self.app.push_screen(
            PromptScreen(f"Export session {session_id} to file:", str(default_export_path(session_id)),
                         ok_label="Export"),
            chosen,
        )

    def action_import(self) -> None:
        """Read a session from a JSON file written by export."""
        if refuses_files(self.app):
            return

        def chosen(path: str | None) -> None:
            """Act on the path the user typed."""
            store = coven(self).store
            if not path or not path.strip() or store is None:
                return
            source = user_path(path)
            try:
                imported = import_session_file(store, source)
            except (SessionFileError, StoreError, OSError) as error:
                self.notify(str(error), title="Import failed", severity="error", timeout=10)
                return
            session_id = imported.session_id
            if imported.warning:
                self.notify(f"Imported as session {session_id}. {imported.warning}", title="Imported, but changed",
                            severity="warning", timeout=15)
            else:
                self.notify(f"Imported {source} as session {session_id}.", title="Imported")
            self.reload(select=session_id)

        self.app.push_screen(
            PromptScreen("Import a session from file:", placeholder="~/coven-session-1.json", ok_label="Import"),
            chosen,
        )
