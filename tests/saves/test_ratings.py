"""Ratings for people: OpenSkill against its published examples, which table games are rated, the leaving rule."""

from __future__ import annotations

import multiprocessing
from datetime import timedelta

import pytest

from saves import RECLAIM_WINDOW_SECONDS, SeatPlan, SessionStore
from saves.rating_rule import START_MU, Skill, game_ranks, rate
from saves.ratings import rate_finished, ratings, was_rated
from tests.helpers.rated_tables import play_out, rated_table
from tests.helpers.rating_race import rate_with_rivals
from tests.helpers.table_helpers import PLAN, Opener


def test_two_teams_move_as_the_librarys_readme_shows() -> None:
    # OpenSkill's README: a1 (new) and a2 beat b1 and b2.
    (x1, x2), (y1, y2) = rate([[Skill(), Skill(32.444, 5.123)], [Skill(43.381, 2.421), Skill(25.188, 6.211)]], [1, 2])
    published = [(28.669648436582808, 8.071520788025197), (33.83086971107981, 5.062772998705765),
                 (43.071274808241974, 2.4166900452721256), (23.149503312339064, 6.1378606973362135)]
    for skill, (mu, sigma) in zip((x1, x2, y1, y2), published, strict=True):
        assert skill.mu == pytest.approx(mu, rel=1e-3) and skill.sigma == pytest.approx(sigma, rel=1e-3)


def test_three_teams_with_a_tie_move_as_the_librarys_published_data_shows() -> None:
    # The library's own PlackettLuce test data ("ties"): teams of 1, 2 and 3 new players, ranks 1, 2, 1.
    start = Skill(31.321989232514305, 11.379964801443018)
    first, second, third = rate([[start], [start] * 2, [start] * 3], [1, 2, 1])
    assert [(s.mu, s.sigma) for s in first] == pytest.approx([(33.21874815457553, 11.354896725884002)], rel=1e-4)
    assert [(s.mu, s.sigma) for s in second] == pytest.approx([(30.27713112192334, 11.291328826858104)] * 2, rel=1e-4)
    assert [(s.mu, s.sigma) for s in third] == pytest.approx([(30.470088421044046, 11.249240904583088)] * 3, rel=1e-4)


def test_ranks_follow_the_result_and_a_leaver_ranks_last() -> None:
    assert game_ranks(3, winners={1}, lost=()) == [2, 1, 2]
    assert game_ranks(4, winners={0, 2}, lost=()) == [1, 2, 1, 2]  # winners tie
    assert game_ranks(3, winners=(), lost=()) == [1, 1, 1]  # a draw
    assert game_ranks(3, winners={1}, lost={1}) == [1, 2, 1]  # a bot won the leaver's seat: still last
    assert game_ranks(5, winners={0}, lost={3, 4}) == [1, 2, 2, 3, 3]


def test_a_rated_game_between_signed_in_players_moves_both_ratings_once(open_tables: Opener) -> None:
    host, bea, _, session_id = rated_table(open_tables)
    assert rate_finished(host.store, session_id) is None  # not over yet
    assert play_out(host, session_id, winner=1, bea=bea) == (1,)
    rated = rate_finished(bea.store, session_id)
    assert rated is not None and rated.ranks == {"ana": 2, "bea": 1}
    assert rate_finished(host.store, session_id) is None and was_rated(host.store, session_id)  # once only
    listed = ratings(host.store, "count-to-ten")
    assert [(r.account, r.games) for r in listed.ratings] == [("bea", 1), ("ana", 1)] and listed.damaged == 0
    assert listed.ratings[0].skill.mu > START_MU > listed.ratings[1].skill.mu
    assert ratings(host.store, "wizards-cup").ratings == []  # ratings are per game


@pytest.mark.parametrize(
    ("accounts", "rated"),
    [
        (("ana", "bea"), False),  # the host did not mark the table rated
        (("ana", None), True),  # Bea is a visit (or a player at her own machine)
        ((None, "bea"), True),  # so is the host
        (("ana", "ana"), True),  # one account in both seats
    ],
    ids=["unrated-table", "visit-seat", "visit-host", "same-account"],
)
def test_only_games_between_signed_in_people_at_rated_tables_are_rated(
    open_tables: Opener, accounts: tuple[str | None, str | None], rated: bool
) -> None:
    host, bea, _, session_id = rated_table(open_tables, accounts, rated=rated)
    play_out(host, session_id, winner=0, bea=bea)
    assert rate_finished(host.store, session_id) is None and not was_rated(host.store, session_id)
    assert ratings(host.store).ratings == []


def test_a_game_against_a_bot_is_not_rated(open_tables: Opener) -> None:
    host = open_tables()
    host.account = "ana"
    code = host.host("count-to-ten", {}, 7, [SeatPlan("local", "Ana"), SeatPlan("bot", "Robo", "easy")],
                     host_name="Ana", rated=True).info.code
    session_id = host.start(code)
    play_out(host, session_id, winner=0)
    assert rate_finished(host.store, session_id) is None and ratings(host.store).ratings == []


