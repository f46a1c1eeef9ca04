"""Connection limits: rate and password throttles per address, seated players, input and terminal sizes."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass

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
    tokens: float
    stamp: float


class RateLimiter:
    """A token bucket per remote address.

    Each address may make ``burst`` attempts at once; after that one more
    attempt is allowed every ``refill_seconds``.
    """

    def __init__(self, burst: int, refill_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
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
        self.burst = burst
        self.per_second = per_second
        self._clock = clock
        self._bucket = _Bucket(float(burst), clock())

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
    """How many connections are admitted, against a maximum."""

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum
        self.count = 0

    def try_admit(self) -> bool:
        """Count one more connection, unless the table is full."""
        if self.count >= self.maximum:
            return False
        self.count += 1
        return True

    def release(self) -> None:
        """Forget one admitted connection."""
        self.count = max(0, self.count - 1)


@dataclass
class _Failures:
    count: int
    ready: float
    seen: float


class AuthThrottle:
    """A growing delay before each password check from an address that failed lately.

    The delay doubles with each failure from ``first_delay`` up to
    ``max_delay``; attempts from one address queue behind each other, so many
    connections gain nothing over one. A success forgets the address, and so
    does ``forget_after`` seconds without an attempt.
    """

    def __init__(self, first_delay: float = 0.5, max_delay: float = 4.0, forget_after: float = 600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.forget_after = forget_after
        self._clock = clock
        self._entries: dict[str, _Failures] = {}

    def delay(self, failures: int) -> float:
        """The pause after ``failures`` failed attempts."""
        if failures <= 0:
            return 0.0
        return min(self.max_delay, self.first_delay * 2.0 ** min(failures - 1, 32))

    def reserve(self, key: str) -> float:
        """Seconds the next attempt from ``key`` must wait before it is checked."""
        now = self._clock()
        entry = self._current(key, now)
        if entry is None:
            return 0.0
        start = max(now, entry.ready)
        entry.ready = start + self.delay(entry.count)  # the attempt after this one waits its turn
        entry.seen = now
        return start - now

    def failed(self, key: str) -> None:
        """Count a failed attempt from ``key``."""
        now = self._clock()
        entry = self._current(key, now)
        if entry is None:
            if len(self._entries) >= 4096:
                self._forget_old(now)
            entry = self._entries[key] = _Failures(0, now, now)
        entry.count += 1
        entry.seen = now
        entry.ready = max(entry.ready, now + self.delay(entry.count))

    def succeeded(self, key: str) -> None:
        """Forget ``key``'s failures."""
        self._entries.pop(key, None)

    def failures(self, key: str) -> int:
        """Recent failed attempts from ``key``."""
        entry = self._current(key, self._clock())
        return entry.count if entry else 0

    def _current(self, key: str, now: float) -> _Failures | None:
        entry = self._entries.get(key)
        if entry is not None and now - entry.seen >= self.forget_after:
            del self._entries[key]
            return None
        return entry

    def _forget_old(self, now: float) -> None:
        for key in [key for key, entry in self._entries.items() if now - entry.seen >= self.forget_after]:
            del self._entries[key]
        while len(self._entries) >= 4096:  # still full: the oldest go first
            del self._entries[min(self._entries, key=lambda key: self._entries[key].seen)]
