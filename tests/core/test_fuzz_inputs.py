"""Fuzzing ``rummoli replay`` and ``rummoli hand`` with broken records and rulesets (docs/records.md, R-NOTE-6).

Seeded, about 2,000 cases: valid records and rulesets of every built-in, bent at random -- a value of
the wrong type or size, a key lost or added, actions dropped, doubled, swapped or swapped for the other
family's, bytes cut, flipped or nested deep -- then read and replayed through the same calls the
``rummoli`` command makes (most in-process through the command itself, a few in real processes).
Each must end in a result or one clear line and a non-zero exit: never a traceback, never a hang.
What is accepted must be legal: chips kept (stops), every card in one place, each seat's stack a whole
number, and a record that replays to what it says twice over.
"""

from __future__ import annotations

import copy
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from rummoli.cli import app
from rummoli.errors import MalformedInput
from rummoli.games import game_of, replay
from rummoli.records import read_record
from rummoli.rummy import random_hand_record as rummy_record
from rummoli.rummy.ruleset import ACES, STOCK_ENDS, STYLES
from rummoli.stops import random_hand_record as stops_record
from rummoli.stops.actions import KINDS as STOPS_KINDS
from rummoli.stops.ruleset import CHOICES
from rummoli.table import Seat, Table

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261201
runner = CliRunner()

STOPS = ("rummoli", "rummoli-tripoley", "tripoley", "michigan")
RUMMY = ("rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy")
RUMMY_KINDS = ("draw", "meld", "layoff", "discard", "knock", "pass")
NASTY: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 2, 3, 7, 52, 2.5, 1.0, -0.0, 10**9, 10**10 + 1, 10**29, "", "0", "3", "Ts", "10♦",
    "zz", "As ", "x" * 3000, "../../../etc/passwd", "rummoli.toml", "/dev/zero", "michigan", "gin-rummy", [], {},
    [[]], [None], ["Ts"], ["Ts", "Ts"], {"seat": 0}, {"seat": 0, "action": "pass"}, {"game": "rummy"},
    {"game": "stops"}, [[[[[[[[[[[[1]]]]]]]]]]]], "\u0000", "\ud7ff\ue000", ["draw"],
)


