"""Stops engine speed: complete random-decision hands per second, beside OpenSpiel's C++ Hearts.

    python -m bench.stops [--seconds S]

Each hand is shuffled, dealt, anted and played to its end with uniformly random legal decisions
(the dealer's widow choice, the auction, the poker betting round, every lead), forced plays made
by the engine and logged, exactly as ``rummoli hand`` does.  Printed:

* Rummoli (Copp Clark) hands/s with 4 and 7 players, and Michigan with 4;
* OpenSpiel's Hearts (C++, driven from Python with random chance outcomes and random legal moves)
  games/s, when ``pyspiel`` imports, and our 4-player figure as a ratio of it.

Run it on an otherwise idle core; the figures are per process (one core).
"""

from __future__ import annotations

import argparse
import random
import time

from rummoli.stops import load_ruleset, random_hand


def hands_per_second(ruleset: str, players: int, seconds: float) -> tuple[float, dict[str, float]]:
    rules = load_ruleset(ruleset)
    rng = random.Random(2026)
    done = auctions = bettings = decisions = 0
    start = time.perf_counter()
    while True:
        for _ in range(50):
            hand = random_hand(rules, players, rng)
            kinds = [e[2] for e in hand.log if e[0] == "act" and not e[5]]
            decisions += len(kinds)
            auctions += "bid" in kinds or "pass" in kinds
            bettings += any(k in ("bet", "check", "call", "raise", "fold") for k in kinds)
        done += 50
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, {"auction": auctions / done, "betting": bettings / done,
                                    "decisions": decisions / done}


def hearts_games_per_second(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(2026)
    done, start = 0, time.perf_counter()
    while True:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                chance = state.is_chance_node()
                actions = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        done += 20
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stops", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    seconds = parser.parse_args().seconds
    rows: list[tuple[str, float]] = []
    for ruleset, players in (("rummoli", 4), ("rummoli", 7), ("michigan", 4)):
        rate, stats = hands_per_second(ruleset, players, seconds)
        rows.append((f"{ruleset} {players}p", rate))
        print(f"{ruleset:>10} {players} players: {rate:9,.0f} hands/s  "
              f"(auction in {stats['auction']:.0%}, betting in {stats['betting']:.0%} of hands, "
              f"{stats['decisions']:.1f} decisions a hand)", flush=True)
    hearts = hearts_games_per_second(seconds)
    if hearts is None:
        print("OpenSpiel Hearts: pyspiel is not installed (pip install open-spiel) -- no baseline")
        return
    print(f"OpenSpiel Hearts (C++, from Python): {hearts:9,.0f} games/s")
    for name, rate in rows:
        print(f"  {name} / Hearts: {rate / hearts:.2f}x")


if __name__ == "__main__":
    main()
