"""The notice itself: which table, which game, whose seat, and by when; nothing else.

A notice leaves the server, so it holds only what a stranger reading it over
the player's shoulder may see: the table's join code, the game's title, the
seat's name and the deadline (None at a live table). Never a card, a hand, a
seat token or anything of the game's state. Its ``title`` and ``message`` are
sentences made of those same four fields, for services that show them (ntfy).

The body is ntfy's JSON publishing form, so a notice URL such as
``https://ntfy.example/?topic=coven-ana`` shows up on a phone with its title
and message: the ``topic`` query parameter, when the URL has one, is copied
into the body (ntfy reads a JSON notice posted to its root by that field).
Any other service gets the same JSON and may read ``table``, ``game``,
``seat`` and ``deadline`` itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

from engine.core.text import shown_text

FIELDS = ("table", "game", "seat", "deadline")
"""What a notice says; the body adds only ``title``, ``message`` (made of these) and ``topic`` (from the URL)."""

BODY_KEYS = frozenset({*FIELDS, "title", "message", "topic"})
"""Every key a notice's JSON body may hold."""


@dataclass(frozen=True)
class SeatNotice:
    """A table asks a seat whose player is not connected.

    Attributes:
        table: The table's join code.
        game: The game's title ("Wizards Cup").
        seat: The seat's name, as the table shows it.
        deadline: When the seat's time runs out (UTC), or None at a live table.
        reminder: Half the seat's time is gone (a turn-based table's reminder); it still asks.
    """

    table: str
    game: str
    seat: str
    deadline: datetime | None = None
    reminder: bool = False

    @property
    def title(self) -> str:
        """The notice's headline."""
        if self.reminder:
            return f"Coven: half your time is gone at table {self.table}"
        return f"Coven: your move at table {self.table}"

    @property
    def message(self) -> str:
        """One sentence for the notice's text."""
        until = f" before {self._deadline_text()}" if self.deadline is not None else ""
        still = " still" if self.reminder else ""
        return f"{self.game} at table {self.table}{still} asks {self.seat} to choose{until}."

    def _deadline_text(self) -> str | None:
        """The deadline as ISO 8601 (UTC, to the second), or None."""
        return None if self.deadline is None else self.deadline.isoformat(timespec="seconds")

    def fields(self) -> dict[str, str | None]:
        """The four fields, as the body carries them."""
        return {"table": self.table, "game": self.game, "seat": self.seat, "deadline": self._deadline_text()}

    def body(self, url: str) -> bytes:
        """The JSON body posted to ``url``: ntfy's ``topic``, ``title`` and ``message``, then the four fields."""
        document: dict[str, str | None] = {"title": self.title, "message": self.message, **self.fields()}
        topic = topic_of(url)
        if topic is not None:
            document["topic"] = topic
        # Names come from players: shown_text spells out what could mislead a reader (bidi overrides...).
        cleaned = {key: shown_text(value) if isinstance(value, str) else value for key, value in document.items()}
        return json.dumps(cleaned, ensure_ascii=False, sort_keys=True).encode("utf-8")


def topic_of(url: str) -> str | None:
    """The URL's ``topic`` query parameter (its first), or None."""
    values = parse_qs(urlsplit(url).query).get("topic")
    return values[0] if values else None
