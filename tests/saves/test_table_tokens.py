"""Seat tokens: at least 64 bits, typed in friendly groups, compared in constant time, and not guessable.

One connection (one Coven process, one TableStore here) may try
MAX_RECLAIM_TRIES wrong tokens; then it may not reclaim at all, even with
the right token, while another connection still may.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import re
import time
from collections.abc import Callable

import pytest
from textual.widgets import Input, Static

from saves.table_tokens import (
    OLD_TOKEN_LENGTH,
    TOKEN_ALPHABET,
    TOKEN_LENGTH,
    hash_token,
    new_token,
    normalise_token,
)
from saves.tables import MAX_RECLAIM_TRIES, BadTokenError, ReclaimLimitError, TableStore
from tests.helpers.table_helpers import Opener, host_table
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.join_table import JoinTableScreen
from tui.widgets.confirm import PromptScreen

LOOK_ALIKES = "IL O01"


def test_a_token_holds_at_least_64_random_bits_in_four_groups() -> None:
    assert not set(LOOK_ALIKES) & set(TOKEN_ALPHABET)
    assert len(set(TOKEN_ALPHABET)) == len(TOKEN_ALPHABET)
    assert TOKEN_LENGTH * math.log2(len(TOKEN_ALPHABET)) >= 64
    shape = re.compile(f"[{TOKEN_ALPHABET}]{{4}}(?:-[{TOKEN_ALPHABET}]{{4}}){{3}}")
    tokens = [new_token() for _ in range(300)]
    for token in tokens:
        assert shape.fullmatch(token), token
    assert len(set(tokens)) == len(tokens)
    # Every character of the alphabet turns up in every position: nothing is fixed or skewed away.
    for position in range(len(tokens[0])):
        if tokens[0][position] != "-":
            assert len({token[position] for token in tokens}) > len(TOKEN_ALPHABET) // 2


def test_typed_tokens_are_read_whatever_the_case_dashes_and_spaces() -> None:
    token = new_token()
    bare = token.replace("-", "")
    for typed in (token, token.lower(), bare, bare.lower(), f"  {token}  ", token.replace("-", " "),
                  f"\t{bare[:8]} {bare[8:]}\n"):
        assert normalise_token(typed) == token, typed
        assert hash_token(typed) == hash_token(token), typed
    old = "KX7P-M3QD"  # what an older Coven showed: still a token
    assert normalise_token("kx7pm3qd") == old and OLD_TOKEN_LENGTH == 8


@pytest.mark.parametrize("typed", ["", "   ", "KX7P", "KX7P-M3QD-9RTW", "KX7P-M3QD-9RTW-H4NBX",
                                   "KX7P-M3QD-9RTW-H4N0", "KX7P-M3QD-9RTW-H4NI", "KX7P-M3QD-9RTW-H4N\x1b",
                                   "KX7P-M3QD-9RTW-H4NÉ", "A" * 100_000])
def test_anything_else_is_not_a_token(typed: str) -> None:
    assert normalise_token(typed) is None


def test_an_older_tables_short_tokens_still_reclaim(open_tables: Opener) -> None:
    host = open_tables()
    code, _ = host_table(host)
    old_token = "KX7P-M3QD"  # what an older Coven showed its player, typed here in another style
    old_hash = hashlib.sha256(old_token.replace("-", "").encode()).hexdigest()  # how it stored it
    with host.store._write() as conn:
        conn.execute("UPDATE table_seats SET name = 'Bea', token_hash = ?, dropped_at = '2026-01-01T00:00:00+00:00'"
                     " WHERE seat = 1", (old_hash,))
    assert open_tables().reclaim(code, " kx7p m3qd ") == [1]
    assert host.find(code).seats[1].name == "Bea"


def test_token_hashes_are_compared_in_constant_time(open_tables: Opener,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    host, bea = open_tables(), open_tables()
    code, host_token = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    bea.release_mine()
    compared: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(first: str, second: str) -> bool:
        compared.append((first, second))
        return real(first, second)

    monkeypatch.setattr("saves.table_tokens.hmac.compare_digest", spy)
    assert open_tables().reclaim(code, token) == [1]
    # The typed token's hash met every stored hash (the host's and the seat's), whichever matched.
    assert {second for _, second in compared} == {hash_token(host_token), hash_token(token)}
    assert {first for first, _ in compared} == {hash_token(token)}


def test_one_connection_may_try_only_so_many_wrong_tokens(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    bea.release_mine()
    guesser = open_tables()
    with pytest.raises(BadTokenError, match="^A seat token looks like"):
        guesser.reclaim(code, "not a token")  # a typo is refused without using a try
    for tries in range(MAX_RECLAIM_TRIES):
        assert guesser.reclaim_tries_left == MAX_RECLAIM_TRIES - tries
        with pytest.raises(BadTokenError, match=f"{MAX_RECLAIM_TRIES - tries - 1} tr(y|ies) left"):
            guesser.reclaim(code, new_token())
    assert guesser.reclaim_tries_left == 0
    with pytest.raises(ReclaimLimitError, match=f"^{MAX_RECLAIM_TRIES} wrong seat tokens were tried"):
        guesser.reclaim(code, token)  # even the right one: this connection may no longer try
    assert host.find(code).seats[1].claim is None
    assert open_tables().reclaim(code, token) == [1]  # Bea, connecting afresh, gets her seat


def test_the_join_screen_refuses_reclaims_after_too_many_wrong_tokens(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    bea.release_mine()

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            async def wait_for(ready: Callable[[], bool], what: str) -> None:
                deadline = time.monotonic() + 60  # generous: a busy machine is slow, a hung test still ends
                while not ready():
                    if time.monotonic() > deadline:
                        raise AssertionError(f"timed out waiting for {what}")
                    await pilot.pause(0.05)

            def error_says(text: str) -> Callable[[], bool]:
                return lambda: text in str(app.screen.query_one("#join-error", Static).render())

            await wait_for(lambda: isinstance(app.screen, JoinTableScreen)
                           and "Reclaim" in app.export_screenshot(), "the join choices")
            join = app.screen
            assert isinstance(join, JoinTableScreen)
            for tries in range(MAX_RECLAIM_TRIES):
                await pilot.press("enter")  # the only choice: reclaim
                await wait_for(lambda: isinstance(app.screen, PromptScreen), "the token prompt")
                app.screen.query_one(Input).value = new_token().lower()
                await pilot.press("enter")
                left = MAX_RECLAIM_TRIES - tries - 1
                await wait_for(error_says(f"({left} {'try' if left == 1 else 'tries'} left from this connection)"),
                               f"{left} tries left")
                assert app.screen is join
            await pilot.press("enter")
            await wait_for(error_says(f"{MAX_RECLAIM_TRIES} wrong seat tokens were tried from this connection"),
                           "the refusal")
            await until(pilot, lambda: app.screen is join, 'app.screen is join')
            tables = app.tables.store()
            assert isinstance(tables, TableStore)
            with pytest.raises(ReclaimLimitError):
                tables.reclaim(code, token)

    asyncio.run(scenario())
    assert host.find(code).seats[1].claim is None