def test_a_player_whose_seat_went_to_a_bot_loses_even_when_the_bot_wins(open_tables: Opener) -> None:
    host, bea, code, session_id = rated_table(open_tables)
    bea.presence.close()  # Bea's connection is gone and she does not come back
    host.refresh(code)
    later = host.clock() + timedelta(seconds=RECLAIM_WINDOW_SECONDS + 1)
    host.clock = lambda: later
    host.hand_to_bot(code, 1, "easy")
    assert play_out(host, session_id, winner=1) == (1,)  # the bot in Bea's seat won the game
    rated = rate_finished(host.store, session_id)
    assert rated is not None and rated.ranks == {"ana": 1, "bea": 2}
    assert rated.after["ana"].mu > START_MU > rated.after["bea"].mu


def test_leaving_after_the_last_move_is_no_forfeit(open_tables: Opener) -> None:
    host, bea, _, session_id = rated_table(open_tables)
    assert play_out(host, session_id, winner=1, bea=bea) == (1,)
    # Going home after the last move is no forfeit: Bea keeps her win.
    bea.release_mine(left=True)
    rated = rate_finished(host.store, session_id)
    assert rated is not None and rated.ranks == {"ana": 2, "bea": 1}


def test_leaving_by_choice_before_the_last_move_forfeits(open_tables: Opener, store: SessionStore) -> None:
    host, bea, _, session_id = rated_table(open_tables)
    assert play_out(host, session_id, winner=1, bea=bea) == (1,)
    # As if Bea had chosen to leave before the host's last move: her seat was free and marked left then.
    with store._write() as conn:
        conn.execute("UPDATE table_seats SET claim = NULL, chose_to_leave = 1, dropped_at = ? WHERE seat = 1",
                     ("2001-01-01T00:00:00+00:00",))
    rated = rate_finished(host.store, session_id)
    assert rated is not None and rated.ranks == {"ana": 1, "bea": 2}


RACERS = 6


def test_processes_rating_the_same_end_together_change_the_ratings_once(open_tables: Opener) -> None:
    host, bea, _, session_id = rated_table(open_tables)
    assert play_out(host, session_id, winner=1, bea=bea) == (1,)
    context = multiprocessing.get_context("spawn")  # no fork of the test process and its threads
    barrier = context.Barrier(RACERS)
    racers = [context.Process(target=rate_with_rivals, args=(barrier, str(host.store.path), session_id))
              for _ in range(RACERS)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(600)
    assert sorted(racer.exitcode for racer in racers) == [0] + [3] * (RACERS - 1)  # one rated it, none failed
    listed = ratings(host.store, "count-to-ten").ratings
    (bea_after,), (ana,) = rate([[Skill()], [Skill()]], [1, 2])  # Bea's one win over Ana, counted once
    assert [(r.account, r.games) for r in listed] == [("bea", 1), ("ana", 1)]
    assert [r.skill for r in listed] == [bea_after, ana]



@pytest.mark.parametrize(("comer", "rated_as"), [("cy", "cy"), (None, None)], ids=["signed-in", "unsigned"])
def test_a_seat_taken_back_with_its_token_counts_for_whoever_took_it_back(
    open_tables: Opener, comer: str | None, rated_as: str | None
) -> None:
    host = open_tables()
    host.account = "ana"
    code = host.host("count-to-ten", {}, 7, PLAN, host_name="Ana", rated=True).info.code
    bea = open_tables()
    bea.account = "bea"
    token = bea.take_seat(code, 1, "Bea")
    session_id = host.start(code)
    bea.presence.close()  # Bea's connection drops; whoever has her token comes back in her place
    back = open_tables()
    back.account = comer
    assert back.reclaim(code, token) == [1]
    assert play_out(host, session_id, winner=1, bea=back) == (1,)
    rated = rate_finished(host.store, session_id)
    if rated_as is None:
        assert rated is None  # nobody proved who played seat 2 at the end
    else:
        assert rated is not None and rated.ranks == {"ana": 2, rated_as: 1}


def test_a_damaged_rating_starts_afresh_when_its_player_is_rated_again(open_tables: Opener, store: SessionStore) -> None:
    with store._write() as conn:
        conn.execute("INSERT INTO ratings (account, game_id, mu, sigma, games, updated)"
                     " VALUES ('bea', 'count-to-ten', 'lots', -1, 7, 'then')")
    assert ratings(store).damaged == 1
    host, bea, _, session_id = rated_table(open_tables)
    assert play_out(host, session_id, winner=1, bea=bea) == (1,)
    rated = rate_finished(host.store, session_id)
    assert rated is not None and rated.before["bea"] == Skill()
    listed = ratings(store, "count-to-ten")
    assert [(r.account, r.games) for r in listed.ratings] == [("bea", 1), ("ana", 1)] and listed.damaged == 0
