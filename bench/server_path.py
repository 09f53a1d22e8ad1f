"""What a server pays per hand: the public path against the engine's own fast random path.

    python -m bench.server_path [--seconds S]

Both sides play random 4-player Rummoli (Copp Clark) hands with the same kind of random decisions (a
legal option uniformly, then an amount or a card uniformly):

* **fast path** -- ``Hand.random_step`` until the hand is over (what simulations use);
* **server path** -- what a game server does for every decision: read the action as JSON
  (``Action.from_json``), ``Hand.apply`` it, then fetch every seat's and a spectator's redacted events
  since the last ``seq`` each was sent (``Hand.events_since``).  The players' random decisions are drawn
  from ``Hand.options()`` as the fast path draws them (that is the clients' work, not the server's).

Hands per CPU-second of each, and the ratio (the target is at least 0.25), in one run.  Then the cost of
a full view (what a reconnecting seat receives) at the end of a long hand of each engine, in
microseconds (target under 100), with its size in JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from rummoli.cards import CARDS, cards_of
from rummoli.dealing import deal_with_widow
from rummoli.rummy import RummyHand, deal_cards
from rummoli.rummy import load_ruleset as load_rummy
from rummoli.stops import Action, AmountRange, Hand, load_ruleset
from rummoli.stops.actions import KINDS

PLAYERS = 4
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def new_hand(rules: Any, rng: random.Random) -> Hand:
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(PLAYERS)
    hands, widow = deal_with_widow(deck, PLAYERS, dealer)
    return Hand(rules, NAMES, [rules.starting_chips] * PLAYERS, {}, dealer, hands, widow)


def fast_hand(rules: Any, rng: random.Random) -> None:
    hand = new_hand(rules, rng)
    while not hand.over:
        hand.random_step(rng)


def server_hand(rules: Any, rng: random.Random) -> int:
    """One hand through the server's path; returns the events sent."""
    hand = new_hand(rules, rng)
    readers: list[int | None] = [*range(PLAYERS), None]
    sent = dict.fromkeys(readers, 0)
    count = 0
    while True:
        for reader in readers:
            events = hand.events_since(sent[reader], reader)
            if events:
                sent[reader] = events[-1]["seq"]
                count += len(events)
        if hand.over:
            return count
        # The players' side: a random legal decision, drawn as random_step draws it, sent as JSON.
        seat, kind, low, high, cards = rng.choice(hand.options())
        data: dict[str, Any] = {"seat": seat, "action": kind}
        if KINDS[kind] == "amount":
            data["amount"] = rng.randint(low, high)
        elif KINDS[kind] == "card":
            data["card"] = str(rng.choice(cards_of(cards)))
        hand.apply(Action.from_json(data))


def per_cpu_second(play: Any, seconds: float) -> float:
    rules = load_ruleset("rummoli")
    rng = random.Random(2026)
    done, start = 0, time.process_time()
    while True:
        for _ in range(20):
            play(rules, rng)
        done += 20
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def view_cost(hand: Any, seat: int, repeat: int = 2000) -> tuple[float, int]:
    """Microseconds per full view of ``seat`` (after the first), and the view's size in JSON."""
    hand.view(seat)
    start = time.process_time()
    for _ in range(repeat):
        hand.view(seat)
    return (time.process_time() - start) / repeat * 1e6, len(json.dumps(hand.view(seat)))


def long_stops_hand() -> Hand:
    """The longest of a few random 8-player hands (the most events), played to its end."""
    rules = load_ruleset("rummoli")
    best: Hand | None = None
    for seed in range(30):
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands, widow = deal_with_widow(deck, 8, 0)
        hand = Hand(rules, [f"P{s}" for s in range(8)], [100] * 8, {}, 0, hands, widow)
        while not hand.over:
            seat = rng.choice(hand.to_act())
            option = rng.choice(hand.legal_actions(seat))
            hand.apply(option.at(option.min) if isinstance(option, AmountRange) else option)
            hand.events_since(0, 0)
        if best is None or len(best.log) < len(hand.log):
            best = hand
    assert best is not None
    return best


def long_rummy_hand() -> RummyHand:
    """A straight Rummy hand of two players who never meld: every draw and discard until the stock
    runs dry and the pile is turned over (hundreds of actions)."""
    rules = load_rummy("rummy")
    rng = random.Random(7)
    deck = list(CARDS)
    rng.shuffle(deck)
    hands, stock = deal_cards(rules, 2, 0, deck)
    hand = RummyHand(rules, ["Ann", "Bob"], [0, 0], 0, hands, stock)
    while not hand.over:
        legal = [a for a in hand.legal_actions(hand.turn) if a.kind in ("draw", "discard")]
        hand.apply(rng.choice(legal))
        hand.events_since(0, 0)
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side (default 3)")
    args = parser.parse_args()
    fast = per_cpu_second(fast_hand, args.seconds)
    server = per_cpu_second(server_hand, args.seconds)
    print(f"Rummoli, 4 players, hands per CPU-second: fast path (random_step) {fast:,.0f}; "
          f"server path (from_json, apply, 5 readers' events_since) {server:,.0f}")
    print(f"ratio server/fast: {server / fast:.2f} (target at least 0.25)")
    stops = long_stops_hand()
    micro, size = view_cost(stops, 0)
    print(f"full view at the end of an 8-player Rummoli hand ({len(stops.log)} log entries, seq {stops.seq}): "
          f"{micro:.1f} us, {size:,} bytes of JSON")
    rummy = long_rummy_hand()
    micro, size = view_cost(rummy, 0)
    print(f"full view at the end of a Rummy hand ({len(rummy.log)} actions, seq {rummy.seq}): "
          f"{micro:.1f} us, {size:,} bytes of JSON (target under 100 us)")


if __name__ == "__main__":
    main()
