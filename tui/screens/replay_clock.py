"""A replayed table game's clock: each seat's time as it stood after the step shown, as a line and in words.

The times are those the table stored after each move (:meth:`engine.core.clock.TableClock.after`): a seat's time
left after its latest move so far, its increment added, or its starting time before it moved.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.clock import TableClock, clock_text, time_words


def _asked(clock: TableClock, seat: int, words: bool) -> str:
    """What the seat's player asked, when they asked anything."""
    ask = clock.ask(seat)
    if ask == "double":
        return " (double time, asked)" if words else " (double, asked)"
    return ""


def replay_clock_line(clock: TableClock, step: int, names: Sequence[str]) -> str:
    """E.g. "Clock 5+10 after step 3 · Ana 4:32 · Bea: no clock (asked)"."""
    times = clock.after(step, len(names))
    parts = [f"Clock {clock.fischer.label} after step {step}"]
    for seat, name in enumerate(names):
        if seat in times:
            parts.append(f"{name} {clock_text(times[seat])}{_asked(clock, seat, False)}")
        elif clock.ask(seat) == "none":
            parts.append(f"{name}: no clock (asked)")
    return " · ".join(parts)


def replay_clock_words(clock: TableClock, step: int, names: Sequence[str]) -> str:
    """The clock question's answer in a replay: the time control, then each seat's time after the step shown."""
    times = clock.after(step, len(names))
    said = [f"The clock was {clock.fischer.words}. After step {step}"]
    seats = []
    for seat, name in enumerate(names):
        if seat in times:
            seats.append(f"{name} had {time_words(times[seat])}{_asked(clock, seat, True)}")
        elif clock.ask(seat) == "none":
            seats.append(f"{name} played without a clock (asked)")
    return f"{said[0]}, " + "; ".join(seats) + "."
