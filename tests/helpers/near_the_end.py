"""Starting a game for the screens near its end: the seat-memory and late-loop tests play only its last part."""

from __future__ import annotations

from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import play_until


def near_the_end(live: LiveSession) -> None:
    """Move a new session on through the engine to where the screen need play only its end.

    A copy of the game played by the easy bots (``play_until``) shows where it ends; ``live`` is played the
    same way up to Wizards Cup's last round (its lineup, so the coach is still asked) or to Wizbits' last
    few moves. The screens from there on (the table, the coach, a round's result, the game's result) are
    the ones a whole game shows too.
    """
    with SessionStore() as scratch:
        copy = LiveSession.create(scratch, live.spec.game_id, live.options, live.seed, live.seats)
        rounds: list[int] = []
        while copy.result is None:
            rounds.append(copy.state.round if copy.spec.game_id == "wizards-cup" else 0)
            play_until(copy, 1)
    steps = rounds.index(rounds[-1]) if live.spec.game_id == "wizards-cup" else max(0, len(rounds) - 8)
    play_until(live, steps)
    assert live.result is None and len(live.log) == steps
