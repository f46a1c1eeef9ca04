"""Every message from a page is bounded in rate: a burst, then a steady rate; the rest is dropped and logged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.web_fakes import seat_for_test
from tui.web.door import MESSAGE_BURST, MESSAGE_RATE


async def test_messages_beyond_the_burst_are_dropped_until_the_rate_allows_more(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    seat, _, _, coven, _ = seat_for_test(tmp_path, clock=lambda: now[0])
    resize = json.dumps(["resize", {"width": 90, "height": 30}])
    for _ in range(MESSAGE_BURST * 3):
        seat._received(resize)
    assert len(coven.sizes) == MESSAGE_BURST  # the burst passed; the rest at the same moment did not
    now[0] += 1.0
    for _ in range(MESSAGE_BURST):
        seat._received(resize)
    assert len(coven.sizes) == MESSAGE_BURST + int(MESSAGE_RATE)  # a second later, one second's worth more
    seat.hang_up()
    assert f"{MESSAGE_BURST * 2 + MESSAGE_BURST - int(MESSAGE_RATE)} message(s) dropped" in caplog.text


async def test_a_message_that_is_not_one_of_the_page_s_is_ignored(tmp_path: Path) -> None:
    seat, _, _, coven, _ = seat_for_test(tmp_path)
    for text in ("not json", "[]", '["resize", {"width": -5, "height": 10}]', '["resize", {"width": "9"}]',
                 '{"stdin": "x"}', '["stdin", 5]', '["resize", [1, 2]]', '["shell", "rm -rf /"]'):
        seat._received(text)
    assert coven.sizes == [] and not seat.closed
    seat._received(json.dumps(["resize", {"width": 100, "height": 40}]))
    assert coven.sizes == [(100, 40)]
    seat.hang_up()


async def test_past_the_rate_the_end_of_a_paste_still_passes_once(tmp_path: Path) -> None:
    now = [0.0]
    seat, _, _, coven, _ = seat_for_test(tmp_path, clock=lambda: now[0])
    typed: list[bytes] = []
    coven.queued_input = 0  # type: ignore[attr-defined]
    coven.write = typed.append  # type: ignore[attr-defined]
    seat._received(json.dumps(["stdin", "\x1b[200~pasted"]))  # a paste begins
    for _ in range(MESSAGE_BURST):
        seat._received(json.dumps(["stdin", " more"]))  # the rest of the burst, then the rate is spent
    seat._received(json.dumps(["stdin", " lost"]))
    assert not any(b"lost" in data for data in typed)
    seat._received(json.dumps(["stdin", " end\x1b[201~"]))  # the paste's end passes, though over the rate
    assert typed[-1].endswith(b"\x1b[201~") and not seat.gate.in_paste
    seat._received(json.dumps(["stdin", "\x1b[200~x\x1b[201~"]))  # a new paste, over the rate: dropped whole
    assert typed[-1].endswith(b" end\x1b[201~")
    seat.hang_up()
