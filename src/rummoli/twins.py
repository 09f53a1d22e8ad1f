"""Where a hot function has a compiled twin (``rummoli/_speedups.c``, built by ``pip install -e .`` with gcc),
the program uses it; the pure-Python function stays the reference and the fallback, and ``RUMMOLI_PURE=1`` runs
the pure one everywhere (tests/core/test_speedups.py holds each pair to the same answers)."""

from __future__ import annotations

import importlib
import os
from typing import Any


def compiled(name: str) -> Any:
    """The compiled twin called ``name``, or ``None`` when ``RUMMOLI_PURE=1`` asks for Python only or the
    extension was not built (an install without a C compiler still plays, slower)."""
    if os.environ.get("RUMMOLI_PURE") == "1":
        return None
    try:
        # by name: this module is the one door to the extension, whose file name only says it is compiled
        speedups = importlib.import_module("rummoli._speedups")
    except ImportError:
        return None
    return getattr(speedups, name, None)
