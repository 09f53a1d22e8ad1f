"""Run every benchmark: ``python -m bench [NAME ...]`` (names: the modules of this folder: poker, stops,
rummy, bots_stops, bots_rummy, server_path, cluster, bus, hostile, ...).

Each benchmark prints its own figures beside a baseline measured in the same run; none is a test.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> None:
    here = Path(__file__).parent
    names = sys.argv[1:] or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        if not hasattr(module, "main"):  # a helper the benchmarks share (interleave), not a benchmark
            continue
        print(f"== bench.{name}", flush=True)
        sys.argv = [f"bench.{name}"]
        module.main()
        print(flush=True)


if __name__ == "__main__":
    main()
