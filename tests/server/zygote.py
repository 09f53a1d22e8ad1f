"""The tests' servers forked from a parent that has already imported them.

The suite starts ``rummoli serve`` about ninety times, and a start spent about 0.55 CPU seconds, most of it
importing FastAPI, SQLAlchemy, Alembic, uvicorn and our server (``python -X importtime -m rummoli.cli serve``)
before doing anything: some 50 CPU seconds of a two-core machine's suite. So each xdist worker keeps one
*zygote*: a plain ``python`` process (this file run as a script) that imports the server once, single-threaded,
and then forks a child per server the tests ask for (0.16 CPU seconds a start instead of 0.55). The child is a
real, separate process on its own port with its own data folder, environment, working directory and log, that
runs the same ``rummoli.cli.main`` as ``python -m rummoli.cli serve`` would; ``kill -9``, SIGSTOP and restarts
reach it as they reach any process.

The zygote is the child's parent, so the tests hold it through a pidfd (Linux) and ask the zygote for the
exit status: :class:`Forked` answers ``pid``, ``poll``, ``wait``, ``send_signal``, ``kill`` and
``terminate`` as :class:`subprocess.Popen` does. Where forking could differ from starting afresh, the tests
start the server with ``subprocess.Popen`` (:func:`can_fork` says when), and so does a test that sets
``Server.fork = False`` because a start from nothing is what it checks (tests/server/test_server_start_paths.py).

Protocol (a JSON line each way on the zygote's standard input and output): ``{"op": "spawn", "args": [...],
"env": {...}, "cwd": "...", "log": "..."}`` answers ``{"pid": N}``; ``{"op": "wait", "pid": N}`` (sent only once
the pidfd says the child has ended) answers ``{"code": C}`` with Popen's ``returncode`` convention."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

#: what ``rummoli serve`` imports before it serves (the rest, e.g. the cluster's Redis and PostgreSQL
#: clients, is imported by the child when its options ask for it, as in a process started afresh)
PRELOAD = ("rummoli.cli", "rummoli.server.run", "rummoli.server.settings", "rummoli.server.api.app",
           "rummoli.server.api.guard", "uvicorn", "uvicorn.protocols.http.auto", "uvicorn.protocols.websockets.auto",
           "uvicorn.lifespan.on", "uvicorn.loops.auto", "alembic.command", "alembic.config",
           "alembic.runtime.migration", "sqlalchemy.dialects.sqlite", "multiprocessing.resource_tracker")

#: environment variables read when a module is imported (``rummoli.twins`` picks the compiled or pure code):
#: a server asked for with one that differs from the zygote's is started afresh instead
IMPORT_TIME_ENV = ("RUMMOLI_PURE", "PYTHONHASHSEED", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONOPTIMIZE")


def can_fork(argv: list[str], env: dict[str, str], preexec: object) -> bool:
    """Whether a zygote can start ``argv`` exactly as a fresh ``python -m rummoli.cli serve`` would."""
    own = zygote_env()
    return (sys.platform == "linux" and hasattr(os, "pidfd_open") and preexec is None
            and argv[:4] == [sys.executable, "-m", "rummoli.cli", "serve"]
            and all(env.get(name) == own.get(name) for name in IMPORT_TIME_ENV))


def zygote_env() -> dict[str, str]:
    import rummoli

    src = str(Path(rummoli.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}


class Zygote:
    """The worker's side: starts the zygote when first needed and talks to it, one request at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             text=True, env=zygote_env(), cwd=os.getcwd())
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the tests' zygote process ended (its errors are in the test's output)")
            answer: dict[str, Any] = json.loads(line)
            return answer

    def spawn(self, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        answer = self.ask({"op": "spawn", "args": argv[3:], "env": env, "cwd": os.getcwd(), "log": str(log)})
        return Forked(self, int(answer["pid"]), argv)


ZYGOTE = Zygote()


class Forked:
    """A child of the zygote, held as :class:`subprocess.Popen` holds its own."""

    def __init__(self, zygote: Zygote, pid: int, argv: list[str]) -> None:
        self.zygote, self.pid, self.args = zygote, pid, argv
        # The zygote reaps a child only when asked (below), so the pid cannot be reused before this is open.
        self.pidfd = os.pidfd_open(pid)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.wait(0, raising=False)

    def wait(self, timeout: float | None = None, raising: bool = True) -> int | None:
        if self.returncode is None:
            ready, _, _ = select.select([self.pidfd], [], [], timeout)
            if not ready:
                if raising:
                    raise subprocess.TimeoutExpired(self.args, timeout or 0)
                return None
            self.returncode = int(self.zygote.ask({"op": "wait", "pid": self.pid})["code"])
            os.close(self.pidfd)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            signal.pidfd_send_signal(self.pidfd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


# ------------------------------------------------------------------------------------------ the zygote itself


def child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m rummoli.cli ARGS`` with the request's environment and log."""
    import rummoli.cli

    code = 70
    try:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        # As Python sets them at its start: SIGINT raises KeyboardInterrupt, and SIGPIPE is ignored, so that a
        # write to a socket or pipe whose other end is gone raises BrokenPipeError. With SIGPIPE's default a
        # forked server died at once and without a word (exit -13) when it wrote to a client that had just gone
        # or to a bot worker it had replaced: on a loaded machine, tests/server/test_server_bot_bounds.py's
        # servers did (connection refused, or no close frame), where a server started afresh goes on.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        null = os.open(os.devnull, os.O_RDONLY)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        # As under ``python -m rummoli.cli``: the bot workers, started with multiprocessing's "spawn",
        # import the main module by its name.
        sys.modules["__main__"] = rummoli.cli
        sys.argv = [rummoli.cli.__file__, *request["args"]]
        rummoli.cli.main(request["args"])
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # whatever it is, it goes to the server's log, not the zygote's loop
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # the log may be gone; the exit code is what counts
                stream.flush()
        os._exit(code)


def serve_requests() -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    # Forking is safe only from a single thread: nothing imported above may have started one.
    assert threading.active_count() == 1, threading.enumerate()
    children: set[int] = set()
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "spawn":
            pid = os.fork()
            if pid == 0:
                child(request)
            children.add(pid)
            answer = {"pid": pid}
        else:
            _, status = os.waitpid(request["pid"], 0)
            children.discard(request["pid"])
            answer = {"code": os.waitstatus_to_exitcode(status)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    for pid in children:  # the worker has gone: so do the servers it left running
        with contextlib.suppress(ChildProcessError, ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


if __name__ == "__main__":
    serve_requests()
