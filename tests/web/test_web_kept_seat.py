"""The kept seat at the browser door's boundary: only a seat this door sealed for this login is handed to the Coven,
once a visit, checked for form and length; the Coven's seat lines reach the page sealed; the token is never logged."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from saves.table_tokens import new_token
from tests.helpers.web_fakes import seat_for_test
from tui.server.admission import ChildStatus
from tui.web.door import BrowserSeat
from tui.web.kept_seat import MAX_KEPT_LENGTH, SeatSeal
from tui.web.tokens import TokenSigner

CODE = "KXMP"
COOKIE = "bea's-login-cookie"


def _seal() -> SeatSeal:
    return SeatSeal(TokenSigner().derived_key("kept seat"))


def test_a_sealed_seat_opens_only_unchanged_under_the_login_it_was_sealed_for() -> None:
    seal, token = _seal(), new_token()
    kept = seal.seal(COOKIE, CODE, token)
    assert seal.open(COOKIE, kept) == (CODE, token)
    assert seal.open("cal's-login-cookie", kept) is None  # another login: refused
    assert _seal().open(COOKIE, kept) is None  # another door (or this one restarted)
    payload, _, signature = kept.partition(".")
    assert seal.open(COOKIE, payload[:-1] + ("A" if payload[-1] != "A" else "B") + "." + signature) is None
    assert seal.open(COOKIE, payload + "." + signature[::-1]) is None
    for hostile in (None, 7, ["x"], "", ".", "no dot", "é" + kept, kept + "x" * MAX_KEPT_LENGTH):
        assert seal.open(COOKIE, hostile) is None


def test_a_sealed_value_holding_no_seat_s_code_or_token_is_refused() -> None:
    seal = _seal()
    for code, token in ((CODE, "not-a-token"), ("K", new_token()), (CODE, "IIII-IIII-IIII-IIII"), (CODE, "")):
        assert seal.open(COOKIE, seal.seal(COOKIE, code, token)) is None


def _kept_seat(tmp_path: Path) -> tuple[BrowserSeat, SeatSeal, list[Any], ChildStatus]:
    """A browser seat with a seal and a status pipe, recording what it sends its page."""
    seat, page, _, _, _ = seat_for_test(tmp_path)
    sent: list[Any] = []

    async def send_str(data: str) -> None:
        sent.append(json.loads(data))

    page.send_str = send_str  # type: ignore[method-assign]
    seat.seal, seat.cookie = _seal(), COOKIE
    seat.status = ChildStatus(None, seat._child_said)
    os.set_blocking(seat.status.child_fd, False)
    return seat, seat.seal, sent, seat.status


def _told_coven(status: ChildStatus) -> str:
    """What the door said to the Coven so far (read at the Coven's end of the pipe)."""
    try:
        return os.read(status.child_fd, 4096).decode()
    except BlockingIOError:
        return ""


async def test_the_coven_s_seat_reaches_the_page_sealed_and_forget_empties_it(tmp_path: Path) -> None:
    seat, seal, sent, status = _kept_seat(tmp_path)
    token = new_token()
    status.hear(f"seat {CODE} {token}")
    status.hear("seat KXMP not-a-token")  # not a seat: nothing goes to the page
    status.hear("forget")
    await asyncio.sleep(0)
    assert len(sent) == 2
    assert sent[0][0] == "seat" and seal.open(COOKIE, sent[0][1]) == (CODE, token)
    assert sent[1] == ["seat", ""]
    seat.hang_up()


async def test_a_kept_seat_handed_back_reaches_the_coven_once_and_the_log_never_names_its_token(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "coven.serve")
    seat, seal, sent, status = _kept_seat(tmp_path)
    token = new_token()
    seat._received(json.dumps(["seat", seal.seal(COOKIE, CODE, token)]))
    assert _told_coven(status) == f"reclaim {CODE} {token}\n"
    seat._received(json.dumps(["seat", seal.seal(COOKIE, CODE, new_token())]))  # a second: not heard
    assert _told_coven(status) == ""
    await asyncio.sleep(0)
    assert sent == []
    assert f"kept seat at table {CODE}" in caplog.text
    assert token not in caplog.text and token.replace("-", "") not in caplog.text
    seat.hang_up()


async def test_a_kept_seat_from_another_login_is_refused_before_the_coven_hears_of_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    seat, seal, sent, status = _kept_seat(tmp_path)
    seat._received(json.dumps(["seat", seal.seal("cal's-login-cookie", CODE, new_token())]))
    seat._received(json.dumps(["seat", seal.seal(COOKIE, CODE, new_token())]))  # the one a visit was spent
    assert _told_coven(status) == ""
    await asyncio.sleep(0)
    assert sent == [["seat", ""]]  # the page forgets the value it cannot use
    assert "kept seat refused" in caplog.text
    seat.hang_up()


async def test_without_a_seal_nothing_is_kept_or_handed_back(tmp_path: Path) -> None:
    seat, seal, sent, status = _kept_seat(tmp_path)
    seat.seal = None  # as an SSH session, whose Coven says no seat lines
    status.hear(f"seat {CODE} {new_token()}")
    seat._received(json.dumps(["seat", seal.seal(COOKIE, CODE, new_token())]))
    await asyncio.sleep(0)
    assert sent == [] and _told_coven(status) == ""
    seat.hang_up()
