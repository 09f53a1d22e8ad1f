"""What a server pays per hand: the public path against the engine's own fast random path.

    python -m bench.server_path [--seconds S]

Both sides play random 4-player Rummoli (Copp Clark) hands with the same kind of random decisions (a
legal option uniformly, then an amount or a card uniformly):

* **fast path** -- ``Hand.random_step`` until the hand is over (what simulations use);
* **server path** -- what a game server does for every decision: read the action as JSON
  (``Action.from_json``), ``Hand.apply`` it, then fetch every seat's and a spectator's redacted events
  since the last ``seq`` each was sent (``Hand.events_since``).  The players' random decisions are drawn
  from ``Hand.options()`` as the fast path draws them (that is the clients' work, not the server's).

Hands per CPU-second of each, and the ratio (the target is at least 0.25), in one run: the two sides take
turns of 20 hands, so that the rest of the machine's load weighs on both alike.  Then the cost of a full
view (what a reconnecting seat receives) at every point of a long hand of each engine, in microseconds
(target under 100), with its largest size in JSON: each point's least time over three replays of the hand.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator
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


def race(seconds: float) -> tuple[float, float]:
    """Hands per CPU-second of the fast path and of the server path, measured in turns of 20 hands each
    (so whatever else the machine runs weighs on both alike) until each has had ``seconds``."""
    rules = load_ruleset("rummoli")
    sides = [(fast_hand, random.Random(2026)), (server_hand, random.Random(2026))]
    done, spent = [0, 0], [0.0, 0.0]
    while min(spent) < seconds:
        for k, (play, rng) in enumerate(sides):
            start = time.process_time()
            for _ in range(20):
                play(rules, rng)
            spent[k] += time.process_time() - start
            done[k] += 20
    return done[0] / spent[0], done[1] / spent[1]


def view_costs(play: Callable[[], Iterator[Any]], replays: int = 3, repeat: int = 20) -> dict[str, Any]:
    """The cost of a full view at every point of a hand (``play()`` yields it after each action): for
    the seat to act and for a spectator, the first view after the action (it catches up on what is new)
    and the mean of ``repeat`` more.  The hand is played ``replays`` times and each point keeps its least
    time (what other processes do can only add to a timing of tens of microseconds, often several times
    over on a shared machine)."""
    first: dict[tuple[int, int | None], list[float]] = {}
    again: dict[tuple[int, int | None], list[float]] = {}
    size = entries = 0
    for _ in range(replays):
        for point, hand in enumerate(play()):
            for seat in (*hand.to_act()[:1], None):
                start = time.process_time()
                view = hand.view(seat)
                middle = time.process_time()
                for _ in range(repeat):
                    hand.view(seat)
                end = time.process_time()
                first.setdefault((point, seat), []).append((middle - start) * 1e6)
                again.setdefault((point, seat), []).append((end - middle) / repeat * 1e6)
                size = max(size, len(json.dumps(view)))
            entries = hand.seq
    firsts = sorted(min(v) for v in first.values())
    return {"first": firsts[-1], "typical": statistics.median(firsts), "again": max(min(v) for v in again.values()),
            "size": size, "seq": entries, "views": len(firsts)}


def long_stops_hand() -> Callable[[], Iterator[Hand]]:
    """The longest of a few random 8-player hands (the most events), after each of its actions."""
    rules = load_ruleset("rummoli")

    def play(seed: int) -> Iterator[Hand]:
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands, widow = deal_with_widow(deck, 8, 0)
        hand = Hand(rules, [f"P{s}" for s in range(8)], [100] * 8, {}, 0, hands, widow)
        yield hand
        while not hand.over:
            seat = rng.choice(hand.to_act())
            option = rng.choice(hand.legal_actions(seat))
            hand.apply(option.at(option.min) if isinstance(option, AmountRange) else option)
            yield hand

    longest = max(range(30), key=lambda seed: deque(play(seed), maxlen=1)[0].seq)
    return lambda: play(longest)


def long_rummy_hand() -> Iterator[RummyHand]:
    """A straight Rummy hand of two players who never meld, after each action: every draw and discard
    until the stock runs dry and the pile is turned over (hundreds of actions)."""
    rules = load_rummy("rummy")
    rng = random.Random(7)
    deck = list(CARDS)
    rng.shuffle(deck)
    hands, stock = deal_cards(rules, 2, 0, deck)
    hand = RummyHand(rules, ["Ann", "Bob"], [0, 0], 0, hands, stock)
    yield hand
    while not hand.over:
        legal = [a for a in hand.legal_actions(hand.turn) if a.kind in ("draw", "discard")]
        hand.apply(rng.choice(legal))
        yield hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side (default 3)")
    args = parser.parse_args()
    fast, server = race(args.seconds)
    print(f"Rummoli, 4 players, hands per CPU-second: fast path (random_step) {fast:,.0f}; "
          f"server path (from_json, apply, 5 readers' events_since) {server:,.0f}")
    print(f"ratio server/fast: {server / fast:.3f} (target at least 0.25)")
    # The first view in a process loads the built-in rulesets once (to name the one in play): not a view's cost.
    deque(long_rummy_hand(), maxlen=1)[0].view(0)
    for name, play in (("an 8-player Rummoli hand", long_stops_hand()), ("a 2-player Rummy hand", long_rummy_hand)):
        cost = view_costs(play)
        print(f"full view at every point of {name} (to seq {cost['seq']}; {cost['views']} views: the seat to "
              f"act's and a spectator's): the first after an action at most {cost['first']:.1f} us (median "
              f"{cost['typical']:.1f}), again {cost['again']:.1f} us at most; at most {cost['size']:,} bytes "
              f"of JSON (target under 100 us)")

if __name__ == "__main__":
    main()
