"""Rematch (same game, options and seats; a new seed; the next seat starts) and running series scores."""

from __future__ import annotations

import random
import sqlite3

import pytest

from engine import get_game
from saves import LiveSession, SeatInfo, SessionStore
from saves.rematch import plan_rematch, start_rematch
from saves.series import series_of, series_score
from tests.helpers.rematch_series import finish

ANA_BO = (SeatInfo("Ana"), SeatInfo("Bo"))


@pytest.mark.parametrize("game_id", ["wizards-cup", "witchdraft", "wizbits"])
def test_a_rematch_keeps_game_options_and_seats_with_a_new_seed(store: SessionStore, game_id: str) -> None:
    options = get_game(game_id).resolve_options(None)
    live = finish(LiveSession.create(store, game_id, options, 5, ANA_BO))
    again = start_rematch(live, rng=random.Random(3))
    assert (again.spec.game_id, again.options, again.seats) == (game_id, live.options, live.seats)
    assert again.seed != live.seed and not again.finished and again.log == ()
    if game_id == "wizards-cup":  # teams are the game's own: the rematch starts with none
        assert all(player.team for player in live.state.players)
        assert not any(player.team for player in again.state.players)
    assert series_of(store, again.session_id) == live.session_id
    third = start_rematch(finish(again, 1), rng=random.Random(4))
    assert series_of(store, third.session_id) == live.session_id  # the series is the first game's, not a chain


def test_wizbits_hands_the_first_turn_to_the_next_seat_every_rematch(store: SessionStore) -> None:
    spec = get_game("wizbits")
    live = LiveSession.create(store, "wizbits", None, 11, ANA_BO)
    firsts = [spec.rules.first_seat(live.state)]
    for round_number in range(5):
        plan = plan_rematch(live, random.Random(round_number))
        assert plan.first == (firsts[-1] + 1) % 2
        live = LiveSession.create(store, "wizbits", plan.options, plan.seed, plan.seats)
        firsts.append(spec.rules.first_seat(live.state))
    assert firsts in ([0, 1, 0, 1, 0, 1], [1, 0, 1, 0, 1, 0])


@pytest.mark.parametrize("game_id", ["wizards-cup", "witchdraft"])
def test_games_where_every_seat_starts_together_have_no_first_seat(store: SessionStore, game_id: str) -> None:
    live = LiveSession.create(store, game_id, None, 2, ANA_BO)
    assert live.rules.first_seat(live.state) is None
    assert set(live.to_act) == {0, 1}  # both choose at once: there is no first player to rotate
    assert plan_rematch(live, random.Random(1)).first is None


def test_wizbits_decks_stay_with_their_seats(store: SessionStore) -> None:
    spec = get_game("wizbits")
    decks = [choice for choice in spec.options if choice.name == "deck_1"][0].choices
    options = {"deck_1": decks[0], "deck_2": decks[-1]}
    live = LiveSession.create(store, "wizbits", options, 3, ANA_BO)
    plan = plan_rematch(live, random.Random(9))
    assert (plan.options["deck_1"], plan.options["deck_2"]) == (decks[0], decks[-1])
    again = LiveSession.create(store, "wizbits", plan.options, plan.seed, plan.seats)
    assert [player.deck_name for player in again.state.players] == [p.deck_name for p in live.state.players]


def test_a_rematch_of_an_unfinished_game_is_refused(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 1, ANA_BO)
    with pytest.raises(ValueError, match="once it is over"):
        start_rematch(live)


def test_the_series_counts_wins_and_draws_by_name(store: SessionStore) -> None:
    live = finish(LiveSession.create(store, "wizards-cup", None, 1, ANA_BO))
    ids = [live.session_id]
    for seed in range(2, 6):
        live = finish(start_rematch(live, rng=random.Random(seed)), seed)
        ids.append(live.session_id)
    score = series_score(store, ids[-1])
    assert score is not None and score.games == 5 and score.names == ("Ana", "Bo")
    won = [store.load(i).result or "" for i in ids]
    assert score.wins == (sum(r.startswith("Ana won") for r in won), sum(r.startswith("Bo won") for r in won))
    assert score.draws == sum(r.startswith("Draw") for r in won)
    assert sum(score.wins) + score.draws == 5
    # Running: each game's score counts the games up to it.
    assert [s.games for s in map(lambda i: series_score(store, i), ids) if s is not None] == [1, 2, 3, 4, 5]


