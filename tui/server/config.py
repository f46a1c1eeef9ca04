"""Settings of ``coven serve`` and the parsing of its command-line flags.

Nothing here imports asyncssh, so ``coven --help`` stays quick.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tui.notify.url import NotifyUrlError, check_notify_url

AuthMode = Literal["none", "password", "keys"]
AUTH_MODES: tuple[AuthMode, ...] = ("none", "password", "keys")

DEFAULT_HOST = "127.0.0.1"
PASSWORD_FILENAME = "passwords"
"""The password file's name in the data folder, when ``--password-file`` names none."""
DEFAULT_PORT = 2222
DEFAULT_MAX_SESSIONS = 32
DEFAULT_IDLE_TIMEOUT = "30m"
DEFAULT_RATE_BURST = 20
DEFAULT_RATE_REFILL_SECONDS = 3.0
DEFAULT_LOGIN_GRACE = "30s"
"""Time a connection has to log in and open a terminal session (OpenSSH's LoginGraceTime)."""
DEFAULT_MAX_AUTH_TRIES = 6
"""Failed logins one connection may make before it is closed (OpenSSH's MaxAuthTries)."""
DEFAULT_OUTPUT_BUDGET = "1m"
"""Screen output the server holds for one client that reads slowly; past it the player's Coven stops drawing."""
DEFAULT_STALL_TIMEOUT = "60s"
"""How long a client may read nothing of its held output before it is disconnected."""

_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smh]?)")
MIN_OUTPUT_BUDGET = 16 * 1024
"""The smallest output budget: below it a single screen update would stall the session."""
DEFAULT_MEMORY_FLOOR = "256M"
"""Available memory below which newcomers are refused.

A player's Coven takes about 23 MB at the menu and about 40 to 50 MB in play
when forked warm, up to about 70 MB as a fresh process (``coven bench serve``
and ``seat-memory``, in the README); 256 MiB keeps
room for a few more players starting at once and for the system itself, so a
refusal comes before the kernel has to reclaim hard or kill a process, and it
stays out of the way on any machine that can serve at all.
"""
DEFAULT_IDLE_SEAT_GRACE = "60s"
"""How long a session may go without a key (or without its Coven reaching the menu) before a newcomer
may take its place on a full server: longer than anyone needs to read the menu, far shorter than the idle timeout."""

_SIZE_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:([kmgt])(?:i?b)?)?")


class ServeUsageError(ValueError):
    """A mistake in the flags given to ``coven serve`` (exit code 2)."""


class ServeError(Exception):
    """A problem that stops the server from starting, such as a bad key file (exit code 1)."""


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``coven serve`` needs to know, already checked."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    auth: AuthMode = "none"
    password_file: Path | None = None
    authorized_keys: Path | None = None
    max_sessions: int = DEFAULT_MAX_SESSIONS
    idle_timeout: float = 1800.0
    rate_burst: int = DEFAULT_RATE_BURST
    rate_refill_seconds: float = DEFAULT_RATE_REFILL_SECONDS
    login_grace: float = 30.0
    max_auth_tries: int = DEFAULT_MAX_AUTH_TRIES
    warm: bool = True
    output_budget: int = 1024 * 1024
    stall_timeout: float = 60.0
    memory_floor: int = 256 << 20
    """Bytes of available memory below which a newcomer is refused; 0 turns the check off."""
    idle_seat_grace: float = 60.0
    """Seconds without a key after which a full server gives a session's place to a newcomer."""
    notify_url: str | None = None
    """Where a notice goes when a table asks a player who is not connected (checked; None: nowhere)."""

    @property
    def all_interfaces(self) -> bool:
        """Whether the server listens on every interface rather than one address."""
        return self.host in ("0.0.0.0", "::", "")


def parse_duration(text: str, option: str = "--idle-timeout") -> float:
    """Seconds in ``text``: ``90``, ``90s``, ``30m`` or ``1h`` (decimals allowed).

    Raises:
        ServeUsageError: ``text`` is not such a duration, or is zero.
    """
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise ServeUsageError(
            f"{option} takes a duration such as 90s, 30m or 1h (or plain seconds), not {text!r}.")
    seconds = float(match.group(1)) * _UNITS[match.group(2)]
    if seconds <= 0:
        raise ServeUsageError(f"{option} must be longer than zero.")
    return seconds


