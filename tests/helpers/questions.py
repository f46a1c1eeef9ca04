"""The ask key's questions without a screen: a bots' game played through the engine, narrated for one seat.

:class:`Seat` stands in for the game screen the narrator reads (its
``NarratedScreen`` protocol): the seats "here" and the one revealed. The
game is driven by the easy bots, and every move's log lines reach the
narrator as the screen would send them (read from the screen's viewer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Event
from engine.core import seeded_rng
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import GAMES
from tui.games import game_ui
from tui.games.base import GameUI
from tui.games.narration import Question
from tui.screens.game.narrator import Narrator
from tui.verbosity import DEFAULT, Verbosity


@dataclass
class Seat:
    """What the narrator reads of a game screen, for a game played by bots with ``here`` the seats "at this terminal"."""

    live: LiveSession
    here: list[int] = field(default_factory=lambda: [0])
    revealed_seat: int | None = None
    drives_table: bool = True
    status_text: str = ""

    @property
    def ui(self) -> GameUI[Any]:
        """The game's narration hooks."""
        return game_ui(self.live.spec.game_id)

    @property
    def human_seats(self) -> list[int]:
        """The seats played here."""
        return self.here

    @property
    def viewer_seat(self) -> int | None:
        """The only seat here, else a spectator (as on the game screen)."""
        return self.here[0] if len(self.here) == 1 else None

    def plays_here(self, seat: int) -> bool:
        """Whether ``seat`` is played here."""
        return seat in self.here

    def clock_words(self) -> str | None:
        """The clock in words: none, as in a game at one terminal (a table's clock has its own tests)."""
        return None


def one_move(live: LiveSession) -> list[Event]:
    """One move of the first seat asked (by its easy bot), or the table's step; its events."""
    if not live.to_act:
        return live.play_table()
    seat = live.to_act[0]
    bot = live.spec.bots["easy"]
    action = bot(live.rules.view(live.state, seat), live.rules.legal_actions(live.state, seat),
                 seeded_rng(live.seed, "bot", seat, len(live.log)))
    return live.apply(seat, action)


def narrated_until(store: SessionStore, game_id: str, wanted: Callable[[Any], bool], here: Sequence[int] = (0,),
                   seed: int = 5, level: Verbosity = DEFAULT) -> tuple[LiveSession, Seat, Narrator]:
    """A bots' game of ``game_id`` played until seat 0's view satisfies ``wanted``, each move told to the narrator
    (which speaks at verbosity ``level``)."""
    live = LiveSession.create(store, game_id, GAMES[game_id], seed,
                              [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    screen = Seat(live, list(here))
    narrator = Narrator(screen)
    narrator.level = level
    narrator.ready = True
    for _ in range(5000):
        if wanted(live.rules.view(live.state, 0)):
            return live, screen, narrator
        assert live.result is None, "the game ended before the moment the test wants"
        narrator.events(screen.ui.log_lines(one_move(live), screen.viewer_seat))
    raise AssertionError("never reached")


def answer(live: LiveSession, seat: int | None, question: Question) -> str:
    """The game's own answer to ``question`` from ``seat``'s view (it must have one)."""
    text = game_ui(live.spec.game_id).answer(live.rules.view(live.state, seat), seat, question,
                                              [info.name for info in live.seats])
    assert text, f"{live.spec.game_id} has no answer to {question}"
    return text
