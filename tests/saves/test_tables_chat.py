"""Table talk in the store: cleaned lines with names, every limit, spectators, and damaged rows."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from saves import LiveSession, SeatPlan, db_path
from saves.checkup import examine
from saves.table_chat import MAX_LINE_LENGTH, RATE_LINES, RATE_SECONDS, session_chat
from saves.tables import ChatError, ChatThrottledError, TableError
from tests.helpers.table_helpers import Opener, host_table, started


def test_a_line_is_kept_with_its_speaker_and_its_place_in_the_log(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table = host.table_of_session(session_id)
    assert table is not None
    first = bea.say(table.table_id, "  hello   there ")
    assert (first.name, first.text, first.seat, first.after_seq) == ("Bea", "hello there", 1, 0)
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    live.apply(0, live.rules.legal_actions(live.state, 0)[0])
    second = host.say(table.table_id, "Good game")
    assert (second.name, second.seat, second.after_seq) == ("Ana", 0, 1)
    assert [(line.name, line.text) for line in bea.chat_since(table.table_id)] == [
        ("Bea", "hello there"), ("Ana", "Good game")]
    assert [line.text for line in bea.chat_since(table.table_id, first.line_id)] == ["Good game"]
    assert [line.after_seq for line in session_chat(host.store, session_id)] == [0, 1]


def test_hostile_text_is_cleaned_and_markup_is_kept_as_typed(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    said = bea.say(table_id, "\x1b[31mred\x1b]0;title\x07 \u202eevil\u200b \ud800[bold red]x[/]")
    assert said.text == "[31mred]0;title evil [bold red]x[/]"
    assert "\x1b" not in said.text and "\u202e" not in said.text and "\u200b" not in said.text
    with pytest.raises(ChatError, match="empty"):
        bea.say(table_id, "\x1b\x07\u200b\u202e  ")


def test_a_line_of_200_characters_is_said_and_one_more_is_refused(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    assert len(bea.say(table_id, "x" * MAX_LINE_LENGTH).text) == MAX_LINE_LENGTH == 200
    with pytest.raises(ChatError, match="at most 200 characters; this one has 201"):
        bea.say(table_id, "y" * (MAX_LINE_LENGTH + 1))


def test_a_letter_with_its_accents_counts_as_one_character(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    accented = "e\u0301" * MAX_LINE_LENGTH  # 200 letters é, each typed as e and a combining accent
    said = bea.say(table_id, accented)
    assert said.text == accented
    assert [line.text for line in host.chat_since(table_id)] == [accented]  # read back: not a damaged row
    with pytest.raises(ChatError, match="at most 200 characters; this one has 201"):
        bea.say(table_id, accented + "e\u0301")
    with pytest.raises(ChatError, match="too many accents"):  # a letter buried under marks is no word
        bea.say(table_id, "e" + "\u0301" * (4 * MAX_LINE_LENGTH))


def test_each_player_is_held_to_five_lines_every_ten_seconds(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    bea.clock = lambda: now
    for number in range(RATE_LINES):
        bea.say(table_id, f"line {number}")
    with pytest.raises(ChatThrottledError, match="Slow down: at most 5 lines every 10 seconds") as refused:
        bea.say(table_id, "one too many")
    assert refused.value.wait == 10
    host.say(table_id, "the host still may")  # the limit is per player
    bea.clock = lambda: now + timedelta(seconds=RATE_SECONDS - 3)
    with pytest.raises(ChatThrottledError, match="again in 3 seconds"):
        bea.say(table_id, "still too soon")
    bea.clock = lambda: now + timedelta(seconds=RATE_SECONDS)
    assert bea.say(table_id, "and now again").text == "and now again"
    assert sum(line.name == "Bea" for line in host.chat_since(table_id)) == RATE_LINES + 1


def test_spectators_are_listed_may_talk_unless_the_host_says_no_and_leave_the_list(open_tables: Opener) -> None:
    host, cy, stranger = open_tables(), open_tables(), open_tables()
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
    info = host.host("count-to-ten", {}, 7, plan, host_name="Ana", allow_spectators=True).info
    watched = cy.watch(info.code, "Cy")
    assert [watcher.name for watcher in watched.watchers] == ["Cy"] and watched.spectator_chat
    line = cy.say(info.table_id, "hi from the stands")
    assert (line.name, line.seat, line.spectator) == ("Cy", None, True)
    with pytest.raises(ChatError, match="Only the players and spectators"):
        stranger.say(info.table_id, "let me in")
    with pytest.raises(TableError, match="Only the host"):
        cy.set_spectator_chat(info.code, False)
    assert not host.set_spectator_chat(info.code, False).spectator_chat
    with pytest.raises(ChatError, match="Ana, the host, has turned spectators' chat off"):
        cy.say(info.table_id, "hello?")
    host.set_spectator_chat(info.code, True)
    cy.say(info.table_id, "thanks")
    cy.release_mine()
    assert host.refresh(info.code).watchers == ()


def test_a_table_without_spectators_lists_none(open_tables: Opener) -> None:
    host, cy = open_tables(), open_tables()
    code, _ = host_table(host)
    with pytest.raises(TableError, match="allows no spectators"):
        cy.watch(code, "Cy")


def test_a_watcher_whose_connection_is_gone_leaves_the_list(open_tables: Opener) -> None:
    host, cy = open_tables(), open_tables()
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
    info = host.host("count-to-ten", {}, 7, plan, host_name="Ana", allow_spectators=True).info
    cy.watch(info.code, "Cy")
    cy.presence.close()  # the process ended: its lock is gone
    assert host.refresh(info.code).watchers == ()


def test_damaged_chat_rows_read_as_nothing_and_the_doctor_lists_them(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    bea.say(table_id, "a real line")
    conn = sqlite3.connect(db_path())
    rows = [
        (table_id, session_id, 0, 1, bea.claim, "Bea", "\x1b[2Jwiped", "2026-12-01T12:00:00+00:00"),
        (table_id, session_id, 0, 1, bea.claim, "Bea", "z" * 500, "2026-12-01T12:00:00+00:00"),
        (table_id, session_id, "many", 1, bea.claim, "Bea", "what", "2026-12-01T12:00:00+00:00"),
        (table_id, session_id, 0, -4, bea.claim, "\u202eaeB", "hi", "2026-12-01T12:00:00+00:00"),
        (table_id, session_id, 0, None, bea.claim, b"\xff\xfe", "bytes", "2026-12-01T12:00:00+00:00"),
        (table_id, session_id, 0, 1, bea.claim, "Bea", None, "2026-12-01T12:00:00+00:00"),
    ]
    with conn:
        for row in rows:
            # Written as a damaged or hostile file would hold them, around the schema's NOT NULL where it can.
            conn.execute("INSERT INTO table_chat (table_id, session_id, after_seq, seat, claim, name, line, said)"
                         " VALUES (?, ?, ?, ?, ?, ?, coalesce(?, x'00'), ?)", row)
    conn.close()
    assert [line.text for line in bea.chat_since(table_id)] == ["a real line"]
    assert [line.text for line in session_chat(bea.store, session_id)] == ["a real line"]
    bea.say(table_id, "still talking")  # damaged rows never block a speaker
    checkup = examine(db_path())
    assert any("6 table chat lines are damaged" in problem for problem in checkup.problems), checkup.problems


def test_talk_goes_with_its_session_and_a_healthy_database_stays_healthy(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    table_id = host.table_of_session(session_id).table_id  # type: ignore[union-attr]
    bea.say(table_id, "see you")
    checkup = examine(db_path())
    assert checkup.healthy, checkup.problems
    lives = [LiveSession.load(host.store, session_id, claim=host.claim),
             LiveSession.load(bea.store, session_id, claim=bea.claim)]
    while lives[0].result is None:  # finish the game, each seat from its own connection
        if not lives[0].to_act:
            lives[0].play_table()  # the host's connection plays the table's steps
            lives[1].sync()
            continue
        seat = lives[0].to_act[0]
        lives[seat].apply(seat, lives[seat].rules.legal_actions(lives[seat].state, seat)[-1])
        lives[1 - seat].sync()
    assert bea.say(table_id, "Good game").text == "Good game"  # a finished table still hears its players
    host.store.delete(session_id)
    assert session_chat(host.store, session_id) == [] and host.chat_since(table_id) == []
    assert examine(db_path()).healthy