def test_the_series_text() -> None:
    from saves.series import SeriesScore

    assert SeriesScore(("Ana", "Bo"), (2, 1), 0, 3).text == "Ana 2 – 1 Bo"
    assert SeriesScore(("Ana", "Bo"), (2, 1), 1, 4).text == "Ana 2 – 1 Bo, 1 draw"
    assert SeriesScore(("Ana", "Bo", "Cy"), (1, 0, 2), 2, 5).text == "Ana 1 · Bo 0 · Cy 2, 2 draws"


def _linked(store: SessionStore, root: int | None, seats: tuple[SeatInfo, ...], winners: str | None,
            game_id: str = "wizards-cup", status: str = "finished") -> int:
    session_id = store.create_session(game_id, get_game(game_id).resolve_options(None), 1, seats,
                                      status="finished" if status == "finished" else "active", series=root)
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE sessions SET winners = ?, status = ? WHERE id = ?", (winners, status, session_id))
    return session_id


def test_seats_in_another_order_still_count_by_name(store: SessionStore) -> None:
    root = _linked(store, None, ANA_BO, "[0]")
    swapped = _linked(store, root, (SeatInfo("Bo"), SeatInfo("Ana")), "[0]")  # Bo, in seat 1, won
    score = series_score(store, swapped)
    assert score is not None and score.names == ("Bo", "Ana") and score.wins == (1, 1)


def test_hostile_and_damaged_rows_are_left_out_never_fatal(store: SessionStore) -> None:
    root = _linked(store, None, ANA_BO, "[1]")
    for winners in ("[0", "[7]", "[0, 0]", '["0"]', "{}", "[true]", "9" * 300, "[-1]", "null"):
        _linked(store, root, ANA_BO, winners)
    _linked(store, root, (SeatInfo("Ana"), SeatInfo("Cy")), "[0]")  # other seats
    _linked(store, root, (SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")), "[0]")  # Bo's seat played by a bot
    _linked(store, root, ANA_BO, "[0]", game_id="witchdraft")  # another game
    _linked(store, root, ANA_BO, "[0]", status="active")  # not over
    blob, escape, unlinked, gap = (_linked(store, root, ANA_BO, "[0]") for _ in range(4))
    last = _linked(store, root, ANA_BO, "[]")  # a draw
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE sessions SET winners = X'80ff' WHERE id = ?", (blob,))  # not text at all
        conn.execute("UPDATE seats SET name = 'x' || char(27) || '[2J' WHERE session_id = ? AND seat = 1",
                     (escape,))
        conn.execute("UPDATE sessions SET series = 'abc' WHERE id = ?", (unlinked,))
        conn.execute("DELETE FROM seats WHERE session_id = ? AND seat = 0", (gap,))
    score = series_score(store, last)
    assert score is not None and (score.wins, score.draws, score.games) == ((0, 1), 1, 2)
    # A series pointing forward, or at nothing, is the session's own.
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE sessions SET series = ? WHERE id = ?", (last + 50, last))
    assert series_of(store, last) == last
    lone = series_score(store, last)
    assert lone is not None and lone.games == 1
    assert series_score(store, 9999) is None


def test_a_session_whose_seats_repeat_a_name_has_no_series(store: SessionStore) -> None:
    twins = _linked(store, None, (SeatInfo("Ana"), SeatInfo("Ana")), "[0]")
    assert series_score(store, twins) is None


def test_winners_are_stored_with_the_move_that_ends_the_game(store: SessionStore) -> None:
    live = finish(LiveSession.create(store, "witchdraft", None, 4, ANA_BO))
    with sqlite3.connect(store.path) as conn:
        stored = conn.execute("SELECT winners FROM sessions WHERE id = ?", (live.session_id,)).fetchone()[0]
    result = live.result
    assert result is not None and stored == str(sorted(result.winners)).replace(" ", "")


def test_an_unreadable_database_gives_no_score(store: SessionStore) -> None:
    live = finish(LiveSession.create(store, "wizards-cup", None, 1, ANA_BO))
    store.close()
    assert series_score(store, live.session_id) is None
    assert series_of(store, live.session_id) == live.session_id
