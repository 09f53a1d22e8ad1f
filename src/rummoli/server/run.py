"""Start the server on uvicorn (what ``rummoli serve`` does)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from rummoli.server.settings import Settings


def serve(settings: Settings, announce: bool = True) -> None:
    """Serve until interrupted; print the address to open first."""
    import uvicorn

    from rummoli.server.app import create_app

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    if announce:
        where = settings.database_url if not settings.database_url.startswith("sqlite") else settings.data_dir
        print(f"Rummoli is at http://{host}:{settings.port}/  (API: http://{host}:{settings.port}/docs; "
              f"data: {where})", flush=True)
    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                            ws_max_size=max(65536, 4 * settings.max_message), ws_ping_interval=20,
                            ws_ping_timeout=20, ws_per_message_deflate=settings.ws_deflate, lifespan="on",
                            server_header=False, proxy_headers=False, loop=settings.event_loop)
    server = uvicorn.Server(config)
    profile = os.environ.get("RUMMOLI_PROFILE")  # for bench.server: where the time goes
    if not profile:
        server.run()
        return
    import cProfile
    import signal
    import time

    # CPU time: waiting on the network or the disk is not work. SIGUSR1 starts afresh (the bench sends it
    # when its measured window opens, so the tables' creation is left out) and SIGUSR2 writes what was seen.
    profiler = cProfile.Profile(time.thread_time)

    def restart(_signum: int, _frame: object) -> None:
        nonlocal profiler
        profiler.disable()
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()

    def dump(_signum: int, _frame: object) -> None:
        profiler.disable()
        profiler.dump_stats(profile)

    signal.signal(signal.SIGUSR1, restart)
    signal.signal(signal.SIGUSR2, dump)
    profiler.enable()
    try:
        server.run()
    finally:
        profiler.disable()
        if not Path(profile).exists():
            profiler.dump_stats(profile)
