"""The table narrator's words: a transcript of sentences, free of box-drawing art.

A screen reader or a braille display reads what is on the screen, and the
art that draws a table (rules, frames, bars of blocks) reads as noise. The
transcript keeps what happens as plain sentences, in order: the game's log
lines (as the viewing seat may read them) and a line whenever whose turn it
is changes. It is shown by :mod:`tui.screens.transcript` and can be saved.
Nothing here names a game: the sentences come from each game's
:class:`~tui.games.base.GameUI`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.core.text import shown_text

MAX_LINES = 20000
"""A transcript keeps this many lines; older ones give way (a long game's log is far shorter)."""

_ART = re.compile("[\u2500-\u259f\u25a0-\u25a1\u25ae]")
"""Box drawing, block elements and the bars drawn as counters: never words."""

_SPACES = re.compile(r"\s+")


def sentence(line: object) -> str | None:
    """``line`` as a transcript sentence: art removed, spaces collapsed; None if nothing readable is left."""
    text = shown_text(str(line).replace("\n", " ")).replace(" → ", " targeting ").replace("→", " to ")
    text = _SPACES.sub(" ", _ART.sub(" ", text)).strip()
    if not any(character.isalnum() for character in text):
        return None
    return text


def names_phrase(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Bo"``, ``"Ana, Bo and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def possessive(name: str) -> str:
    """``"Ana's"``; ``"Jules'"`` for a name ending in s."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def turn_sentence(names: Sequence[str], to_act: Sequence[int], *, over: bool, table_step: bool,
                  prompt: str | None = None, waiting: Sequence[int] = (), asked: str | None = None) -> str:
    """Whose turn it is, as a sentence.

    Args:
        names: Every seat's name.
        to_act: The seats asked to choose now.
        over: The game is finished.
        table_step: Nobody chooses and the table's automatic step waits.
        prompt: What the seat at this terminal may do now (said after its name), if one is asked here.
        waiting: Seats asked to choose at another terminal: "Waiting for Bo."
        asked: The game's words for the one seat asked, when "It is Bo's turn" would be wrong (in Wizbits,
            "Bo holds Priority in Ana's turn").
    """
    if over:
        return "The game is over."
    if not to_act:
        return "The table plays its next step." if table_step else "Nobody is asked to choose."
    seats = [names[seat] for seat in to_act]
    if set(to_act) <= set(waiting):  # nobody here is asked
        return f"Waiting for {names_phrase(seats)} to choose."
    if len(seats) == 1:
        line = asked or f"It is {possessive(seats[0])} turn"
    else:
        line = f"{names_phrase(seats)} choose at the same time"
    line += f": {prompt.rstrip('.')}." if prompt else "."
    elsewhere = [names[seat] for seat in waiting]
    if elsewhere:
        line += f" Waiting for {names_phrase(elsewhere)}."
    return line


class Transcript:
    """The sentences of one game as one viewer reads them, oldest first."""

    def __init__(self, limit: int = MAX_LINES) -> None:
        self.lines: list[str] = []
        self.limit = limit
        self._last_turn: str | None = None

    def add(self, line: object) -> bool:
        """Add one line as a sentence (art dropped); False when nothing readable was in it."""
        text = sentence(line)
        if text is None:
            return False
        self.lines.append(text)
        if len(self.lines) > self.limit:
            del self.lines[: len(self.lines) - self.limit]
        return True

    def add_all(self, lines: Iterable[object]) -> None:
        """Add each of ``lines``."""
        for line in lines:
            self.add(line)

    def turn(self, line: str, quiet: bool = False) -> bool:
        """Add whose turn it is, unless it is what the last such line said; True when added.

        ``quiet`` (the terse verbosity) only remembers ``line`` as the turn now,
        so the turn coming back to a seat is said again, as it would be had
        this one been written.

        A line that only adds what the seat here may do to the turn line just
        said ("Ana and Bo choose at the same time: choose …" after "Ana and Bo
        choose at the same time.") takes its place: one turn is said once.
        """
        if line == self._last_turn:
            return False
        said = sentence(self._last_turn) if self._last_turn is not None else None
        self._last_turn = line
        if quiet:
            return False
        text = sentence(line)
        if said is not None and text is not None and self.lines and self.lines[-1] == said \
                and text.startswith(said.rstrip(".") + ":"):
            self.lines[-1] = text
            return True
        return self.add(line)

    def clear(self) -> None:
        """Forget every line (a replay that jumps back)."""
        self.lines.clear()
        self._last_turn = None

    def text(self, title: str = "") -> str:
        """The whole transcript as plain text, one sentence a line, under ``title`` when given."""
        head = [title, ""] if title else []
        return "\n".join([*head, *self.lines]) + "\n"
