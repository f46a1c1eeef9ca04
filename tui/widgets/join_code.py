"""A table's join code drawn in big block letters, so it reads across a room."""

from __future__ import annotations

from textual.widgets import Static

GLYPH_ROWS = 5
"""Every big letter is this many rows tall."""

# Five rows for each letter a join code may hold (no I, L or O); M, N and W need five columns.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "A": (" ██ ", "█  █", "████", "█  █", "█  █"),
    "B": ("███ ", "█  █", "███ ", "█  █", "███ "),
    "C": (" ███", "█   ", "█   ", "█   ", " ███"),
    "D": ("███ ", "█  █", "█  █", "█  █", "███ "),
    "E": ("████", "█   ", "███ ", "█   ", "████"),
    "F": ("████", "█   ", "███ ", "█   ", "█   "),
    "G": (" ███", "█   ", "█ ██", "█  █", " ███"),
    "H": ("█  █", "█  █", "████", "█  █", "█  █"),
    "J": ("  ██", "   █", "   █", "█  █", " ██ "),
    "K": ("█  █", "█ █ ", "██  ", "█ █ ", "█  █"),
    "M": ("█   █", "██ ██", "█ █ █", "█   █", "█   █"),
    "N": ("█   █", "██  █", "█ █ █", "█  ██", "█   █"),
    "P": ("███ ", "█  █", "███ ", "█   ", "█   "),
    "Q": (" ██ ", "█  █", "█  █", "█ ██", " ███"),
    "R": ("███ ", "█  █", "███ ", "█ █ ", "█  █"),
    "S": (" ███", "█   ", " ██ ", "   █", "███ "),
    "T": ("████", " ██ ", " ██ ", " ██ ", " ██ "),
    "U": ("█  █", "█  █", "█  █", "█  █", " ██ "),
    "V": ("█  █", "█  █", "█  █", " ██ ", " ██ "),
    "W": ("█   █", "█   █", "█ █ █", "██ ██", "█   █"),
    "X": ("█  █", " ██ ", " ██ ", " ██ ", "█  █"),
    "Y": ("█  █", "█  █", " ██ ", " ██ ", " ██ "),
    "Z": ("████", "  █ ", " █  ", "█   ", "████"),
}


def big_text(code: str) -> str:
    """``code`` as :data:`GLYPH_ROWS` lines of block letters, two spaces between letters.

    Characters without a big glyph (there should be none in a join code) are
    drawn as themselves in the middle row, so nothing is silently lost.
    """
    rows: list[list[str]] = [[] for _ in range(GLYPH_ROWS)]
    for char in code.upper():
        glyph = _GLYPHS.get(char)
        for index in range(GLYPH_ROWS):
            if glyph is not None:
                rows[index].append(glyph[index])
            else:
                rows[index].append(f" {char}  " if index == GLYPH_ROWS // 2 else "    ")
        width = max(len(part) for part in (glyph or ("    ",)))
        for row in rows:  # every row of a letter is as wide as its widest, so letters line up
            row[-1] = row[-1].ljust(width)
    return "\n".join("  ".join(parts) for parts in rows)  # equal widths, so centring keeps letters aligned


class JoinCode(Static):
    """A join code in big letters with the plain code underneath (for screen readers and copying).

    :attr:`compact` draws it on one line instead, for a screen with no room for the big letters.
    """

    DEFAULT_CSS = """
    JoinCode {
        width: auto;
        height: auto;
        color: $accent;
        text-style: bold;
        text-align: center;
        padding: 0 1;
    }
    """

    BIG_ROWS = GLYPH_ROWS + 2
    """Rows the big code takes: its letters, a blank row and the plain code; the compact code takes one."""

    def __init__(self, code: str, *, id: str | None = None) -> None:  # noqa: A002 - Textual's own name
        """Show ``code``."""
        super().__init__(self._text(code, compact=False), id=id)
        self.code = code
        self._compact = False

    @staticmethod
    def _text(code: str, *, compact: bool) -> str:
        spaced = " ".join(code)  # spaced out, so a screen reader spells it and no letter hides another
        return f"Join code: {spaced}" if compact else f"{big_text(code)}\n\n{spaced}"

    @property
    def compact(self) -> bool:
        """Whether the code is drawn on one line ("Join code: K X M P") instead of in big letters."""
        return self._compact

    @compact.setter
    def compact(self, compact: bool) -> None:
        if compact != self._compact:
            self._compact = compact
            self.update(self._text(self.code, compact=compact))
