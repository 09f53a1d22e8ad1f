"""Means with 95% confidence intervals (Student's t over independent blocks).

>>> s = confidence_interval([1.0, 2.0, 3.0, 4.0, 5.0])
>>> s.mean, round(s.low, 4), round(s.high, 4), s.n
(3.0, 1.0368, 4.9632, 5)
>>> confidence_interval([2.5]).to_json()
{'mean': 2.5, 'ci95': None, 'n': 1}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

# Two-sided 95% quantiles of Student's t (t_{0.975, df}) for df = 1..30.
_T975 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
    2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
    2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
)


def t_quantile_975(df: int) -> float:
    """t_{0.975} with ``df`` degrees of freedom (a table up to 30, the Cornish-Fisher expansion above).

    >>> round(t_quantile_975(4), 4), round(t_quantile_975(60), 4), round(t_quantile_975(10**9), 4)
    (2.7764, 2.0003, 1.96)
    """
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = NormalDist().inv_cdf(0.975)
    v = float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


@dataclass(frozen=True)
class Stat:
    """A sample mean over ``n`` blocks and its 95% interval (``None`` when ``n < 2``)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2

    def excludes(self, value: float) -> bool:
        """Whether the interval lies wholly on one side of ``value``."""
        return self.low is not None and self.high is not None and (self.low > value or self.high < value)

    def to_json(self) -> dict[str, Any]:
        ci = None if self.low is None or self.high is None else [_r(self.low), _r(self.high)]
        return {"mean": _r(self.mean), "ci95": ci, "n": self.n}


def _r(x: float) -> float:
    return round(x, 6)


def confidence_interval(values: Sequence[float]) -> Stat:
    """The mean of ``values`` (one per independent block) with its two-sided 95% t interval."""
    n = len(values)
    if n == 0:
        return Stat(math.nan, None, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Stat(mean, None, None, n)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return Stat(mean, mean - half, mean + half, n)
