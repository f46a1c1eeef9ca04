"""Connection limits: connection rates, password throttles, seated players, input and terminal sizes."""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from tui.server.live_tickets import LiveTickets

log = logging.getLogger("coven.serve")

MAX_COLUMNS = 400
"""The widest terminal a player's Coven is given; a wider claim is clamped (the child's memory follows the size)."""
MAX_ROWS = 200
"""The tallest terminal a player's Coven is given."""
DEFAULT_COLUMNS, DEFAULT_ROWS = 80, 24


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A claimed terminal size made safe: 0 means the default, nothing beyond :data:`MAX_COLUMNS` x :data:`MAX_ROWS`."""
    return (min(columns or DEFAULT_COLUMNS, MAX_COLUMNS), min(rows or DEFAULT_ROWS, MAX_ROWS))


def address_key(address: str) -> str:
    """What limits count a client by: an IPv4 address whole, an IPv6 address by its /64.

    One host usually owns a whole IPv6 /64, so counting single addresses
    would let it dodge every limit by rotating through them.
    """
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Bucket:
    """A token bucket: ``tokens`` left as of the clock's ``stamp``."""
    tokens: float
    stamp: float


class RateLimiter:
    """A token bucket per remote address.

    Each address may make ``burst`` attempts at once; after that one more
    attempt is allowed every ``refill_seconds``.
    """

    def __init__(self, burst: int, refill_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        """No address has used a token yet; ``clock`` is replaced by tests."""
        self.burst = burst
        self.refill_seconds = refill_seconds
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def allow(self, address: str) -> bool:
        """Take a token for ``address``; False when its bucket is empty."""
        now = self._clock()
        self._forget_full(now)
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) / self.refill_seconds)
        bucket.stamp = now
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled, once there are many of them."""
        # A bucket that has refilled completely is the same as no bucket, so drop
        # those now and then and memory stays bounded however many addresses call.
        if len(self._buckets) < 1024:
            return
        horizon = self.burst * self.refill_seconds
        for address in [key for key, bucket in self._buckets.items() if now - bucket.stamp >= horizon]:
            del self._buckets[address]


class InputBudget:
    """How many bytes of typed input a session may pass on: ``burst`` at once, ``per_second`` after.

    Nobody types faster than this; a paste of megabytes is cut to what fits, so
    it cannot keep the player's Coven busy for minutes.
    """

    def __init__(self, burst: int = 16 * 1024, per_second: int = 4 * 1024,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """A full budget; ``clock`` is replaced by tests."""
        self.burst = burst
        self.per_second = per_second
        self._clock = clock
        self._bucket = _Bucket(float(burst), clock())

    def available(self) -> int:
        """How many bytes may pass now, without taking them."""
        self.take(0)  # refill
        return max(0, int(self._bucket.tokens))

    def take(self, size: int) -> int:
        """How many of ``size`` bytes may pass now (the rest are to be dropped)."""
        now = self._clock()
        bucket = self._bucket
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.per_second)
        bucket.stamp = now
        allowed = max(0, min(size, int(bucket.tokens)))
        bucket.tokens -= allowed
        return allowed

    def charge(self, size: int, debt: int) -> bool:
        """Take ``size`` bytes even beyond the budget, unless that would owe more than ``debt``.

        For bytes that must not be cut (a paste's markers); the debt is paid
        back from later input, and caps how far a stream of markers can go.
        """
        self.take(0)  # refill
        if self._bucket.tokens - size < -debt:
            return False
        self._bucket.tokens -= size
        return True


class SessionCounter:
    """How many connections are admitted, against a maximum shared with every door at the same data folder.

    With ``tickets``, each admitted session holds a ticket (:mod:`tui.server.live_tickets`), so ``coven serve`` and
    ``coven web`` run side by side at one save folder count toward one cap.
    """

    def __init__(self, maximum: int, tickets: LiveTickets | None = None) -> None:
        """Nobody admitted yet, at most ``maximum`` (counted in this process alone without ``tickets``)."""
        self.maximum = maximum
        self.count = 0
        """The sessions this process admitted."""
        self.tickets = tickets
        self._held: list[str] = []
        self._warned = False

    def others(self, mine: str | None = None) -> int:
        """Live sessions other processes at the same data folder hold (``mine`` is a ticket just made here)."""
        if self.tickets is None:
            return 0
        try:
            live = self.tickets.live()
        except OSError as error:
            self._warn(error)
            return 0
        return len(live - set(self._held) - {mine})

    def full(self) -> bool:
        """Whether the cap is reached, every door at the data folder counted."""
        return self.count >= self.maximum or self.count + self.others() >= self.maximum

    def try_admit(self) -> bool:
        """Count one more connection, unless the table is full."""
        if self.count >= self.maximum:
            return False
        if self.tickets is not None:
            try:
                mine = self.tickets.take()
            except OSError as error:
                self._warn(error)  # the count goes on, this process's own
            else:
                try:
                    others = self.others(mine)
                except BaseException:
                    self.tickets.give_back(mine)  # never left behind to count against the cap
                    raise
                if self.count + others >= self.maximum:
                    self.tickets.give_back(mine)
                    return False
                self._held.append(mine)
        self.count += 1
        return True

    def release(self) -> None:
        """Forget one admitted connection."""
        if self.count == 0:
            return
        self.count -= 1
        if self.tickets is not None and self._held:
            self.tickets.give_back(self._held.pop())

    def _warn(self, error: OSError) -> None:
        """Log once that other doors' sessions cannot be counted."""
        if not self._warned:
            self._warned = True
            log.warning("sessions of other Coven doors at this data folder cannot be counted: %s", error)


@dataclass
class _Failures:
    """How many failures a key has on record, and when the last one was."""
    count: int
    last: float


class _FailureLog:
    """Recent failures per key, oldest last failure first, at most ``limit`` keys.

    The dict's order is the order of last failures (a failure moves its key to
    the end), so forgetting and evicting only ever look at the front.
    """

    def __init__(self, forget_after: float, limit: int) -> None:
        """An empty log forgetting a key ``forget_after`` seconds after its last failure."""
        self.forget_after = forget_after
        self.limit = limit
        self._entries: dict[str, _Failures] = {}

    def size(self, now: float) -> int:
        """How many keys have recent failures at ``now``."""
        self._forget_old(now)
        return len(self._entries)

    def get(self, key: str, now: float) -> _Failures | None:
        """``key``'s recent failures at ``now``, or None."""
        self._forget_old(now)
        return self._entries.get(key)

    def record(self, key: str, now: float) -> None:
        """Count a failure of ``key`` at ``now``, evicting the stalest key when full."""
        self._forget_old(now)
        entry = self._entries.pop(key, None) or _Failures(0, now)
        entry.count += 1
        entry.last = now
        while len(self._entries) >= self.limit:
            # Full of recent failures: the stalest goes, so a flood of new names cannot push out one being guessed.
            del self._entries[next(iter(self._entries))]
        self._entries[key] = entry

    def forget(self, key: str) -> None:
        """Drop ``key``'s failures (it succeeded)."""
        self._entries.pop(key, None)

    def _forget_old(self, now: float) -> None:
        """Drop the keys whose last failure is ``forget_after`` seconds old or more."""
        while self._entries:
            oldest = next(iter(self._entries))
            if now - self._entries[oldest].last < self.forget_after:
                return
            del self._entries[oldest]


class AuthThrottle:
    """Delays before password checks, counted per account and per address (an IPv6 /64).

    Each failure makes the next check of the same account wait ``first_delay``,
    doubling up to ``max_delay``, and one check of an account runs at a time,
    so guessing it from many connections or addresses gains nothing. Failures
    from an address delay that address's next checks the same way, but by at
    most ``address_cap`` for an account without failures: a guesser next to a
    player barely slows the player's login. Every wait is measured from the
    last failure, never reserved, so a connection that leaves while it waits
    costs the others nothing. A success forgets the account's failures, and
    ``forget_after`` seconds without a failure forget a key; each kind of key
    is held for at most ``limit`` accounts or addresses.
    """

    BUSY_POLL = 0.1
    """How soon to ask again while another check of the same account runs (it takes a moment of scrypt)."""
    ACCOUNT_KEY_LENGTH = 64
    """Longer names are counted by their start: no account is that long, and memory stays bounded."""

    def __init__(self, first_delay: float = 0.5, max_delay: float = 4.0, address_cap: float = 1.0,
                 forget_after: float = 600.0, limit: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """No failures on record; ``clock`` is replaced by tests."""
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.address_cap = address_cap
        self._clock = clock
        self._accounts = _FailureLog(forget_after, limit)
        self._addresses = _FailureLog(forget_after, limit)
        self._checking: dict[str, int] = {}

    def delay(self, failures: int) -> float:
        """The pause after ``failures`` failed attempts."""
        if failures <= 0:
            return 0.0
        return min(self.max_delay, self.first_delay * 2.0 ** min(failures - 1, 32))

    def address_wait(self, address: str, account: str) -> float:
        """Seconds an attempt from ``address`` at ``account`` waits for the address's failures.

        Asked once, when the attempt arrives, so later failures from the address
        cannot keep it waiting.
        """
        now = self._clock()
        entry = self._addresses.get(address, now)
        if entry is None:
            return 0.0
        limit = self.max_delay if self._accounts.get(self._account_key(account), now) else self.address_cap
        return max(0.0, entry.last + min(limit, self.delay(entry.count)) - now)

    def account_wait(self, account: str) -> float:
        """Seconds before ``account``'s password may be checked; 0.0 means now, with :meth:`begin_check`."""
        key = self._account_key(account)
        if self._checking.get(key):
            return self.BUSY_POLL
        now = self._clock()
        entry = self._accounts.get(key, now)
        if entry is None:
            return 0.0
        return max(0.0, entry.last + self.delay(entry.count) - now)

    def begin_check(self, account: str) -> None:
        """Note that a check of ``account``'s password runs; :meth:`end_check` must follow, whatever happens."""
        key = self._account_key(account)
        self._checking[key] = self._checking.get(key, 0) + 1

    def end_check(self, address: str, account: str, ok: bool | None) -> None:
        """The check begun for ``account`` from ``address`` is over: passed, failed, or None for unknown."""
        key = self._account_key(account)
        left = self._checking.pop(key, 1) - 1
        if left > 0:
            self._checking[key] = left
        if ok:
            self._accounts.forget(key)
        elif ok is not None:
            now = self._clock()
            self._accounts.record(key, now)
            self._addresses.record(address, now)

    def address_failures(self, address: str) -> int:
        """Recent failed attempts from ``address``."""
        entry = self._addresses.get(address, self._clock())
        return entry.count if entry else 0

    def account_failures(self, account: str) -> int:
        """Recent failed attempts at ``account``."""
        entry = self._accounts.get(self._account_key(account), self._clock())
        return entry.count if entry else 0

    def remembered(self) -> tuple[int, int]:
        """How many accounts and addresses have failures on record."""
        now = self._clock()
        return self._accounts.size(now), self._addresses.size(now)

    def _account_key(self, account: str) -> str:
        """What ``account``'s failures are counted under (its first :attr:`ACCOUNT_KEY_LENGTH` characters)."""
        return account[:self.ACCOUNT_KEY_LENGTH]
