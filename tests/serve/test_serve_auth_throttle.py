"""The password throttle: a guesser slows the account it guesses, and its own address, not its neighbours.

First the throttle alone on a fake clock, then a connection that leaves, then a real ``coven serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path

import asyncssh

from tests.helpers.ssh_client import ServeProcess, open_connection, wait_until
from tui.server.accounts import add_user
from tui.server.config import ServeConfig
from tui.server.limits import AuthThrottle
from tui.server.server import CovenConnection, ServerState

NEIGHBOUR, GUESSER, ELSEWHERE = "192.0.2.1", "192.0.2.2", "198.51.100.7"


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _throttle(clock: _Clock, limit: int = 4096) -> AuthThrottle:
    return AuthThrottle(first_delay=0.5, max_delay=4.0, address_cap=1.0, forget_after=600.0, limit=limit,
                        clock=clock)


def _fail(throttle: AuthThrottle, address: str, account: str) -> None:
    throttle.begin_check(account)
    throttle.end_check(address, account, False)


def test_an_accounts_delay_doubles_from_its_last_failure_and_one_check_runs_at_a_time() -> None:
    clock = _Clock()
    throttle = _throttle(clock)
    assert throttle.account_wait("ana") == 0.0 and throttle.address_wait(GUESSER, "ana") == 0.0
    waits = []
    for _ in range(6):
        _fail(throttle, GUESSER, "ana")
        waits.append(throttle.account_wait("ana"))
        clock.now += waits[-1]
    assert waits == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    _fail(throttle, GUESSER, "ana")
    clock.now += 1.0
    assert throttle.account_wait("ana") == 3.0  # measured from the last failure
    clock.now += 3.0
    throttle.begin_check("ana")
    assert throttle.account_wait("ana") == AuthThrottle.BUSY_POLL  # the next check waits for this one
    throttle.end_check(GUESSER, "ana", False)
    assert throttle.account_wait("ana") == 4.0
    clock.now += 4.0
    throttle.begin_check("ana")
    throttle.end_check(NEIGHBOUR, "ana", True)
    assert throttle.account_wait("ana") == 0.0 and throttle.account_failures("ana") == 0
    assert throttle.address_failures(GUESSER) == 8  # a success says nothing of the address's other guesses


def test_guesses_at_one_account_barely_slow_another_account_from_the_same_address() -> None:
    clock = _Clock()
    throttle = _throttle(clock)
    for _ in range(30):
        _fail(throttle, GUESSER, "ana")
    assert throttle.account_wait("bea") == 0.0
    assert throttle.address_wait(GUESSER, "bea") == 1.0  # capped: bea has no failures
    assert throttle.address_wait(GUESSER, "ana") == 4.0
    assert throttle.address_wait(ELSEWHERE, "ana") == 0.0 and throttle.account_wait("ana") == 4.0
    clock.now += 1.0
    assert throttle.address_wait(GUESSER, "bea") == 0.0
    _fail(throttle, NEIGHBOUR, "bea")  # one typo of bea's own: the address's full delay applies to bea now
    assert throttle.address_wait(GUESSER, "bea") == 3.0


def test_guesses_at_one_account_from_many_addresses_slow_that_account() -> None:
    clock = _Clock()
    throttle = _throttle(clock)
    addresses = [f"203.0.113.{number}" for number in range(1, 21)]
    for address in addresses:
        _fail(throttle, address, "ana")
    assert throttle.account_wait("ana") == 4.0 and throttle.account_failures("ana") == 20
    assert throttle.address_wait(ELSEWHERE, "ana") == 0.0  # a new address still waits for ana's delay
    assert all(throttle.address_failures(address) == 1 for address in addresses)
    assert throttle.address_wait(addresses[0], "bea") == 0.5 and throttle.account_wait("bea") == 0.0


def test_a_wait_nobody_uses_costs_nothing() -> None:
    clock = _Clock()
    throttle = _throttle(clock)
    _fail(throttle, GUESSER, "ana")
    for _ in range(100):  # connections that ask at once, then hang up before their check
        assert throttle.address_wait(GUESSER, "ana") == 0.5 and throttle.account_wait("ana") == 0.5
    clock.now += 0.5
    assert throttle.address_wait(GUESSER, "ana") == 0.0 and throttle.account_wait("ana") == 0.0
    throttle.begin_check("ana")
    throttle.end_check(GUESSER, "ana", None)  # no outcome (a broken password file): nothing counted
    assert throttle.account_wait("ana") == 0.0 and throttle.account_failures("ana") == 1


def test_the_throttle_holds_a_bounded_number_of_keys_and_forgets_quiet_ones() -> None:
    clock = _Clock()
    throttle = _throttle(clock, limit=16)
    for number in range(1000):  # a flood of new names from new addresses between guesses at ana
        _fail(throttle, f"10.0.{number // 256}.{number % 256}", f"name{number}")
        _fail(throttle, GUESSER, "ana")
        clock.now += 0.1
    assert throttle.remembered() == (16, 16)
    assert throttle.account_failures("ana") == 1000 and throttle.address_failures(GUESSER) == 1000
    assert throttle.account_failures("name0") == 0 and throttle.account_failures("name999") == 1
    _fail(throttle, GUESSER, "a" * 100_000)  # 0.1 s after ana's last failure
    clock.now += 599.85
    assert throttle.account_failures("ana") == 1000  # forgotten after ten quiet minutes, not before
    clock.now += 0.1
    assert throttle.remembered() == (1, 1) and throttle.account_failures("a" * 100_000) == 1
    clock.now += 0.1
    assert throttle.remembered() == (0, 0) and throttle.account_wait("ana") == 0.0


class _FakeConnection:
    def get_extra_info(self, name: str) -> object:
        return ("127.0.0.1", 40000) if name == "peername" else None

    def disconnect(self, code: int, reason: str) -> None:
        pass


def test_a_connection_that_leaves_while_waiting_costs_nothing_and_one_that_leaves_mid_check_counts(
        tmp_path: Path) -> None:
    passwords = tmp_path / "passwords"
    add_user(passwords, "ana", io.StringIO("ana's secret phrase\n"))

    async def attempt(state: ServerState) -> tuple[CovenConnection, asyncio.Task[bool]]:
        connection = CovenConnection(state)
        connection.connection_made(_FakeConnection())  # type: ignore[arg-type]
        assert connection.begin_auth("ana") is True
        return connection, asyncio.create_task(connection.validate_password("ana", "a wrong guess"))

    async def leave(connection: CovenConnection, task: asyncio.Task[bool]) -> None:
        task.cancel()  # what asyncssh does when the client hangs up
        await asyncio.gather(task, return_exceptions=True)
        assert task.cancelled()
        connection.connection_lost(None)

    async def scenario() -> None:
        state = ServerState(ServeConfig(auth="password", password_file=passwords), tmp_path)
        throttle = state.throttle
        _fail(throttle, "127.0.0.1", "ana")
        for _ in range(20):
            connection, task = await attempt(state)
            await asyncio.sleep(0)  # it starts waiting
            await leave(connection, task)
        assert throttle.account_failures("ana") == 1 and 0.0 < throttle.account_wait("ana") <= 0.5

        state = ServerState(ServeConfig(auth="password", password_file=passwords), tmp_path)
        throttle = state.throttle
        connection, task = await attempt(state)
        for _ in range(6000):  # up to a minute on a busy machine; it takes one loop turn
            if throttle.account_wait("ana") == AuthThrottle.BUSY_POLL:
                break
            await asyncio.sleep(0.01)
        assert throttle.account_wait("ana") == AuthThrottle.BUSY_POLL, "the check did not start"
        await leave(connection, task)
        for _ in range(6000):  # the check runs on without the connection, and is counted
            if throttle.account_failures("ana"):
                break
            await asyncio.sleep(0.01)
        assert throttle.account_failures("ana") == 1 and throttle.account_wait("ana") != AuthThrottle.BUSY_POLL

    asyncio.run(scenario())

GUESSERS = 4
"""Connections guessing at once, each as many times as the server lets it."""
LEAVERS = 2
"""Connections that send a wrong password and hang up before it is checked, over and over."""


class _Guesses:
    """What all the guessing connections have heard back, shared between them."""

    def __init__(self) -> None:
        self.refused = 0


class _Guesser(asyncssh.SSHClient):
    """Sends a new wrong password for every prompt; each prompt after the first answers a refusal."""

    def __init__(self, guesses: _Guesses) -> None:
        self.guesses = guesses
        self.tries = 0

    def password_auth_requested(self) -> str | None:
        if self.tries:
            self.guesses.refused += 1
        self.tries += 1
        return f"wrong guess {self.tries}"


async def _guess(port: int, guesses: _Guesses, login_timeout: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(asyncssh.Error, OSError, asyncio.TimeoutError):
            conn = await open_connection(port, "ana", client_factory=lambda: _Guesser(guesses),
                                         login_timeout=login_timeout)
            conn.close()  # never: every guess is wrong
            raise AssertionError("a wrong password got in")


def test_a_guesser_on_one_account_does_not_keep_another_account_from_the_same_address_out(
        coven_data_dir: Path) -> None:
    coven_data_dir.mkdir(parents=True)
    coven_data_dir.chmod(0o700)
    passwords = coven_data_dir / "passwords"
    add_user(passwords, "ana", io.StringIO("ana's secret phrase\n"))
    add_user(passwords, "bea", io.StringIO("bea's secret phrase\n"))
    # A short grace, so a login held back behind the guesses would be closed instead of let in.
    with ServeProcess.start(coven_data_dir, "--auth", "password", "--login-grace", "10s",
                            "--rate-burst", "1000") as server:
        async def scenario() -> None:
            guesses, stop = _Guesses(), asyncio.Event()
            workers = [asyncio.create_task(_guess(server.port, guesses, 60, stop)) for _ in range(GUESSERS)]
            workers += [asyncio.create_task(_guess(server.port, guesses, 0.3, stop)) for _ in range(LEAVERS)]
            try:
                for _ in range(600):  # up to a minute on a busy machine; it takes a few seconds
                    if guesses.refused >= 3:
                        break
                    await asyncio.sleep(0.1)
                assert guesses.refused >= 3, "the guesses were not answered"
                for _ in range(3):  # the report: the right password failed three times in a row
                    # Less than the login grace, or the server would have closed it first.
                    conn = await open_connection(server.port, "bea", password="bea's secret phrase",
                                                 login_timeout=10)
                    conn.close()
                    await conn.wait_closed()
                assert all(not worker.done() for worker in workers), "a guesser stopped early"
            finally:
                stop.set()
                for worker in workers:
                    worker.cancel()
                await asyncio.gather(*workers, return_exceptions=True)

        asyncio.run(scenario())
        wait_until(lambda: server.log.count("user=bea auth ok method=password account=bea") == 3,
                   "bea's three logins in the log", 30)
        # A guesser's failures are logged when the server sees its connection go, which may come after bea's.
        wait_until(lambda: "failed password attempt(s)" in server.log, "the guessers' failures in the log", 30)
        log = server.log
    assert "user=bea refused" not in log
    assert "user=ana auth ok" not in log
