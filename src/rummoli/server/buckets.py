"""A token bucket: how the server limits how often something may be done (a client's messages, an address's
requests, a seat's chat lines).
"""

from __future__ import annotations


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.

    >>> r = RateLimit(1.0, 2)
    >>> r.allow(0.0), r.allow(0.0), r.allow(0.0), r.allow(1.0)
    (True, True, False, True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.stamp: float | None = None
        self.refused = 0

    def allow(self, now: float) -> bool:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False
