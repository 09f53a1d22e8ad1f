"""The bot attack of issue 38, in a throwaway server: four tables whose inline ruleset sits at the documented
limits (a thousand raises, bets up to a million, 10^9 chips) with seven hard bots each, their creators gone, beside
one ordinary Rummoli table of easy and normal bots. A spectator at every table times each bot move: the seconds
from the update that asked a bot to act to the update that shows its move (the bots' pace included). Printed per
table with the median, the 95th percentile and the longest; the server's deadline plus the pace plus half a second
is the bound every move should keep.

Run by ``python -m bench.hostile`` after its evenings (``--bot-attack SECONDS``; 0 leaves it out).
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from server_helpers import Client, Server

from rummoli.datafiles import read_builtin
from rummoli.limits import MAX_BET, MAX_START_CHIPS

PACE = 0.3  # the bots' pace in the throwaway server, seconds
SLACK = 0.5


def limits_ruleset() -> dict[str, Any]:
    """Rummoli at the documented limits: what the attack's tables are made of."""
    rules = dict(read_builtin("rummoli") or {})
    rules.update(name="limits", max_raises=1000, max_bet=MAX_BET, starting_chips=MAX_START_CHIPS)
    return rules


def watch(client: Client, until: float, gaps: list[float]) -> None:
    """Time every bot move the spectator ``client`` sees until the monotonic time ``until`` (or the evening's end);
    a move still awaited at the end counts with the time waited so far."""
    asked = time.monotonic()
    waiting = bool(client.view.get("to_act"))
    while time.monotonic() < until and not client.view.get("over"):
        try:
            message = client.recv(max(0.05, until - time.monotonic()))
        except TimeoutError:
            break
        if message["type"] not in ("welcome", "update"):
            continue
        now = time.monotonic()
        if waiting:
            gaps.append(now - asked)
        asked, waiting = now, bool(client.view.get("to_act"))
    if waiting and not client.view.get("over"):  # a move still awaited when the attack ends took at least this long
        gaps.append(time.monotonic() - asked)


def summary(name: str, gaps: list[float], bound: float) -> str:
    if not gaps:
        return f"  {name:<12} no bot move seen"
    ranked = sorted(gaps)
    p95 = ranked[max(0, int(len(ranked) * 0.95) - 1)]
    over = sum(1 for g in gaps if g > bound)
    return (f"  {name:<12} {len(gaps):>5} moves   median {statistics.median(gaps):6.2f} s   p95 {p95:6.2f} s   "
            f"longest {max(gaps):6.2f} s   over {bound:.1f} s: {over}")


def bot_attack(seconds: float, deadline: float = 2.0) -> bool:
    """Run the attack for ``seconds`` and print each table's decision times; True when every move kept the bound."""
    bound = PACE + deadline + SLACK
    with tempfile.TemporaryDirectory(prefix="rummoli-bot-attack-") as folder:
        server = Server(Path(folder), "--bot-pace", str(PACE), "--grace", "1",
                        RUMMOLI_BOT_DEADLINE=str(deadline)).start()
        try:
            tables = {f"limits-{k + 1}": server.create(ruleset=limits_ruleset(), seats=[{}] + [{"bot": "hard"}] * 7,
                                                        seed=f"attack-{k}")["id"] for k in range(4)}
            time.sleep(2)  # the creators are gone: bots take their seats, and the hard bots start thinking
            tables["ordinary"] = server.create(ruleset="rummoli", seed="ordinary",
                                               seats=[{}, {"bot": "easy"}, {"bot": "normal"}, {"bot": "easy"}])["id"]
            gaps: dict[str, list[float]] = {name: [] for name in tables}
            until = time.monotonic() + seconds
            watchers = [threading.Thread(target=watch, args=(server.client(table), until, gaps[name]), daemon=True)
                        for name, table in tables.items()]
            for thread in watchers:
                thread.start()
            for thread in watchers:
                thread.join(seconds + 30)
        finally:
            server.stop()
    print(f"bot attack: {seconds:.0f} s, server deadline {deadline:.1f} s, bots' pace {PACE} s "
          f"(bound per move {bound:.1f} s)")
    for name, seen in gaps.items():
        print(summary(name, seen, bound))
    return all(g <= bound for seen in gaps.values() for g in seen)
