"""The pure parts of ``coven serve``: durations, flags, user names, the rate limiter."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tui.server.accounts import (
    add_user,
    check_password,
    hash_password,
    read_password_file,
    signed_in_as,
    verify_password,
)
from tui.server.config import (
    ServeConfig,
    ServeUsageError,
    add_serve_parser,
    config_from_args,
    parse_duration,
    parse_output_budget,
)
from tui.server.limits import RateLimiter, SessionCounter
from tui.server.players import Login, parse_login
from tui.server.server import ServerState, printable


@pytest.mark.parametrize(("text", "seconds"), [("90", 90.0), ("90s", 90.0), ("30m", 1800.0), ("1h", 3600.0),
                                                ("1.5m", 90.0), (" 2S ", 2.0)])
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "m", "30 minutes", "-5s", "0", "1d", "1h30m"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ServeUsageError, match="--idle-timeout"):
        parse_duration(text)


@pytest.mark.parametrize(("text", "size"), [("65536", 65536), ("256k", 262144), (" 1M ", 1048576), ("16k", 16384),
                                           ("1 MB", 1048576), ("1.5m", 1572864), ("2MiB", 2097152)])
def test_sizes(text: str, size: int) -> None:
    assert parse_output_budget(text) == size


@pytest.mark.parametrize(("text", "message"), [("", "takes a size"), ("lots", "takes a size"), ("-1m", "takes a size"),
                                               ("1P", "takes a size"), ("15k", "at least 16k"), ("0", "at least")])
def test_bad_sizes(text: str, message: str) -> None:
    with pytest.raises(ServeUsageError, match=f"--output-budget.*{message}"):
        parse_output_budget(text)


def test_the_output_budget_and_stall_timeout_are_flags() -> None:
    assert (_config().output_budget, _config().stall_timeout) == (1024 * 1024, 60.0)
    assert _config("--output-budget", "256k", "--stall-timeout", "2m") == \
        ServeConfig(output_budget=262144, stall_timeout=120.0)
    with pytest.raises(ServeUsageError, match="--stall-timeout"):
        _config("--stall-timeout", "soon")
    serve_help = add_serve_parser(argparse.ArgumentParser().add_subparsers()).format_help()
    assert "--output-budget SIZE" in serve_help and "--stall-timeout TIME" in serve_help


def _config(*argv: str) -> ServeConfig:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    return config_from_args(parser.parse_args(["serve", *argv]), Path("/data"))


def test_defaults_are_safe() -> None:
    config = _config()
    assert config == _config("--host", "127.0.0.1", "--port", "2222", "--auth", "none", "--max-sessions", "32",
                             "--idle-timeout", "30m")
    assert not _config().all_interfaces
    assert _config("--host", "0.0.0.0").all_interfaces
    assert _config("--auth", "password").password_file == Path("/data/passwords")
    assert (config.login_grace, config.max_auth_tries) == (30.0, 6)
    assert _config("--login-grace", "2m", "--max-auth-tries", "3") == \
        ServeConfig(login_grace=120.0, max_auth_tries=3)


@pytest.mark.parametrize(("username", "accounts", "login"), [
    ("ana", False, Login("ana", "ana", None)),
    ("kxwa", False, Login("kxwa", "Kxwa", "KXWA")),  # a code, or a name: the app knows which
    ("ana+kxwa", False, Login("ana", "ana", "KXWA")),
    ("ana+kxwa", True, Login("ana", "ana", "KXWA")),
    ("kxwa", True, Login("kxwa", "kxwa", None)),        # with accounts a bare name is always an account
    ("bill", False, Login("bill", "bill", None)),       # I and L are not in the join alphabet
    ("ana+xyz", True, Login("ana+xyz", "Player", None)),  # not a code: no such account either
    ("\x1b[2J", False, Login("[2J", "Player", None)),   # cleaned, and not a name the app would show
    ("ana\u115f", False, Login("ana", "ana", None)),     # zero-width characters go
    ("--help", False, Login("--help", "--help", None)),  # a name, whatever it looks like
    ("\u200b", False, Login("player", "player", None)),  # nothing left: a neutral name
    ("+abcd", True, Login("player", "player", "ABCD")),
    ("Ana+kxwa", True, Login("ana", "Ana", "KXWA")),   # accounts, like codes, do not depend on case
    ("ANA", True, Login("ana", "ANA", None)),           # the player keeps the name as typed
])
def test_user_names(username: str, accounts: bool, login: Login) -> None:
    assert parse_login(username, accounts) == login


def test_token_bucket_refills_one_attempt_per_period() -> None:
    now = [0.0]
    limiter = RateLimiter(burst=3, refill_seconds=3.0, clock=lambda: now[0])
    assert [limiter.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("10.0.0.2")  # every address has its own bucket
    now[0] = 2.9
    assert not limiter.allow("10.0.0.1")
    now[0] = 3.0
    assert limiter.allow("10.0.0.1") and not limiter.allow("10.0.0.1")
    now[0] = 100.0
    assert [limiter.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]  # never above the burst


def test_session_counter() -> None:
    counter = SessionCounter(2)
    assert counter.try_admit() and counter.try_admit() and not counter.try_admit()
    counter.release()
    assert counter.try_admit()


@pytest.mark.parametrize("typed", ["\u017fam", "SAM\u200b\u0307", "\u212aate", "ba\u00df"])
def test_only_ascii_case_is_folded_in_account_names(typed: str) -> None:
    accounts = {name: hash_password("open sesame") for name in ("sam", "kate", "bass")}
    login = parse_login(typed, True)
    assert signed_in_as(accounts, login.account, "open sesame") is None  # no look-alike opens an account


def test_password_hashes_are_salted_and_checked() -> None:
    first, second = hash_password("open sesame"), hash_password("open sesame")
    assert first != second
    assert verify_password("open sesame", first) and not verify_password("open sesamE", first)
    assert not verify_password("open sesame", "scrypt$garbage")
    assert check_password({"ana": first}, "ana", "open sesame")
    assert not check_password({"ana": first}, "bea", "open sesame")


def test_account_names_do_not_depend_on_case_as_join_codes_do_not(tmp_path: Path) -> None:
    import io

    path = tmp_path / "passwords"
    assert add_user(path, "Ana", io.StringIO("open sesame\n")) is False
    accounts = read_password_file(path)
    assert check_password(accounts, "ana", "open sesame") and check_password(accounts, "ANA", "open sesame")
    assert not check_password(accounts, "ana", "open sesamE")  # the password still does
    assert add_user(path, "ANA", io.StringIO("new password\n")) is True  # the same account, replaced
    accounts = read_password_file(path)
    assert len(accounts) == 1 and check_password(accounts, "Ana", "new password")
    assert not check_password(accounts, "ana", "open sesame")
    # Signing in as "ana" is signing in to the account as the file spells it, which keeps its sessions.
    assert signed_in_as(accounts, "ana", "new password") == "Ana"
    assert signed_in_as(accounts, "ana", "open sesame") is None and signed_in_as(accounts, "bo", "x") is None


def test_a_password_account_cannot_take_a_key_accounts_name(tmp_path: Path) -> None:
    import io

    path = tmp_path / "passwords"
    for name in ("key-AAAAbbbbCCCCddddEEEEff", "KEY-ana", "key-"):
        with pytest.raises(ServeUsageError, match="kept for key accounts"):
            add_user(path, name, io.StringIO("open sesame\n"))
    assert not path.exists()
    assert add_user(path, "keymaster", io.StringIO("open sesame\n")) is False  # only the prefix is kept


def test_what_clients_send_cannot_forge_log_lines_or_odd_terminals(tmp_path: Path) -> None:
    assert printable("ana\nINFO #9 forged") == "ana\\x0aINFO\\x20#9\\x20forged"
    assert printable("ana\u202egpj.exe\u200b") == "ana\\u202egpj.exe\\u200b"
    assert printable("x" * 100).endswith("x...") and len(printable("x" * 100)) == 67
    state = ServerState(_config(), tmp_path)
    env = state.child_environment("xterm\x1b]0;owned\x07", {"COLORTERM": "truecolor", "NO_COLOR": "\n" * 3})
    assert env["TERM"] == "xterm-256color"
    assert env["COLORTERM"] == "truecolor" and "NO_COLOR" not in env


def test_input_budget_passes_a_burst_then_a_steady_trickle() -> None:
    from tui.server.limits import InputBudget

    now = [0.0]
    budget = InputBudget(burst=100, per_second=10, clock=lambda: now[0])
    assert budget.take(60) == 60
    assert budget.take(60) == 40  # the rest of the burst
    assert budget.take(5) == 0
    now[0] = 2.0
    assert budget.take(50) == 20  # two seconds' worth
    now[0] = 100.0
    assert budget.take(1000) == 100  # never more than a burst, however long the pause


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_players_coven_is_told_whether_the_account_was_proven(signed_in: bool) -> None:
    from tui.cli import build_parser
    from tui.server.connection import child_command

    command = child_command(Login("kxmp", "Kxmp", "KXMP"), 2222, signed_in=signed_in)
    assert command[1:4] == ["-m", "tui.cli", "play"]
    args = build_parser().parse_args(command[3:])
    assert (args.signed_in, args.account, args.join, args.serve_port) == (signed_in, "kxmp", "KXMP", 2222)
    assert build_parser().parse_args([]).signed_in is False  # plain `coven` at this machine


def test_add_user_refuses_a_file_where_two_accounts_now_read_as_one(tmp_path: Path) -> None:
    import io

    path = tmp_path / "passwords"
    path.write_text(f"Ana:{hash_password('first password')}\nana:{hash_password('second password')}\n")
    path.chmod(0o600)
    with pytest.raises(ServeUsageError, match="Ana, ana"):
        add_user(path, "ANA", io.StringIO("open sesame\n"))
    accounts = read_password_file(path)  # both players' lines are still there for the operator to choose
    assert path.read_text().count("scrypt$") == 2 and check_password(accounts, "Ana", "first password")
