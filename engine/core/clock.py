"""Fischer clocks for a live table: pure rules, with time always passed in.

A table's clock gives every clocked seat a base time and adds a fixed increment
after each of its moves. A seat's time runs only while it is asked to choose
(several seats at once for a simultaneous choice) and the clock is not stopped
(a curtain is up, or a seat is dropped). A player may ask for no clock or for
double time (base and increment both doubled) for their own seat.

Nothing here reads a clock: every call takes ``now`` in seconds, so tests drive
it with a fake time source and never sleep.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

ClockAsk = Literal["normal", "double", "none"]
"""What a player asked for their own seat: the table's clock, double time, or no clock."""

CLOCK_ASKS: tuple[ClockAsk, ...] = ("normal", "double", "none")

MAX_BASE_MINUTES = 180
MAX_INCREMENT_SECONDS = 180


@dataclass(frozen=True)
class Fischer:
    """Fischer time: ``base_minutes`` for the game plus ``increment_seconds`` after every move."""

    base_minutes: int
    increment_seconds: int

    def __post_init__(self) -> None:
        """Refuse times no table could use."""
        if not (0 < self.base_minutes <= MAX_BASE_MINUTES and 0 <= self.increment_seconds <= MAX_INCREMENT_SECONDS):
            raise ValueError(f"A clock of {self.base_minutes} minutes plus {self.increment_seconds} s is not offered.")

    @property
    def label(self) -> str:
        """How players write it: "5+10"."""
        return f"{self.base_minutes}+{self.increment_seconds}"

    @property
    def words(self) -> str:
        """The clock in words: "5 minutes plus 10 seconds a move"."""
        minutes = f"{self.base_minutes} minute{'s' if self.base_minutes != 1 else ''}"
        return f"{minutes} plus {self.increment_seconds} seconds a move"


PRESETS: tuple[Fischer, ...] = (Fischer(5, 10), Fischer(10, 5), Fischer(3, 2))
"""The clocks the host form offers, besides none."""


def factor(ask: ClockAsk) -> int:
    """How many times the table's time a seat gets: 2 for double time, else 1."""
    return 2 if ask == "double" else 1


def clock_text(seconds: float) -> str:
    """Time left as a clock shows it: "4:05", "0:00" once it ran out (whole seconds, rounded up while running)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def time_words(seconds: float) -> str:
    """Time left in words, for the narrator: "4 minutes 5 seconds", "no time"."""
    whole = max(0, math.ceil(seconds))
    minutes, rest = divmod(whole, 60)
    parts = [f"{minutes} minute{'s' if minutes != 1 else ''}"] if minutes else []
    if rest or not minutes:
        parts.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(parts) if whole else "no time"


@dataclass(frozen=True)
class ClockMark:
    """A seat's time left just after its move at log entry ``seq`` (the increment added): for the replay."""

    seq: int
    seat: int
    left: float