def parse_size(text: str, option: str, *, minimum: int = 0, unit_needed: bool = False) -> int:
    """Bytes in ``text``: ``65536``, ``256k``, ``1M``, ``1.5G`` (binary units; ``MB`` and ``MiB`` too).

    Args:
        text: what was typed.
        option: the flag, for the message.
        minimum: the fewest bytes allowed.
        unit_needed: refuse a plain number other than 0, where bytes would surely be a slip.

    Raises:
        ServeUsageError: ``text`` is not such a size, or is below ``minimum``.
    """
    match = _SIZE.fullmatch(text.strip().lower())
    if match is None or (unit_needed and match.group(2) is None and float(match.group(1)) != 0):
        example = "256M or 1G (or 0 for off)" if unit_needed else "256k or 1m (or plain bytes)"
        raise ServeUsageError(f"{option} takes a size such as {example}, not {text!r}.")
    size = int(float(match.group(1)) * (_SIZE_UNITS[match.group(2)] if match.group(2) else 1))
    if size < minimum:
        raise ServeUsageError(f"{option} must be at least {minimum // 1024}k, not {text!r}.")
    return size


def parse_output_budget(text: str) -> int:
    """``--output-budget``: plain bytes or a unit, at least :data:`MIN_OUTPUT_BUDGET`."""
    return parse_size(text, "--output-budget", minimum=MIN_OUTPUT_BUDGET)


def parse_memory_floor(text: str) -> int:
    """``--memory-floor``: a size with its unit, or 0 for off."""
    return parse_size(text, "--memory-floor", unit_needed=True)


def describe_duration(seconds: float) -> str:
    """``seconds`` in words for players: "30 seconds", "2 minutes"."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = seconds / 60
        return f"{minutes:g} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


def _whole(text: str, option: str, least: int, most: int | None = None) -> int:
    """``option``'s value ``text`` as a whole number from ``least`` to ``most``, or a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise ServeUsageError(f"{option} takes a whole number, not {text!r}.") from None
    if value < least or (most is not None and value > most):
        span = f"between {least} and {most}" if most is not None else f"at least {least}"
        raise ServeUsageError(f"{option} must be {span}, not {value}.")
    return value


def _seconds(text: str, option: str) -> float:
    """``option``'s value ``text`` as a number of seconds above zero, or a usage error."""
    try:
        value = float(text)
    except ValueError:
        raise ServeUsageError(f"{option} takes a number of seconds, not {text!r}.") from None
    if not value > 0:
        raise ServeUsageError(f"{option} must be more than zero seconds.")
    return value


