"""Connection limits: a token bucket per remote address and a count of seated players."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


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
        allowed = min(size, int(bucket.tokens))
        bucket.tokens -= allowed
        return allowed


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
