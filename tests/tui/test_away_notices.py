"""Notices outside the app: URL checks, the notice's fields, sending with retries, the rate limit, who is told.

Every notice goes to a local HTTP server the test starts (tests.helpers.notice_server, 127.0.0.1 only).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from saves import Presence, SeatPlan, SessionStore, TableInfo
from saves.preferences import begin_visit, set_preference
from saves.turn_based import take_helm
from tests.helpers.notice_server import notice_server
from tests.helpers.table_helpers import Opener, host_table
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.notify.notice import BODY_KEYS, FIELDS, SeatNotice
from tui.notify.seat_asked import URL_KEY, own_url, set_own_url, target_url, tell_seat_asked
from tui.notify.sender import MAX_NOTICES, WINDOW_SECONDS, NoticeSender, RateLimit
from tui.notify.url import ENV_URL, MAX_URL_LENGTH, NotifyUrlError, check_notify_url
from tui.player_settings import write_setting
from tui.screens.notice_url import NoticeUrlScreen
from tui.screens.settings_screen import SettingsScreen
from tui.server.config import ServeConfig, ServeUsageError, add_serve_parser, config_from_args

# -- the URL -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("url", "why"), [
    ("ftp://ntfy.example/topic", "http:// or https://"),
    ("file:///etc/passwd", "http:// or https://"),
    ("javascript:alert(1)", "http:// or https://"),
    ("ntfy.example/topic", "http:// or https://"),
    ("https://ana:secret@ntfy.example/topic", "user name or password"),
    ("https://:tk_abc@ntfy.example/topic", "user name or password"),
    ("https://ntfy.example/topic\r\nX-Evil: 1", "printable ASCII"),
    ("https://ntfy.example/\x00topic", "printable ASCII"),
    ("https://ntfy.example/\x1b]52;c;x\x07", "printable ASCII"),
    ("https://ntfy.example/my topic", "printable ASCII"),
    ("https://ntfÿ.example/topic", "printable ASCII"),
    ("https:///topic", "needs a host"),
    ("https://ntfy.example:99999/topic", "cannot be read"),
    ("https://ntfy.example/" + "x" * MAX_URL_LENGTH, f"at most {MAX_URL_LENGTH}"),
    ("   ", "empty"),
])
def test_a_hostile_notice_url_is_refused_with_a_clear_reason(url: str, why: str) -> None:
    with pytest.raises(NotifyUrlError, match=why.replace("?", r"\?").replace("+", r"\+")):
        check_notify_url(url)


def test_a_plain_notice_url_passes_without_its_surrounding_spaces() -> None:
    assert check_notify_url("  https://ntfy.example/?topic=coven-ana ") == "https://ntfy.example/?topic=coven-ana"
    longest = "http://h/" + "x" * (MAX_URL_LENGTH - len("http://h/"))
    assert check_notify_url(longest) == longest


def _serve_config(*argv: str) -> ServeConfig:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    return config_from_args(parser.parse_args(["serve", *argv]), Path("/data"))


def test_coven_serve_checks_notify_url_at_start() -> None:
    assert _serve_config("--notify-url", "http://127.0.0.1:9/hook").notify_url == "http://127.0.0.1:9/hook"
    assert _serve_config().notify_url is None
    with pytest.raises(ServeUsageError, match="--notify-url: .*user name or password"):
        _serve_config("--notify-url", "https://bo:pw@ntfy.example/t")


# -- the notice ------------------------------------------------------------------------------------


def test_a_notice_holds_the_table_game_seat_and_deadline_and_takes_ntfy_s_topic_from_the_url() -> None:
    due = datetime(2026, 12, 9, 18, 30, tzinfo=UTC)
    body = json.loads(SeatNotice("KXMP", "WitchDraft", "Bea", due).body("https://ntfy.example/?topic=coven-bea"))
    assert set(body) <= BODY_KEYS
    assert {key: body[key] for key in FIELDS} == {"table": "KXMP", "game": "WitchDraft", "seat": "Bea",
                                                  "deadline": "2026-12-09T18:30:00+00:00"}
    assert body["topic"] == "coven-bea" and "KXMP" in body["title"] and "Bea" in body["message"]
    live = json.loads(SeatNotice("KXMP", "Wizards Cup", "Bea").body("http://127.0.0.1/hook"))
    assert live["deadline"] is None and "topic" not in live


# -- sending -------------------------------------------------------------------------------------


def test_a_notice_that_fails_first_is_sent_again_after_a_growing_wait() -> None:
    waits: list[float] = []
    with notice_server(fail_first=2, fail_status=503) as (url, received):
        sender = NoticeSender(backoff=0.01, sleep=waits.append)  # the wait is only counted, not waited
        assert sender.send(url + "/hook", SeatNotice("KXMP", "Wizards Cup", "Bea"))
        [body] = received.wait_for(1)
        assert sender.wait_idle(30)
    assert received.failed == 2 and sender.sent == 1 and body["seat"] == "Bea"
    assert waits == [0.01, 0.02]  # doubled after each failure


def test_a_notice_is_given_up_after_a_bounded_number_of_tries_and_a_refusal_is_not_tried_again() -> None:
    with notice_server(fail_first=100, fail_status=503) as (url, received):
        sender = NoticeSender(tries=3, backoff=0.0)
        sender.send(url, SeatNotice("KXMP", "Wizards Cup", "Bea"))
        assert sender.wait_idle(30)
        assert received.failed == 3 and sender.failed == 1 and sender.sent == 0
    with notice_server(fail_first=100, fail_status=404) as (url, received):
        sender = NoticeSender(tries=3, backoff=0.0)
        sender.send(url, SeatNotice("KXMP", "Wizards Cup", "Bea"))
        assert sender.wait_idle(30)
        assert received.failed == 1 and sender.failed == 1  # a wrong URL stays wrong


def test_sending_never_waits_and_a_full_queue_drops_the_newest_notice() -> None:
    release = threading.Event()
    with notice_server(fail_first=100) as (url, _received):
        # The worker is held in its backoff wait, so nothing leaves the queue meanwhile.
        sender = NoticeSender(tries=2, backoff=1.0, queue_size=2, sleep=lambda _seconds: release.wait(60))
        notice = SeatNotice("KXMP", "Wizards Cup", "Bea")
        results = [sender.send(url, notice) for _ in range(6)]
        release.set()
        assert sender.wait_idle(30)
    assert results[:2] == [True, True] and not all(results) and sender.dropped == results.count(False)


def test_the_rate_limit_lets_a_few_notices_an_hour_through_to_one_player() -> None:
    now = [0.0]
    limit = RateLimit(clock=lambda: now[0])
    assert all(limit.allow("bea") for _ in range(MAX_NOTICES))
    assert not limit.allow("bea")  # the limit, hit
    assert limit.allow("ana")  # another player has their own
    now[0] += WINDOW_SECONDS
    assert limit.allow("bea")


# -- who is told, and where ----------------------------------------------------------------------------


def _bea_away(open_tables: Opener, account: str | None = "bea") -> tuple[SessionStore, Presence, TableInfo]:
    """A started two-seat table whose seat 2 (Bea, signed in as ``account``) has dropped."""
    host, bea = open_tables(), open_tables()
    bea.account = account
    code, _ = host_table(host)
    bea.take_seat(code, 1, "Bea")
    host.start(code)
    bea.presence.close()  # her Coven is gone
    return host.store, host.presence, host.find(code)


def test_a_player_who_is_not_connected_is_told_once_per_asking_within_the_limit(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    store, presence, info = _bea_away(open_tables)
    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url + "/hook")
        sender, limit = NoticeSender(), RateLimit()
        told = [tell_seat_asked(store, presence, info, 1, "Count to ten", sender=sender, limit=limit)
                for _ in range(MAX_NOTICES + 2)]
        assert told == [True] * MAX_NOTICES + [False, False]  # the limit, hit
        bodies = received.wait_for(MAX_NOTICES)
        assert sender.wait_idle(30) and len(received.bodies()) == MAX_NOTICES
    assert all(set(body) <= BODY_KEYS and body["seat"] == "Bea" and body["table"] == info.code
               for body in bodies)
    # The host's own seat is connected (this process holds it): no notice.
    assert not tell_seat_asked(store, presence, info, 0, "Count to ten", sender=sender, limit=RateLimit())


def test_an_away_host_is_told_while_another_player_s_coven_drives_their_turn_based_table(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a turn-based table the Coven that drives it (holds the host's role) may be a guest's: the host's own
    seat is then played by nobody connected, and its player is told."""
    hal, bea = open_tables(), open_tables()
    hal.account, bea.account = "hal", "bea"
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = hal.host("wizards-cup", {}, 5, plan, host_name="Hal", pace_days=3, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")  # full: the game starts
    hal.release_mine(left=True)  # Hal goes; Bea's Coven now drives the table
    assert take_helm(bea, code)
    info = bea.find(code)
    assert info.host_claim == bea.claim and info.seats[0].claim is None
    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        sender = NoticeSender()
        assert tell_seat_asked(bea.store, bea.presence, info, 0, "Wizards Cup", sender=sender, limit=RateLimit())
        assert not tell_seat_asked(bea.store, bea.presence, info, 1, "Wizards Cup", sender=sender,
                                   limit=RateLimit())  # Bea is here
        [body] = received.wait_for(1)
        assert sender.wait_idle(30)
    assert body["seat"] == "Hal" and body["table"] == code


def test_a_player_s_own_url_wins_and_turning_notices_off_stops_them(
        open_tables: Opener, monkeypatch: pytest.MonkeyPatch) -> None:
    store, presence, info = _bea_away(open_tables)
    monkeypatch.setenv(ENV_URL, "http://127.0.0.1:9/server")
    assert target_url(store, "bea") == "http://127.0.0.1:9/server"
    assert set_own_url(store, "bea", " http://127.0.0.1:9/bea ") == "http://127.0.0.1:9/bea"
    assert own_url(store, "bea") == "http://127.0.0.1:9/bea" and target_url(store, "bea") == own_url(store, "bea")
    with pytest.raises(NotifyUrlError):
        set_own_url(store, "bea", "gopher://127.0.0.1/")
    assert own_url(store, "bea") == "http://127.0.0.1:9/bea"  # a refused URL changes nothing
    set_preference(store, "bea", URL_KEY, "file:///etc/passwd")  # written behind Coven's back
    assert target_url(store, "bea") == "http://127.0.0.1:9/server"  # read back, checked again, ignored
    write_setting(store, "bea", "away_notices", False)
    assert target_url(store, "bea") is None
    assert not tell_seat_asked(store, presence, info, 1, "Count to ten", sender=NoticeSender(), limit=RateLimit())
    assert set_own_url(store, "bea", "") is None  # a blank line forgets it
    visit = begin_visit()
    assert own_url(store, visit) is None  # a visit has no URL of its own: anyone could have typed it


# -- Settings: a signed-in player's own URL -----------------------------------------------------------


async def test_a_signed_in_player_sets_their_notice_url_in_settings_and_a_hostile_one_is_refused_in_words(
        store: SessionStore) -> None:


    app = CovenApp(store=store, serve_port=2222, account="ana", signed_in=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the Settings screen")
        assert "Notice URL" in str(app.screen.active_bindings.get("u").binding.description)  # type: ignore[union-attr]
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, NoticeUrlScreen), "the notice URL box")
        box = app.screen.query_one(Input)
        box.value = "https://ana:hunter2@ntfy.example/?topic=ana"
        await pilot.press("enter")
        problem = app.screen.query_one("#notice-url-problem", Static)
        await until(pilot, lambda: "user name or password" in str(problem.render()), "the reason it was refused")
        assert isinstance(app.screen, NoticeUrlScreen) and own_url(store, "ana") is None  # nothing kept
        box.value = "https://ntfy.example/?topic=coven-ana"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "back on Settings")
        await until(pilot, lambda: own_url(store, "ana") == "https://ntfy.example/?topic=coven-ana", "the URL kept")


async def _no_url_key(app: CovenApp) -> None:
    """Settings has no ``u`` for ``app``'s player, and pressing it opens nothing."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the Settings screen")
        assert "u" not in app.screen.active_bindings
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "still Settings")


async def test_a_visit_and_the_player_at_this_machine_have_no_notice_url_key(store: SessionStore) -> None:
    await _no_url_key(CovenApp(store=store, serve_port=2222, account="ana", signed_in=False))  # anyone may be "ana"
    assert own_url(store, "ana") is None
    await _no_url_key(CovenApp(store=SessionStore()))  # this machine's player: no notices reach a local table


def test_a_coven_leaving_never_waits_for_a_notice_that_hangs() -> None:
    # A listener that never answers: the notice's connection waits for its whole (long) timeout.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        program = ("import sys; from tui.notify.notice import SeatNotice; from tui.notify.sender import NoticeSender;"
                   "s = NoticeSender(timeout=600); s.send(sys.argv[1], SeatNotice('KXMP', 'Wizards Cup', 'Bea'));"
                   "print('queued', flush=True)")
        done = subprocess.run([sys.executable, "-c", program, f"http://127.0.0.1:{silent.getsockname()[1]}/"],
                              capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and done.stdout.strip() == "queued", done.stderr
