"""One WitchDraft play area drawn as a grid of cards, with a ghost card to place.

The widget knows how to draw cards but no game rule: while placing, the owner
passes ``check`` (the reason a placement is illegal, or None) and ``gain`` (the
brew points it would add), both of which call the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding
from textual.events import Click, Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from engine.witchdraft.geometry import ROTATIONS, Cell, Placement, cells
from tui.games.witchdraft.potion_cells import CELL_SIZES, Canvas, draw_card, draw_dots, ghost_palette, palette_of
from tui.widgets.styles import load_css

PlacedArea = Sequence[tuple[str, int, int, int]]
"""Placed cards as ``(card_id, x, y, rotation)``, the apprentice first."""

Check = Callable[[Placement], "str | None"]
Gain = Callable[[Placement], int]


class PotionGrid(Widget, can_focus=True):
    """A play area; in placement mode a ghost card follows the cursor.

    Keys: arrows move the ghost (or pan when not placing), ``r`` rotates it,
    ``enter`` places it, ``z`` toggles the zoom and shift+arrows pan.
    """

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("up", "move(0, -1)", "Move", show=False),
        Binding("down", "move(0, 1)", "Move", show=False),
        Binding("left", "move(-1, 0)", "Move", show=False),
        Binding("right", "move(1, 0)", "Move", show=False),
        Binding("r", "rotate", "Rotate"),
        Binding("enter", "place", "Place"),
        Binding("z", "toggle_zoom", "Zoom"),
        Binding("shift+left", "pan(-1, 0)", "Pan", key_display="⇧←→",
                tooltip="Pan: move the potion grid's view (shift and an arrow)"),
        Binding("shift+up", "pan(0, -1)", "Pan", show=False),
        Binding("shift+down", "pan(0, 1)", "Pan", show=False),
        Binding("shift+right", "pan(1, 0)", "Pan", show=False),
    ]

    class Placed(Message):
        """The player pressed enter on a legal spot for ``card_id``."""

        def __init__(self, grid: PotionGrid, card_id: str, placement: Placement) -> None:
            super().__init__()
            self.grid = grid
            self.card_id = card_id
            self.placement = placement

        @property
        def control(self) -> PotionGrid:
            """The grid that sent this."""
            return self.grid

    class StatusChanged(Message):
        """The status line changed (also drawn on the grid's bottom line)."""

        def __init__(self, grid: PotionGrid, text: str) -> None:
            super().__init__()
            self.grid = grid
            self.text = text

        @property
        def control(self) -> PotionGrid:
            """The grid that sent this."""
            return self.grid

    zoom: reactive[str] = reactive("compact")
    """``"compact"`` (4x2 characters per square) or ``"detailed"`` (8x4, with edge symbols)."""

    status: reactive[str] = reactive("")
    """The bottom line: whether the ghost's spot is legal and what it scores, or a hint."""

    def __init__(self, area: PlacedArea = (), *, zoom: str = "compact", name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.area: tuple[tuple[str, int, int, int], ...] = tuple(area)
        """The placed cards shown."""
        self.card_id: str | None = None
        """The card being placed, or None outside placement mode."""
        self.cursor: Placement | None = None
        """Where the ghost is (half A's square and the rotation)."""
        self.reason: str | None = None
        """Why the ghost's spot is illegal, or None when it is legal (or not placing)."""
        self._check: Check | None = None
        self._gain: Gain | None = None
        self._view: tuple[int, int] | None = None  # world character at the top-left corner
        self.set_reactive(PotionGrid.zoom, zoom)
        self.set_reactive(PotionGrid.status, self._hint())

    # --- public API ---------------------------------------------------------------------------

    @property
    def placing(self) -> bool:
        """True while a ghost card is shown."""
        return self.card_id is not None

    def show_area(self, area: PlacedArea) -> None:
        """Draw these placed cards (the ghost, if any, stays where it is).

        While placing, call :meth:`start_placing` again with callbacks for the
        new area: ``check`` and ``gain`` are whatever the owner last passed.
        """
        self.area = tuple(area)
        if self.placing:
            self._evaluate()
        else:
            self.status = self._hint()
        self._follow()
        self.refresh()

    def start_placing(self, card_id: str, check: Check, gain: Gain, start: Placement | None = None) -> None:
        """Show ``card_id`` as a ghost; ``check`` and ``gain`` judge each spot.

        The cursor starts at ``start``, else at a legal spot near the middle of
        the area (found by asking ``check``), else beside the apprentice card.
        Enter on a legal spot posts :class:`Placed` and stays in placement
        mode; the owner calls :meth:`stop_placing` when it accepts the pick.
        """
        self.card_id, self._check, self._gain = card_id, check, gain
        self.cursor = start or self._first_legal(check) or Placement(0, -1, 0)
        self._evaluate()
        self._follow()
        self.refresh_bindings()
        self.refresh()

    def stop_placing(self) -> None:
        """Hide the ghost and leave placement mode."""
        self.card_id = self.cursor = self.reason = None
        self._check = self._gain = None
        self.status = self._hint()
        self.refresh_bindings()
        self.refresh()

    def remember(self) -> tuple[str, tuple[int, int] | None]:
        """The zoom and the pan: how this seat looks at its potion (kept per seat by the table)."""
        return self.zoom, self._view

    def restore(self, memo: tuple[str, tuple[int, int] | None] | None) -> None:
        """Look as the seat now looking last did (None: compact, centred as a fresh grid is)."""
        zoom, view = memo or ("compact", None)
        self.set_reactive(PotionGrid.zoom, self.validate_zoom(zoom))  # no watcher: it would centre the view again
        self._view = view
        self._follow()
        self.refresh()

    def is_cell_visible(self, cell: Cell) -> bool:
        """True when the whole square ``cell`` is inside the drawn part of the grid."""
        left, top, width, height = self._viewport()
        cw, ch = CELL_SIZES[self.zoom]
        x, y = cell[0] * cw, cell[1] * ch
        return left <= x and x + cw <= left + width + 1 and top <= y and y + ch <= top + height + 1

    # --- actions ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("rotate", "place"):
            return self.placing
        return True

    def action_move(self, dx: int, dy: int) -> None:
        if self.cursor is None:
            self.action_pan(dx, dy)
            return
        self.cursor = Placement(self.cursor.x + dx, self.cursor.y + dy, self.cursor.rotation)
        self._evaluate()
        self._follow()
        self.refresh()

    def action_rotate(self) -> None:
        if self.cursor is None:
            return
        rotation = ROTATIONS[(ROTATIONS.index(self.cursor.rotation) + 1) % 4]
        self.cursor = Placement(self.cursor.x, self.cursor.y, rotation)
        self._evaluate()
        self._follow()
        self.refresh()

    def action_place(self) -> None:
        if self.card_id is None or self.cursor is None:
            return
        self._evaluate()
        if self.reason is not None:
            self.app.bell()
            return
        self.post_message(self.Placed(self, self.card_id, self.cursor))

    def focus_cursor(self) -> tuple[int, int] | None:
        """Where the ghost's half A sits within the grid's content, for the terminal cursor (tui/focus_cursor.py)."""
        if self.cursor is None:
            return None
        left, top, _, _ = self._viewport()
        cw, ch = CELL_SIZES[self.zoom]
        return self.cursor.x * cw - left, self.cursor.y * ch - top

    def action_toggle_zoom(self) -> None:
        self.zoom = "detailed" if self.zoom == "compact" else "compact"

    def action_pan(self, dx: int, dy: int) -> None:
        left, top, _, _ = self._viewport()
        cw, ch = CELL_SIZES[self.zoom]
        self._view = (left + dx * cw, top + dy * ch)
        self.refresh()

    # --- watchers and events ------------------------------------------------------------------

    def watch_zoom(self) -> None:
        self._view = None
        self._follow()
        self.refresh()

    def watch_status(self, status: str) -> None:
        self.post_message(self.StatusChanged(self, status))

    def on_resize(self, event: Resize) -> None:
        self._follow()

    def on_click(self, event: Click) -> None:
        """Clicking a square moves the ghost's half A there."""
        left, top, _, height = self._viewport()
        if self.cursor is None or event.y >= height:
            return
        cw, ch = CELL_SIZES[self.zoom]
        self.cursor = Placement((left + event.x) // cw, (top + event.y) // ch, self.cursor.rotation)
        self._evaluate()
        self.refresh()

    def validate_zoom(self, zoom: str) -> str:
        if zoom not in CELL_SIZES:
            raise ValueError(f"zoom must be one of {sorted(CELL_SIZES)}, not {zoom!r}")
        return zoom

    # --- internals ----------------------------------------------------------------------------

    def _hint(self) -> str:
        count = max(0, len(self.area) - 1)
        return f"{count} companion{'s' if count != 1 else ''} · z zoom · shift+arrows pan"

    def _evaluate(self) -> None:
        if self.cursor is None or self._check is None or self._gain is None:
            return
        self.reason = self._check(self.cursor)
        if self.reason is None:
            gain = self._gain(self.cursor)
            self.status = f"Legal · +{gain} brew point{'s' if gain != 1 else ''}"
        else:
            self.status = f"Illegal: {self.reason}"

    def _area_cells(self) -> list[Cell]:
        return [cell for _, x, y, r in self.area for cell in cells(Placement(x, y, r))]

    def _first_legal(self, check: Check) -> Placement | None:
        taken = set(self._area_cells())
        if not taken:
            return None
        mid_x = sum(x for x, _ in taken) / len(taken)
        mid_y = sum(y for _, y in taken) / len(taken)
        near = {(x + dx, y + dy) for x, y in taken for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))} - taken
        for x, y in sorted(near, key=lambda c: ((c[0] - mid_x) ** 2 + (c[1] - mid_y) ** 2, c[1], c[0])):
            for rotation in ROTATIONS:
                placement = Placement(x, y, rotation)
                if check(placement) is None:
                    return placement
        return None

    def _viewport(self) -> tuple[int, int, int, int]:
        """(left, top, width, height) in world characters; the bottom rows are the status line."""
        width = self.content_size.width
        height = max(0, self.content_size.height - self._status_rows(width))
        if self._view is None:
            self._follow()
        left, top = self._view or (0, 0)
        return left, top, width, height

    def _follow(self) -> None:
        """Centre each axis where everything fits, else scroll just enough to keep the ghost in view."""
        width = self.content_size.width
        height = max(0, self.content_size.height - self._status_rows(width))
        if width <= 0 or height <= 0:
            return
        cw, ch = CELL_SIZES[self.zoom]
        ghost = list(cells(self.cursor)) if self.cursor is not None else []
        every = self._area_cells() + ghost or [(0, 0)]
        xs, ys = [x for x, _ in every], [y for _, y in every]
        gx, gy = [x for x, _ in ghost], [y for _, y in ghost]
        current = self._view
        left = _scroll(None if current is None else current[0], (min(xs) - 1) * cw, (max(xs) + 2) * cw - 1,
                       width, (min(gx) * cw, (max(gx) + 1) * cw) if ghost else None, cw)
        top = _scroll(None if current is None else current[1], (min(ys) - 1) * ch, (max(ys) + 2) * ch - 1,
                      height, (min(gy) * ch, (max(gy) + 1) * ch) if ghost else None, ch)
        self._view = (left, top)

    def render(self) -> RenderableType:
        left, top, width, height = self._viewport()
        cw, ch = CELL_SIZES[self.zoom]
        canvas = Canvas()
        taken = set(self._area_cells())
        x0, y0 = left // cw - 1, top // ch - 1
        empty = [(x, y) for x in range(x0, x0 + width // cw + 3) for y in range(y0, y0 + height // ch + 3)
                 if (x, y) not in taken]
        draw_dots(canvas, self.zoom, empty)
        for card_id, x, y, rotation in self.area:
            draw_card(canvas, card_id, Placement(x, y, rotation), self.zoom, palette_of(card_id))
        if self.card_id is not None and self.cursor is not None:
            draw_card(canvas, self.card_id, self.cursor, self.zoom, ghost_palette(self.reason is None))
        lines = canvas.crop(left, top, width, height)
        self._mark_hidden(lines, top, height, ch)
        return Group(*lines, *self._status_lines(width))

    def _mark_hidden(self, lines: list[Text], top: int, height: int, ch: int) -> None:
        """Say on the grid's first (last) row that part of the potion lies above (below) the view.

        A potion taller than the pane, or a view the ghost or the arrows moved, would else hide a row of
        cards with nothing to tell it is there.
        """
        ys = [y for _, y in self._area_cells()] + ([y for _, y in cells(self.cursor)] if self.cursor else [])
        if not ys or not lines:
            return
        marks = {0: "▲ more" if min(ys) * ch < top else "",
                 len(lines) - 1: "▼ more" if (max(ys) + 1) * ch > top + height else ""}
        for index, mark in marks.items():
            line = lines[index]
            if mark and line.cell_len > len(mark):
                line.truncate(line.cell_len - len(mark))
                line.append(mark, style="bold reverse")

    def _status_text(self) -> Text:
        text = Text()
        if self.card_id is not None:
            legal = self.reason is None
            # The theme's own success and error hues, so Coven's themes reach the verdict too.
            theme = self.app.current_theme
            hue = (theme.success or "green") if legal else (theme.error or "red")
            text.append("✓ " if legal else "✗ ", style=f"bold {hue}")
            text.append(self.status, style=hue)
        else:
            text.append(self.status, style="dim")
        return text

    def _status_rows(self, width: int) -> int:
        """One row for the status line, two when it would not fit in one."""
        return 1 if self._status_text().cell_len <= width else 2

    def _status_lines(self, width: int) -> list[Text]:
        text = self._status_text()
        if self._status_rows(width) == 1:
            return [text]
        lines = list(text.wrap(self.app.console, width, overflow="ellipsis"))[:2]
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return lines


def _scroll(current: int | None, low: int, high: int, size: int, ghost: tuple[int, int] | None, cell: int) -> int:
    """The first world character shown on one axis (see :meth:`PotionGrid._follow`)."""
    extent = high - low
    if extent <= size:
        return low - (size - extent) // 2
    if ghost is None:
        if current is not None:
            return current
        start = (low + high) // 2 - size // 2
        return start - start % cell
    start = (low + high) // 2 - size // 2 if current is None else current
    margin = max(0, min(cell, (size - (ghost[1] - ghost[0])) // 2))
    if ghost[0] - margin < start:
        start = ghost[0] - margin
    if ghost[1] + margin > start + size:
        start = ghost[1] + margin - size
    # Start on a square's edge so the top and left cards are drawn whole, if the ghost still fits.
    snapped = start - start % cell
    return snapped if ghost[1] <= snapped + size else snapped + cell