class Hung(Exception):
    """A case ran past its time limit."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail a case that runs longer than ``seconds`` (a hang becomes a failure, not a stuck run)."""
    def ring(signum: int, frame: Any) -> None:
        raise Hung(f"a case ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------------------------- the corpus
def evening(ruleset: str, players: int, seed: str) -> dict[str, Any]:
    table = Table(ruleset, [Seat(f"P{i}", bot="random") for i in range(players)], seed=seed, hands=2, chips=30)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        elif not table.step():
            break
    return json.loads(json.dumps(table.evening_record()))  # type: ignore[no-any-return]


def corpus() -> list[dict[str, Any]]:
    out = [stops_record(name, n, f"fuzz-{name}-{n}") for name in STOPS for n in (3, 5)]
    out += [rummy_record(name, 2, f"fuzz-{name}") for name in RUMMY]
    out += [rummy_record(name, 4, f"fuzz-{name}-4") for name in ("rummy", "500-rum", "knock-rummy")]
    inline = stops_record({"game": "stops", "board": "tripoley", "claim": "announce", "widow": "none"}, 4, "inline")
    out.append(inline)
    out.append(evening("rummoli", 3, "fuzz"))
    out.append(evening("knock-rummy", 2, "fuzz"))
    return out


# ---------------------------------------------------------------------------------- mutations
def walk(value: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place in ``value`` (its path and what is there), the whole first, each before what it holds and in
    order. Built with a stack, not nested generators: a record is hundreds of places a few levels deep, walked at
    every change, and each place passed up through a generator per level was a tenth of this file's time."""
    out: list[tuple[tuple[Any, ...], Any]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while stack:
        here, node = stack.pop()
        out.append((here, node))
        if isinstance(node, dict):
            stack.extend(reversed([((*here, key), inner) for key, inner in node.items()]))
        elif isinstance(node, list):
            stack.extend(reversed([((*here, index), inner) for index, inner in enumerate(node)]))
    return out


def paths(value: Any) -> list[tuple[Any, ...]]:
    return [here for here, _node in walk(value)]


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def nasty(rng: random.Random) -> Any:
    return copy.deepcopy(rng.choice(NASTY)) if rng.random() < 0.8 else rng.randint(-3, 60)


def random_action(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice([*STOPS_KINDS, *RUMMY_KINDS])
    action: dict[str, Any] = {"seat": rng.randint(-1, 5), "action": kind}
    for key in rng.sample(["amount", "card", "cards", "from", "meld", "forced", "colour"], rng.randint(0, 2)):
        action[key] = rng.choice([rng.randint(0, 12), "Ts", "As", ["7s", "7h", "7d"], "stock", "discard", True])
    return action


def random_ruleset(rng: random.Random) -> Any:
    """A ruleset reference: a built-in, a path-like name, or an inline table of random options."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice([*STOPS, *RUMMY, "no-such", "../rummy", "x.toml", "/etc/passwd"])
    if roll < 0.55:
        data: dict[str, Any] = {"game": "stops"}
        for key, allowed in CHOICES.items():
            if rng.random() < 0.4:
                data[key] = rng.choice(allowed)
        for key, low, high in (("max_bet", 1, 30), ("max_raises", 0, 5), ("starting_chips", 1, 200)):
            if rng.random() < 0.3:
                data[key] = rng.randint(low, high)
        data["board"] = rng.choice(["copp-clark", "tripoley", "michigan", {"pots": [{"kind": "centre", "ante": 2},
                                    {"kind": "card", "card": "Ah"}, {"kind": "combo", "cards": ["7", "8", "9"]}]}])
    else:
        data = {"game": "rummy", "style": rng.choice(STYLES)}
        for key, allowed in (("aces", ACES), ("stock_end", STOCK_ENDS)):
            if rng.random() < 0.5:
                data[key] = rng.choice(allowed)
        for key in ("boathouse", "discard_depth", "rummy_bonus"):
            if rng.random() < 0.3:
                data[key] = rng.random() < 0.5
        if rng.random() < 0.3:
            players = rng.randint(2, 6)
            data["hand_size"] = {str(players): rng.randint(1, 52 // players)}
        for key, high in (("target", 600), ("knock_limit", 30), ("ace_value", 20)):
            if rng.random() < 0.2:
                data[key] = rng.randint(1, high)
    if rng.random() < 0.3:  # and then bent
        key = rng.choice([*data, "colour"])
        data[key] = nasty(rng)
    return data


def mutate(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One to three random changes to a deep copy of ``record`` (a record read from JSON, so copied through JSON,
    at C speed: the test checks that its records are)."""
    out = json.loads(json.dumps(record))
    for _ in range(rng.randint(1, 3)):
        places = paths(out)[1:]
        roll = rng.random()
        actions = out.get("actions") if isinstance(out.get("actions"), list) else None
        if roll < 0.35 and places:  # a value replaced
            path = rng.choice(places)
            at(out, path[:-1])[path[-1]] = nasty(rng)
        elif roll < 0.45 and places:  # a key or an item lost
            path = rng.choice(places)
            del at(out, path[:-1])[path[-1]]
        elif roll < 0.52:  # a key added
            containers = [p for p, node in walk(out) if isinstance(node, dict)]
            at(out, rng.choice(containers))[rng.choice(["colour", "seat", "forced", "amount", "stock", "widow"])] = (
                nasty(rng))
        elif roll < 0.72 and actions:  # the actions: one dropped, doubled, moved or bent
            i = rng.randrange(len(actions))
            choice = rng.randrange(4)
            if choice == 0:
                del actions[i]
            elif choice == 1:
                actions.insert(i, copy.deepcopy(actions[i]))
            elif choice == 2:
                j = rng.randrange(len(actions))
                actions[i], actions[j] = actions[j], actions[i]
            elif isinstance(actions[i], dict):
                actions[i]["seat"] = rng.choice([0, 1, 2, 3, actions[i].get("seat", 0)])
        elif roll < 0.82 and actions is not None:  # an action of either family, or of no shape at all
            actions.insert(rng.randint(0, len(actions)), random_action(rng) if rng.random() < 0.8 else nasty(rng))
        elif roll < 0.92:  # the ruleset swapped
            out["ruleset"] = random_ruleset(rng)
        elif "deal" in out and isinstance(out["deal"], dict):  # two cards of the deal swapped
            piles = [p for p, node in walk(out["deal"]) if isinstance(node, str)]
            if len(piles) > 1:
                a, b = rng.sample(piles, 2)
                here, there = at(out["deal"], a), at(out["deal"], b)
                at(out["deal"], a[:-1])[a[-1]], at(out["deal"], b[:-1])[b[-1]] = there, here
    return out


def bend_bytes(text: bytes, rng: random.Random) -> bytes:
    """Damage at the level of the bytes: cut, flipped, a BOM, bad UTF-8, deep nesting, long numbers."""
    roll = rng.randrange(7)
    if roll == 0:
        return text[: rng.randrange(len(text) + 1)]
    if roll == 1:
        i = rng.randrange(len(text))
        return text[:i] + bytes([rng.randrange(256)]) + text[i + 1:]
    if roll == 2:
        return b"\xef\xbb\xbf" + text
    if roll == 3:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + text[i:]
    if roll == 4:
        depth = rng.choice([65, 1001, 50_000])
        return text.replace(b'"actions": [', b'"actions": [' + b"[" * depth + b"]" * depth + b",", 1)
    if roll == 5:
        return text.replace(b'"chips": [', b'"chips": [' + b"9" * rng.choice([31, 5000]) + b",", 1)
    return text.replace(b'"deal": {', b'"deal": {"x": "' + b"T" * 200_000 + b'",', 1)


# ---------------------------------------------------------------------------------- the oracle
def check_accepted(record: dict[str, Any], result: dict[str, Any], again: bool = False) -> None:
    """What an accepted record must satisfy: it was legal, so the engine's invariants hold (and, ``again``,
    it replays to the same outcome once more)."""
    json.dumps(result)
    if record.get("format") == "rummoli-evening/1":
        assert all(isinstance(c, int) for c in result["chips"].values())
        return
    chips = result["chips"]
    assert len(chips) == len(record["players"]) and all(type(c) is int for c in chips)
    if game_of(record["ruleset"]) == "stops":
        before = sum(record.get("chips", [])) + sum(record.get("pots", {}).values())
        if "chips" in record:
            assert sum(chips) + sum(result["pots"].values()) == before, "chips were not conserved"
        assert all(c >= 0 for c in chips)
        laid = [e["card"] for e in result["events"] if e.get("action") in ("lead", "play")]
        assert len(laid) == len(set(laid)), "a card was laid twice"
    if again:
        assert replay(json.loads(json.dumps(record))) == result  # the same record, the same outcome


def replay_case(text: bytes, again: bool = False) -> str:
    """Read and replay a record as ``rummoli replay -`` does; returns "ok" or "refused"."""
    try:
        record = read_record(text)
        result = replay(record)
    except MalformedInput as error:
        line = str(error)
        assert "\n" not in line and len(line) < 600, line[:1000]
        return "refused"
    check_accepted(record, result, again)
    return "ok"


def cli_replay_case(text: bytes) -> str:
    result = runner.invoke(app, ["replay", "-"], input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        json.loads(result.stdout)
        return "ok"
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and len(result.stderr) < 600, result.stderr
    return "refused"


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def toml_text(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(str(k))} = {toml_value(v)}\n" for k, v in data.items() if v is not None and
                   not (isinstance(v, list) and None in v))


def hand_case(ruleset: Any, players: int, seed: str, folder: Path, number: int) -> str:
    """``rummoli hand`` with a ruleset (a name, or a file written from a table); "ok" or "refused"."""
    if isinstance(ruleset, dict):
        path = folder / f"r{number}.toml"
        path.write_text(toml_text(ruleset), encoding="utf-8")
        option = str(path)
    else:
        option = str(ruleset)
    result = runner.invoke(app, ["hand", "--ruleset", option, "--players", str(players), "--seed", seed])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code != 0:
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and len(result.stderr) < 600, result.stderr
        return "refused"
    record = json.loads(result.stdout)
    check_accepted(record, replay(record))
    return "ok"


def test_R_NOTE_6_fuzzed_records_and_rulesets_never_crash_hang_or_pass_as_legal(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # typer's runner makes the app's click command afresh at every call, from the type hints of every command: 600
    # calls spent a third of this test doing it. Made once here, it is the command each call would make.
    command = typer.main.get_command(app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda given: command if given is app else
                        typer.main.get_command(given))
    rng = random.Random(SEED)
    base = corpus()
    assert all(json.loads(json.dumps(r)) == r for r in base)  # so mutate copies them exactly through JSON
    texts = [json.dumps(r, ensure_ascii=False).encode() for r in base]
    tally: dict[str, int] = {}
    for number in range(2000):
        with time_limit(30):  # a hang guard, far above any case's time (a few ms each)
            kind = number % 10
            if kind < 6:  # a bent record, replayed in-process
                bent = json.dumps(mutate(rng.choice(base), rng), ensure_ascii=False).encode()
                outcome = replay_case(bent, again=number % 4 == 0)
                what = "record"
            elif kind < 7:  # damaged bytes
                outcome = replay_case(bend_bytes(rng.choice(texts), rng))
                what = "bytes"
            elif kind < 8:  # through the command itself
                sample = rng.choice(base)
                text = (json.dumps(mutate(sample, rng)).encode() if rng.random() < 0.7
                        else bend_bytes(json.dumps(sample).encode(), rng))
                outcome = cli_replay_case(text)
                what = "cli-replay"
            else:  # a random ruleset through `rummoli hand`
                outcome = hand_case(random_ruleset(rng), rng.randint(2, 8), str(number), tmp_path, number)
                what = "cli-hand"
        tally[f"{what} {outcome}"] = tally.get(f"{what} {outcome}", 0) + 1
    # Both outcomes must be common, or the fuzz is not testing what it claims to.
    for what in ("record", "bytes", "cli-replay", "cli-hand"):
        assert tally.get(f"{what} refused", 0) > 20, tally
    for what in ("record", "cli-hand"):
        assert tally.get(f"{what} ok", 0) > 20, tally


def test_R_NOTE_6_fuzzed_inputs_in_real_processes(tmp_path: Path) -> None:
    """A few of the same cases through the installed command in real processes (stdin, files, exit codes)."""
    rng = random.Random(SEED + 1)
    base = corpus()[:6]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for number in range(4):
        text = json.dumps(mutate(rng.choice(base), rng)).encode()
        if number % 2:
            text = bend_bytes(text, rng)
        path = tmp_path / f"case{number}.json"
        path.write_bytes(text)
        for args, stdin in ((["replay", str(path)], None), (["replay", "-"], text)):
            done = subprocess.run([sys.executable, "-m", "rummoli.cli", *args], input=stdin, capture_output=True,
                                  timeout=60, env=env, cwd=ROOT)
            assert b"Traceback" not in done.stderr, done.stderr[-2000:]
            assert done.returncode in (0, 1), done.stderr[-500:]
            assert done.returncode == 0 or done.stderr.count(b"\n") == 1, done.stderr[-500:]
    ruleset = tmp_path / "fuzz.toml"
    ruleset.write_text(toml_text({"game": "rummy", "style": "500", "boathouse": True}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rummoli.cli", "hand", "--ruleset", str(ruleset), "--players", "2",
                           "--seed", "26"], capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