@dataclass
class TableClock:
    """Every seat's clock at one table.

    Attributes:
        fischer: The table's time control.
        left: Seconds left per clocked seat, as of ``since`` (seats not yet asked have none until first asked).
        asks: What each seat's player asked ("normal" when nothing is stored).
        asked: The seats being asked to choose as of log entry ``seq``.
        seq: How many log entries the clock has followed.
        since: When ``left`` was last charged (seconds of the time source).
        curtain: A curtain is up at the table (one keyboard at the host's terminal): the clock stops.
        dropped: A seat is dropped: the clock stops.
        off: Seats taken out of the clock (handed to a bot when their time ran out).
        marks: Each move's time left, in log order.
    """

    fischer: Fischer
    left: dict[int, float] = field(default_factory=dict)
    asks: dict[int, ClockAsk] = field(default_factory=dict)
    asked: frozenset[int] = frozenset()
    seq: int = 0
    since: float = 0.0
    curtain: bool = False
    dropped: bool = False
    off: frozenset[int] = frozenset()
    marks: list[ClockMark] = field(default_factory=list)

    # -- reading -----------------------------------------------------------------

    def ask(self, seat: int) -> ClockAsk:
        """What the seat's player asked (the table's clock unless they asked otherwise)."""
        return self.asks.get(seat, "normal")

    def clocked(self, seat: int) -> bool:
        """Whether ``seat`` plays on the clock (not asked off, not handed to a bot)."""
        return self.ask(seat) != "none" and seat not in self.off

    @property
    def stopped(self) -> bool:
        """The clock stands still: a curtain is up or a seat is dropped."""
        return self.curtain or self.dropped

    def running(self) -> frozenset[int]:
        """The seats whose time runs now."""
        if self.stopped:
            return frozenset()
        return frozenset(seat for seat in self.asked if self.clocked(seat))

    def base(self, seat: int) -> float:
        """The seat's starting time in seconds."""
        return float(self.fischer.base_minutes * 60 * factor(self.ask(seat)))

    def increment(self, seat: int) -> float:
        """Seconds added to the seat's time after each of its moves."""
        return float(self.fischer.increment_seconds * factor(self.ask(seat)))

    def left_at(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (may be below zero once it ran out)."""
        left = self.left.get(seat, self.base(seat))
        if seat in self.running():
            left -= max(0.0, now - self.since)
        return left

    def out_of_time(self, now: float) -> list[int]:
        """The running seats whose time is up at ``now``."""
        return sorted(seat for seat in self.running() if self.left_at(seat, now) <= 0)

    def after(self, seq: int, seats: int) -> dict[int, float]:
        """Each clocked seat's time as the replay shows it after log entry ``seq``: its time left after its latest
        move so far (the increment added), or its starting time before it moved."""
        times = {seat: self.base(seat) for seat in range(seats) if self.ask(seat) != "none"}
        for mark in self.marks:
            if mark.seq <= seq and mark.seat in times:
                times[mark.seat] = mark.left
        return times

    # -- changing ----------------------------------------------------------------

    def charge(self, now: float) -> None:
        """Take the time spent since the last change off every running seat."""
        spent = max(0.0, now - self.since)
        for seat in self.running():
            self.left[seat] = self.left.get(seat, self.base(seat)) - spent
        self.since = max(self.since, now)

    def follow(self, seq: int, asked: Iterable[int], movers: Iterable[tuple[int, int]], now: float) -> bool:
        """The game reached log entry ``seq``, asking ``asked``; ``movers`` are (seq, seat) of the moves since.

        Each clocked mover gets its increment. A caller that has not caught up (``seq`` below what the clock
        followed already) changes nothing. Returns whether anything changed.
        """
        if seq < self.seq:
            return False
        asked = frozenset(asked)
        if seq == self.seq and asked == self.asked:
            return False
        self.charge(now)
        for entry, seat in movers:
            if entry <= self.seq or not self.clocked(seat):
                continue
            self.left[seat] = self.left.get(seat, self.base(seat)) + self.increment(seat)
            self.marks.append(ClockMark(entry, seat, self.left[seat]))
        for seat in asked:
            if self.clocked(seat):
                self.left.setdefault(seat, self.base(seat))
        self.seq, self.asked = seq, asked
        return True

    def stop_for(self, *, curtain: bool | None = None, dropped: bool | None = None, now: float) -> bool:
        """Stop or restart the clock for a curtain or a dropped seat; returns whether that changed anything."""
        new_curtain = self.curtain if curtain is None else curtain
        new_dropped = self.dropped if dropped is None else dropped
        if (new_curtain, new_dropped) == (self.curtain, self.dropped):
            return False
        self.charge(now)
        self.curtain, self.dropped = new_curtain, new_dropped
        return True

    def set_ask(self, seat: int, ask: ClockAsk, now: float) -> bool:
        """Take up what the seat's player asked; returns whether that changed anything.

        Double time asked before the seat's clock ever ran doubles its base; asked later, it adds one more base
        time (the player gets what double time would have given them). Asking for no clock stops it for good.
        """
        old = self.ask(seat)
        if ask == old:
            return False
        self.charge(now)
        if seat in self.left and old != "none" and ask != "none":
            difference = self.fischer.base_minutes * 60 * (factor(ask) - factor(old))
            self.left[seat] = self.left[seat] + difference
        elif ask == "none":
            self.left.pop(seat, None)
        self.asks[seat] = ask
        return True

    def take_off(self, seat: int, now: float) -> None:
        """The seat's time ran out and a bot plays it: its clock stops for good (until its player takes it back)."""
        self.charge(now)
        self.off = self.off | {seat}

    def put_back(self, seat: int, now: float) -> None:
        """The player took the seat back from the bot: their clock starts again with a fresh minute.

        A fresh minute (or the increment, if longer) is what a player would expect: enough to make the move they
        came back for, while the table keeps moving.
        """
        self.charge(now)
        self.off = self.off - {seat}
        self.left[seat] = max(60.0, self.increment(seat))

    # -- storing -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The clock as JSON-ready data (seat keys as strings)."""
        return {
            "base": self.fischer.base_minutes, "increment": self.fischer.increment_seconds,
            "left": {str(seat): round(left, 3) for seat, left in sorted(self.left.items())},
            "asks": {str(seat): ask for seat, ask in sorted(self.asks.items())},
            "asked": sorted(self.asked), "seq": self.seq, "since": self.since,
            "curtain": self.curtain, "dropped": self.dropped, "off": sorted(self.off),
            "marks": [[mark.seq, mark.seat, round(mark.left, 3)] for mark in self.marks],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: object, seats: int) -> TableClock:
        """Read a stored clock back, checking every field (the database is outside Coven's hands).

        Raises:
            ValueError: anything is missing, of the wrong kind or out of range.
        """
        if not isinstance(data, Mapping):
            raise ValueError("The clock is not an object.")

        def number(value: object, what: str) -> float:
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ValueError(f"The clock's {what} is not a number.")
            return float(value)

        def seat_of(value: object) -> int:
            index = int(value) if isinstance(value, str) and value.isdigit() else value
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < seats:
                raise ValueError("The clock names a seat the table does not have.")
            return index

        def seat_list(value: object, what: str) -> frozenset[int]:
            if not isinstance(value, list):
                raise ValueError(f"The clock's {what} is not a list.")
            return frozenset(seat_of(item) for item in value)

        base, increment = data.get("base"), data.get("increment")
        if isinstance(base, bool) or isinstance(increment, bool) or not isinstance(base, int) \
                or not isinstance(increment, int):
            raise ValueError("The clock's time control is not whole numbers.")
        left, asks, marks = data.get("left"), data.get("asks"), data.get("marks")
        if not isinstance(left, Mapping) or not isinstance(asks, Mapping) or not isinstance(marks, list):
            raise ValueError("The clock's times are not readable.")
        read_asks: dict[int, ClockAsk] = {}
        for key, ask in asks.items():
            if ask not in CLOCK_ASKS:
                raise ValueError("The clock holds an unknown request.")
            read_asks[seat_of(key)] = cast(ClockAsk, ask)
        read_marks = []
        for mark in marks:
            if not isinstance(mark, list) or len(mark) != 3 or isinstance(mark[0], bool) \
                    or not isinstance(mark[0], int) or mark[0] < 1:
                raise ValueError("The clock holds an unreadable move time.")
            read_marks.append(ClockMark(mark[0], seat_of(mark[1]), number(mark[2], "move time")))
        seq = data.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise ValueError("The clock's place in the game is not readable.")
        curtain, dropped = data.get("curtain"), data.get("dropped")
        if not isinstance(curtain, bool) or not isinstance(dropped, bool):
            raise ValueError("The clock's stops are not readable.")
        return cls(
            fischer=Fischer(base, increment),
            left={seat_of(key): number(value, "time left") for key, value in left.items()},
            asks=read_asks, asked=seat_list(data.get("asked"), "asked seats"), seq=seq,
            since=number(data.get("since"), "time"), curtain=curtain, dropped=dropped,
            off=seat_list(data.get("off"), "seats off the clock"), marks=read_marks,
        )  # fmt: skip
