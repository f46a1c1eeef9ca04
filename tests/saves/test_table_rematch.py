"""Rematch at a shared table, in the store: every seat agrees, the same table and code play again."""

from __future__ import annotations

import sqlite3

import pytest

from saves import LiveSession, TableStore
from saves.series import series_of, series_score
from saves.table_records import TableError
from saves.table_rematch import ask_rematch, leave_finished, parse_offer, rematch_offer, settle_rematch
from tests.helpers.table_helpers import Opener, started


def play_out(host: TableStore, bea: TableStore, session_id: int) -> None:
    """Play the table's game to its end, each seat from the process that holds it."""
    lives = [LiveSession.load(host.store, session_id, claim=host.claim),
             LiveSession.load(bea.store, session_id, claim=bea.claim)]
    while True:
        for live in lives:
            live.sync()
        hosts = lives[0]
        if hosts.finished:
            return
        if not hosts.to_act:
            hosts.play_table()
            continue
        seat = hosts.to_act[0]
        lives[seat].apply(seat, lives[seat].rules.legal_actions(lives[seat].state, seat)[0])


def test_both_seats_agree_and_the_same_table_plays_again(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    code = host.table_of_session(first).code  # type: ignore[union-attr]
    with pytest.raises(TableError, match="finished"):
        ask_rematch(bea, first)
    play_out(host, bea, first)
    assert not host.is_live(code)
    offer = ask_rematch(bea, first)
    assert offer.by == 1 and offer.yes == {1} and offer.end is None
    assert rematch_offer(host, first) == offer
    assert offer.words(["Ana", "Bea"]) == "Bea wants to play again. Waiting for Ana…"
    done = ask_rematch(host, first)
    assert done.end == "started" and done.session is not None
    info = host.find(code)  # the same code is live again
    assert info.session_id == done.session and info.status == "playing"
    assert info.seats_of(bea.claim) == [1] and info.host_claim == host.claim
    assert rematch_offer(bea, first) == done  # what the others' screens read to follow
    assert series_of(host.store, done.session) == first
    record = host.store.load(done.session)
    assert record.seed != host.store.load(first).seed and record.log == ()
    assert [seat.name for seat in record.seats] == ["Ana", "Bea"]
    play_out(host, bea, done.session)
    score = series_score(host.store, done.session)
    assert score is not None and score.games == 2 and sum(score.wins) == 2


def test_a_refusal_ends_the_offer_in_words(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    play_out(host, bea, first)
    ask_rematch(host, first)
    refused = ask_rematch(bea, first, agree=False)
    assert refused.end == "refused" and refused.words(["Ana", "Bea"]) == "Bea does not want to play again."
    assert rematch_offer(host, first) == refused
    again = ask_rematch(bea, first)  # a new offer may follow
    assert again.end is None and again.by == 1


def test_a_seat_that_left_ends_the_offer(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    play_out(host, bea, first)
    ask_rematch(host, first)
    leave_finished(bea, first)
    seat = host.table_of_session(first).seats[1]  # type: ignore[union-attr]
    assert seat.claim is None and seat.left  # the chat pane reads "Bea (left just now)", not dropped
    ended = settle_rematch(host, first)
    assert ended is not None and ended.end == "left" and ended.who == 1
    assert ended.words(["Ana", "Bea"]) == "Bea left the table, so there is no rematch."
    with pytest.raises(TableError, match="seated"):
        ask_rematch(bea, first)


def test_settling_an_unchanged_offer_writes_nothing(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    play_out(host, bea, first)
    ask_rematch(host, first)
    before = host.store.data_version()
    for _ in range(3):
        assert settle_rematch(bea, first) == rematch_offer(host, first)
    assert host.store.data_version() == before  # nobody else committed: the polls stay quiet


def test_the_host_leaving_ends_the_offer(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    play_out(host, bea, first)
    ask_rematch(bea, first)
    leave_finished(host, first)
    ended = settle_rematch(bea, first)
    assert ended is not None and ended.end == "left"


def test_a_code_taken_meanwhile_ends_the_offer(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    code = host.table_of_session(first).code  # type: ignore[union-attr]
    play_out(host, bea, first)
    ask_rematch(host, first)
    with sqlite3.connect(host.store.path) as conn:  # another table took the freed code
        conn.execute("INSERT INTO tables (code, game_id, options, seed, status, host_name, host_token_hash,"
                     " created, updated) VALUES (?, 'count-to-ten', '{}', 1, 'lobby', 'Cy', 'x', '', '')", (code,))
    ended = ask_rematch(bea, first)
    assert ended.end == "code" and ended.session is None
    assert host.store.list_sessions()[0].session_id == first  # no session was left behind


@pytest.mark.parametrize("text", [
    None, "", "[", "[]", "{}", '{"for": 1, "by": 5, "yes": []}', '{"for": 1, "by": 0, "yes": [9]}',
    '{"for": "1", "by": 0, "yes": []}', '{"for": 1, "by": 0, "yes": [], "end": "boom"}',
    '{"for": 1, "by": 0, "yes": [], "who": -1}', '{"for": 1, "by": 0, "yes": [], "session": "2"}',
    '{"for": 1, "by": true, "yes": []}', "x" * 2000,
])
def test_a_damaged_offer_reads_as_none(text: str | None) -> None:
    assert parse_offer(text, 2) is None


def test_a_damaged_offer_on_the_row_is_no_offer_and_a_new_one_replaces_it(open_tables: Opener) -> None:
    host, bea, first = started(open_tables)
    play_out(host, bea, first)
    with sqlite3.connect(host.store.path) as conn:
        conn.execute("UPDATE tables SET rematch = '{\"for\": 1, \"by\": 7}'")
    assert rematch_offer(host, first) is None
    assert ask_rematch(bea, first).yes == {1}
