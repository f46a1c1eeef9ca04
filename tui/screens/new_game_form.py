"""What the new-game form decides, apart from its widgets: each seat's starting kind and name, and
whether what was filled in makes a game (:func:`validate`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import GameSpec
from engine.core import InvalidOptionsError
from engine.core.text import steady_width, text_problem
from saves import SeatInfo
from saves.records import MAX_NAME_LENGTH
from tui.login_name import login_name

BOT_NAMES: tuple[str, ...] = ("Merlin", "Morgana", "Circe", "Medea", "Cassandra", "Prospero")
"""Default names for bot seats."""

MAX_SEED = 2**63 - 1
"""Largest seed the store can keep."""

HUMAN = "human"
"""Select value of a human seat; bots are ``"bot:<level>"``."""


@dataclass(frozen=True)
class NewGameChoices:
    """A validated new-game form."""

    game_id: str
    seats: tuple[SeatInfo, ...]
    seed: int
    options: dict[str, Any]


def default_kind(spec: GameSpec, index: int, preferred: str = "normal") -> str:
    """Seat 1 is a human; the others are a bot of the ``preferred`` level (the middle one if the game lacks it)."""
    levels = spec.bot_levels
    if index == 0 or not levels:
        return HUMAN
    level = preferred if preferred in levels else levels[len(levels) // 2]
    return f"bot:{level}"


def default_name(index: int, kind: str | None = None, taken: Sequence[str] = ()) -> str:
    """The name a seat starts with.

    A human in seat 1 gets the login name, other humans "Player <n>"; a bot
    gets a wizard's name not in ``taken``. Without ``kind``, seat 1 is taken
    to be human and the others bots (the form's starting line-up). Not "You":
    event sentences are in the third person ("Ana reveals ...").
    """
    if kind is None:
        kind = HUMAN if index == 0 else "bot:"
    if not kind.startswith("bot:"):
        if index:
            return f"Player {index + 1}"
        return login_name()
    used = {name.strip().casefold() for name in taken}
    start = max(index - 1, 0)
    for offset in range(len(BOT_NAMES)):
        name = BOT_NAMES[(start + offset) % len(BOT_NAMES)]
        if name.casefold() not in used:
            return name
    return f"Bot {index + 1}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the form, and the id of the field to fix."""

    field: str
    message: str


def validate(
    spec: GameSpec, rows: list[tuple[str, str]], seed_text: str, options: dict[str, Any]
) -> tuple[NewGameChoices | None, list[Problem]]:
    """Check the form; return the choices or the problems found, in form order.

    Args:
        spec: The chosen game.
        rows: (name, kind) per seat; kind is ``"human"`` or ``"bot:<level>"``.
        seed_text: The seed input; blank picks a random seed.
        options: Option values by name.
    """
    problems: list[Problem] = []
    if len(rows) not in spec.seat_counts:
        problems.append(Problem("seat-count", f"{spec.title} needs {', '.join(map(str, spec.seat_counts))} seats."))
    seen: dict[str, int] = {}
    seat_infos: list[SeatInfo] = []
    for index, (raw_name, kind) in enumerate(rows, start=1):
        # A selector that terminals draw at different widths goes, so the name lines up on every screen.
        name, field = steady_width(raw_name.strip()), f"seat-name-{index - 1}"
        if not name:
            problems.append(Problem(field, f"Seat {index} needs a name."))
            continue
        if len(name) > MAX_NAME_LENGTH:
            problems.append(Problem(field, f"Seat {index}'s name has {len(name)} characters; the most is "
                                           f"{MAX_NAME_LENGTH}. Shorten it as you like."))
            continue
        unsafe = text_problem(name)  # the one rule for names (engine.core.text), before SeatInfo refuses it
        if unsafe is not None:
            problems.append(Problem(field, f"Seat {index}'s name must not contain {unsafe}."))
            continue
        if name.casefold() in seen:
            problems.append(Problem(field, f"Seats {seen[name.casefold()]} and {index} are both called {name!r}; "
                                           "names must differ (capitals don't count), or nobody knows whose turn "
                                           "it is."))
            continue
        seen[name.casefold()] = index
        if kind.startswith("bot:"):
            seat_infos.append(SeatInfo(name, "bot", kind[4:]))
        else:
            seat_infos.append(SeatInfo(name))
    seed_text = seed_text.strip()
    seed = random.SystemRandom().randrange(2**31)
    if seed_text:
        try:
            seed = int(seed_text)
        except ValueError:
            problems.append(Problem("seed", f"The seed must be a whole number (or blank for a random one), "
                                            f"not {seed_text!r}."))
        else:
            if not 0 <= seed <= MAX_SEED:
                problems.append(Problem("seed", "The seed must be between 0 and 9223372036854775807."))
    try:
        resolved = spec.resolve_options(options)
    except InvalidOptionsError as error:
        field = f"option-{spec.options[0].name}" if spec.options else "game-select"
        problems.append(Problem(field, str(error)))
        resolved = {}
    if problems:
        return None, problems
    return NewGameChoices(spec.game_id, tuple(seat_infos), seed, resolved), []
