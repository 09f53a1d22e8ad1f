"""A long evening's history comes by pages, built off the event loop (issue 38, item 2): fifty of the largest
pages at once, three times over, are built in the history threads (the server's CPU by thread priority, from
/proc, says so), /healthz still answers at once meanwhile, and the pages together are exactly the whole history."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Server

from rummoli.server.api.history import BACKGROUND_NICE

HANDS = 200


def long_evening(server: Server) -> dict[str, Any]:
    """A 200-hand evening played by bots in about ten seconds: its only person is away from the start, so a
    bot plays their seat at once (--grace 0)."""
    # Seeded, so the evening is the same 200 hands every run: an unseeded one was seen to end after 182 hands (its
    # journal closed by the evening's settlement: random players bet random amounts, and those who cannot go on
    # leave), a shorter evening rather than a history that lost hands.
    created = server.create(ruleset="rummoli", seats=[{}, {"bot": "random"}, {"bot": "random"}], hands=HANDS,
                            chips=100000, seed="history-200")
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{created['id']}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the evening in 120 s"
        time.sleep(0.5)
    return created


def whole_history(server: Server, table: str, token: str, hands: int) -> list[dict[str, Any]]:
    """Every page of a seat's history, checked: the pages together are the whole history, every hand once and
    in order, every event once, numbered without a gap."""
    pages, first = [], 1
    while first is not None:
        page = server.get(f"/api/tables/{table}/history?first={first}", token=token).json()
        assert page["format"] == "rummoli-seat-history/3" and len(page["hands"]) <= 20
        pages.append(page)
        first = page["next"]
    in_pages = [hand for page in pages for hand in page["hands"]]
    assert [h["hand_no"] for h in in_pages] == list(range(1, hands + 1))
    seqs = sorted([e["seq"] for h in in_pages for e in h["events"]] + [e["seq"] for p in pages for e in p["evening"]])
    assert seqs == list(range(1, pages[0]["seq"] + 1))
    return pages


CROWD = """
import asyncio, sys
import httpx

async def main(token, urls):
    # Fifty at once, wave after wave: fifty is what one address may have open at a time here.
    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=50)) as client:
        async def one(url):
            return (await client.get(url, headers={"Authorization": "Bearer " + token})).status_code
        codes = []
        for wave in range(0, len(urls), 50):
            codes += await asyncio.gather(*[one(url) for url in urls[wave:wave + 50]])
        print(" ".join(str(code) for code in codes))

asyncio.run(main(sys.argv[1], sys.argv[2:]))
"""


def cpu_by_priority(pid: int) -> dict[int, float]:
    """CPU seconds the threads of process ``pid`` have used, by their nice value (from /proc)."""
    used: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            nice, ticks = int(fields[16]), int(fields[11]) + int(fields[12])  # nice; utime + stime
            used[nice] = used.get(nice, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
    return used


def crowd_and_probe(server: Server, paths: list[str], token: str) -> tuple[list[float], list[int]]:
    """Requests for ``paths`` all at once (from a process of their own, so reading their answers takes
    nothing from this one), and /healthz asked every 50 ms while they run: the health answers' times and the
    crowd's status codes."""
    others = subprocess.Popen([sys.executable, "-c", CROWD, token, *[server.url + path for path in paths]],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    probes: list[float] = []
    with httpx.Client(base_url=server.url, timeout=30) as prober:
        time.sleep(0.5)  # the crowd's requests have reached the server
        while others.poll() is None or len(probes) < 3:
            start = time.perf_counter()
            assert prober.get("/healthz").status_code == 200
            probes.append(time.perf_counter() - start)
            time.sleep(0.05)
    out, err = others.communicate(timeout=120)
    assert others.returncode == 0, f"the crowd failed: {err.strip()[-2000:]}"
    return probes, [int(code) for code in out.split()]


@pytest.mark.slow
def test_health_answers_while_fifty_histories_are_built(tmp_path: Path) -> None:
    # Fifty requests at once from one address: a burst the per-address limit (30 at once) would refuse.
    # The crowd's waves reuse their connections; on a loaded machine a wave took longer than the idle
    # keep-alive (5 s), so the server closed a connection just as the next wave sent on it, and that request
    # failed (CI, stop 53). Idle connections stay open here for as long as the test may take.
    server = Server(tmp_path, "--grace", "0", RUMMOLI_TAKEOVER_LEVEL="random", RUMMOLI_REQUEST_BURST="1000",
                    RUMMOLI_KEEP_ALIVE="120", RUMMOLI_REQUEST_TIMEOUT="120").start()
    try:
        created = long_evening(server)
        table, token = created["id"], created["token"]
        pages = whole_history(server, table, token, HANDS)
        assert server.get(f"/api/tables/{table}/history?count=21", token=token).status_code == 422
        # Fifty of the largest pages, each different (11 to 20 hands), asked all at once, three times over:
        # enough work that /healthz is asked a few dozen times meanwhile, even on a quiet machine.
        paths = [f"/api/tables/{table}/history?first={page['first']}&count={count}"
                 for page in pages for count in range(16, 21)]
        assert len(paths) == 50
        assert server.proc is not None
        before = cpu_by_priority(server.proc.pid)
        started = time.monotonic()
        probes, codes = crowd_and_probe(server, paths * 3, token)
        took = time.monotonic() - started
        after = cpu_by_priority(server.proc.pid)
    finally:
        server.stop()
    ranked = sorted(probes)
    median, near_all = ranked[len(ranked) // 2], ranked[int(len(ranked) * 0.95) - 1]
    print(f"150 history pages in {took:.1f} s; /healthz meanwhile: {len(probes)} answers, median "
          f"{median * 1000:.0f} ms, 95th percentile {near_all * 1000:.0f} ms, slowest {ranked[-1] * 1000:.0f} ms")
    assert codes == [200] * 150, codes
    # The pages were built in the history threads (the only ones at a lower priority), not in the event loop:
    # most of the CPU the crowd cost went to them.
    background = after.get(BACKGROUND_NICE, 0.0) - before.get(BACKGROUND_NICE, 0.0)
    everything = sum(after.values()) - sum(before.values())
    print(f"CPU meanwhile: {everything:.2f} s, {background:.2f} s of it in the history threads")
    assert background > 0.5 * everything, (background, everything)
    # A page is bounded (tens of ms to build), so even built in the loop it would not hold a probe up for long:
    # where the CPU went, above, is what shows the loop was left free. Here the loop's answers are checked for
    # their typical time: the median, not a high percentile, since under the whole suite on two shared cores a
    # few probes in twenty wait for the machine's scheduler rather than for the server (a 95th percentile of
    # 170-184 ms was seen there, with a median far under it).
    assert median < 0.1, f"/healthz took {median * 1000:.0f} ms at the median while histories were built"
    assert ranked[-1] < 1.0, f"/healthz took up to {ranked[-1] * 1000:.0f} ms while histories were built"