def add_serve_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand and its flags; values stay text until :func:`config_from_args`."""
    serve = commands.add_parser(
        "serve", help="host Coven over SSH for friends to join",
        description="Run an SSH server; each connection gets its own Coven table in a terminal.")
    add_door_flags(serve, port=DEFAULT_PORT, auth_modes="none (trusted networks only), password or keys")
    serve.add_argument("--authorized-keys", metavar="FILE", help="public keys allowed by --auth keys")
    serve.add_argument("--login-grace", default=DEFAULT_LOGIN_GRACE, metavar="TIME",
                       help="close a connection that has no terminal session after this long, e.g. 30s, 2m "
                            "(default 30s)")
    serve.add_argument("--add-user", metavar="NAME",
                       help="add or replace an account in the password file (asks for the password) and exit")
    return serve


def add_door_flags(parser: argparse.ArgumentParser, *, port: int, auth_modes: str) -> None:
    """The flags both doors take (``coven serve`` and ``coven web``): where to listen, accounts and limits."""
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}; 0.0.0.0 for every interface)")
    parser.add_argument("--port", default=str(port), help=f"port to listen on (default {port}; 0 picks a free one)")
    parser.add_argument("--auth", default="none", metavar="MODE", help=f"{auth_modes} (default none)")
    parser.add_argument("--password-file", metavar="FILE",
                        help="accounts for --auth password and --add-user (default: DATA_DIR/passwords)")
    parser.add_argument("--max-sessions", default=str(DEFAULT_MAX_SESSIONS), metavar="N",
                        help=f"most players connected at once (default {DEFAULT_MAX_SESSIONS})")
    parser.add_argument("--idle-timeout", default=DEFAULT_IDLE_TIMEOUT, metavar="TIME",
                        help="close a connection after this long without a key press, e.g. 90s, 30m, 1h (default 30m)")
    parser.add_argument("--rate-burst", default=str(DEFAULT_RATE_BURST), metavar="N",
                        help=f"connection attempts one address may make in a burst (default {DEFAULT_RATE_BURST})")
    parser.add_argument("--rate-refill-seconds", default=str(DEFAULT_RATE_REFILL_SECONDS), metavar="S",
                        help="seconds for one more attempt to be allowed again (default 3)")
    parser.add_argument("--max-auth-tries", default=str(DEFAULT_MAX_AUTH_TRIES), metavar="N",
                        help=f"failed logins one connection may make before it is closed "
                             f"(default {DEFAULT_MAX_AUTH_TRIES})")
    parser.add_argument("--no-warm", action="store_true",
                        help="start each player as a fresh process instead of forking it from a warm parent that "
                             "has Coven imported already (slower to connect, more memory per player)")
    parser.add_argument("--output-budget", default=DEFAULT_OUTPUT_BUDGET, metavar="SIZE",
                        help="screen output held for one slow client, e.g. 256k, 1m; past it that player's Coven "
                             f"stops drawing until the client catches up (default {DEFAULT_OUTPUT_BUDGET})")
    parser.add_argument("--stall-timeout", default=DEFAULT_STALL_TIMEOUT, metavar="TIME",
                        help="disconnect a client that read none of its held output for this long, e.g. 30s, 2m "
                             f"(default {DEFAULT_STALL_TIMEOUT})")
    parser.add_argument("--idle-seat-grace", default=DEFAULT_IDLE_SEAT_GRACE, metavar="TIME",
                        help="when every place is taken, a newcomer gets the place of a session that has pressed no "
                             "key (or whose Coven has not reached the menu) for this long, e.g. 60s, 2m; a player "
                             f"seated in a game is never closed this way (default {DEFAULT_IDLE_SEAT_GRACE})")
    parser.add_argument("--notify-url", metavar="URL",
                        help="POST a small JSON notice (table, game, seat, deadline) to URL when a table asks a "
                             "player who is not connected, e.g. https://ntfy.example/?topic=coven; signed-in "
                             "players may set their own in Settings (default: none)")
    parser.add_argument("--memory-floor", default=DEFAULT_MEMORY_FLOOR, metavar="SIZE",
                        help="refuse newcomers (\"this host is full right now\") while the machine's available memory "
                             "(MemAvailable in /proc/meminfo) is below SIZE, e.g. 256M, 1G; 0 turns it off, and so "
                             f"does a system without /proc/meminfo (not Linux) (default {DEFAULT_MEMORY_FLOOR})")


def password_file_path(typed: str | None, data_dir: Path) -> Path:
    """The password file: ``--password-file`` as typed, else ``passwords`` in the data folder."""
    return Path(typed).expanduser() if typed else data_dir / PASSWORD_FILENAME


def config_from_args(args: argparse.Namespace, data_dir: Path) -> ServeConfig:
    """Check the text of the flags and build a :class:`ServeConfig`.

    Raises:
        ServeUsageError: a flag's value is wrong or flags contradict each other.
    """
    auth = str(args.auth).strip().lower()
    if auth not in AUTH_MODES:
        raise ServeUsageError(f"--auth takes none, password or keys, not {args.auth!r}.")
    if args.authorized_keys and auth != "keys":
        raise ServeUsageError("--authorized-keys only applies with --auth keys.")
    if auth == "keys" and not args.authorized_keys:
        raise ServeUsageError("--auth keys needs --authorized-keys FILE (one OpenSSH public key a line).")
    password_file = password_file_path(args.password_file, data_dir)
    return ServeConfig(
        host=str(args.host).strip(),
        port=_whole(args.port, "--port", 0, 65535),
        auth=auth,
        password_file=password_file if auth == "password" else None,
        authorized_keys=Path(args.authorized_keys).expanduser() if args.authorized_keys else None,
        max_sessions=_whole(args.max_sessions, "--max-sessions", 1),
        idle_timeout=parse_duration(args.idle_timeout),
        rate_burst=_whole(args.rate_burst, "--rate-burst", 1),
        rate_refill_seconds=_seconds(args.rate_refill_seconds, "--rate-refill-seconds"),
        login_grace=parse_duration(args.login_grace, "--login-grace"),
        max_auth_tries=_whole(args.max_auth_tries, "--max-auth-tries", 1, 100),
        warm=not getattr(args, "no_warm", False),
        output_budget=parse_output_budget(args.output_budget),
        stall_timeout=parse_duration(args.stall_timeout, "--stall-timeout"),
        memory_floor=parse_memory_floor(args.memory_floor),
        idle_seat_grace=parse_duration(args.idle_seat_grace, "--idle-seat-grace"),
        notify_url=_notify_url(getattr(args, "notify_url", None)),
    )


def _notify_url(text: str | None) -> str | None:
    """``--notify-url``'s value checked (see :mod:`tui.notify.url`), or None when not given."""
    if text is None:
        return None
    try:
        return check_notify_url(text)
    except NotifyUrlError as error:
        raise ServeUsageError(f"--notify-url: {error}") from None
