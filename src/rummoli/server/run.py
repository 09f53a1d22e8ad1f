"""Start the server on uvicorn (what ``rummoli serve`` does)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
import sys
from pathlib import Path
from types import FrameType

from rummoli.server.gate import Gate, protocols
from rummoli.server.settings import Settings

SWITCH_INTERVAL = 0.001


def _server_class() -> type:
    """uvicorn's server, waking once a second instead of ten times (imported only when serving)."""
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's main loop wakes every tenth of a second to see whether it should stop (and every tenth
        time to renew its Date header). An idle process wakes for little else, and on this kind of machine
        (a small virtual one) a wake-up costs 0.1-0.3 ms of CPU however little it does: those ten a second
        were about a third of what an idle server cost (``python -m bench.cluster --idle``). This one waits a
        second between ticks, or until a signal asks it to stop, so stopping is as quick as before."""

        _stop: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

        async def main_loop(self) -> None:
            stop = asyncio.Event()
            self._stop = (asyncio.get_running_loop(), stop)
            counter = 0
            should_exit = await self.on_tick(counter)
            while not should_exit:
                counter = (counter + 10) % 864000  # uvicorn renews the Date header on every tenth count
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
                should_exit = await self.on_tick(counter)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            if self._stop is not None:
                loop, stop = self._stop
                with contextlib.suppress(RuntimeError):  # the loop is closed: nothing waits any more
                    loop.call_soon_threadsafe(stop.set)

    return Server


def listen_problem(host: str, port: int) -> str | None:
    """Why this process cannot listen on ``host`` and ``port``, in one line, or None when it can.

    Each address ``host`` names is bound as uvicorn's server will bind it (asyncio's ``create_server``: address
    reuse on, so a port a stopped server left in TIME_WAIT is free; an IPv6 socket for IPv6 alone), and let go at
    once. Asked before anything is announced or made, so a port another server holds is one line, not our
    address printed over someone else's server and a data folder made for nothing.
    """
    where = host or "every address"
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"cannot listen on {where}: {error.strerror}"
    for family, kind, proto, _name, address in dict.fromkeys(found):
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:  # a family this machine lacks (IPv6): asyncio passes it by too
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return f"port {port} on {where} is already in use (another server?); choose another with --port"
                hint = "; choose another with --port" if error.errno == errno.EACCES else ""
                return f"cannot listen on {where} port {port}: {error.strerror or error}{hint}"
    return None


#: The largest websocket frame (and message) uvicorn reads. A message over ``max_message`` (8 KiB) but within it is
#: read and answered with our one ``too_large`` error line, and the connection goes on (a hello that large closes
#: it, as any bad hello does); one over it is closed by websockets with code 1009 as soon as the frame's header
#: gives its length, before the frame is read, with our sentence as its reason (rummoli.server.gate.protocols).
#: Under the old limit here, 64 KiB, a message of 100 KiB got that close with websockets' words and no line of ours.
#: Memory: a frame is buffered only when a client sends it, and only up to this size. While it is read and checked
#: it costs the server about 1.8 MB at its peak (the bytes as they come, unmasked, then as text), then about 1 MB
#: until the client's next frame, at the latest its answer to the next ping, 20 s on, or the close when it gives
#: none (websockets keeps the last frame it read; our reader keeps nothing), then nothing. One address holds at
#: most 32 websockets at once (``max_connections_per_ip``): 32 frames of 1 MiB sent at once raised a server's peak
#: memory by 56 MB (32 of 60 KiB: 5 MB), and 128 with that limit off by 231 MB (16 MB), all of it given back once
#: the clients left (``python -m bench.frames``). Reading one costs 1.3-1.9 ms of CPU; the rate limit bounds how
#: often.
MAX_FRAME = 1 << 20


def max_frame(max_message: int) -> int:
    """The largest frame read: :data:`MAX_FRAME`, or more where ``max_message`` is raised past a quarter of it."""
    return max(MAX_FRAME, 4 * max_message)


def serve(settings: Settings, announce: bool = True) -> None:
    """Serve until interrupted; print the address to open first."""
    import uvicorn

    from rummoli.server.api.app import create_app
    from rummoli.server.api.connection import too_large

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    # A thread that works (building a history, rummoli.server.api.history) keeps the GIL for a whole switch
    # interval each time the event loop wakes and waits for it: 1 ms instead of 5 keeps the loop's answers
    # quick while one runs.
    sys.setswitchinterval(SWITCH_INTERVAL)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    if announce:
        where = settings.database_url if not settings.database_url.startswith("sqlite") else settings.data_dir
        address = settings.public_url.rstrip("/") or f"http://{host}:{settings.port}"
        print(f"Rummoli is at {address}/  (API: {address}/docs; data: {where})", flush=True)
    gate = Gate(settings.max_open_per_ip, settings.request_timeout, settings.trusted_proxies)
    http, ws = protocols(gate, too_big=too_large(settings.max_message))
    config = uvicorn.Config(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                            ws_max_size=max_frame(settings.max_message), ws_ping_interval=20,
                            ws_ping_timeout=20, ws_per_message_deflate=settings.ws_deflate, lifespan="on",
                            server_header=False, proxy_headers=False, loop=settings.event_loop, http=http, ws=ws,
                            timeout_keep_alive=max(1, round(settings.keep_alive)),
                            h11_max_incomplete_event_size=16 * 1024)
    server = _server_class()(config)
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
