"""The decisions of a ``hard`` rollout before the play round, in one call (issue 34).

A rollout finishes a sampled hand with the rules of thumb: the widow choice and the auction by the family's widow
test (:func:`~rummoli.bots.stops_policy.dreadful`), the poker round by :func:`bet_choice`, and the seats the search
does not believe (``wild``) betting at random.  Step by step through :class:`~rummoli.stops.Hand` these decisions
were about two fifths of a world's time, each a list of options, a dict and an engine step for a hand that is
thrown away.  :func:`bid_policy_pure` makes the same decisions inside the engine's own loop over plain numbers
(:func:`~rummoli.stops.random_bidding.bid_loop`, which the random fast path plays by too); :func:`bid_policy` is
its compiled twin (``rummoli/_speedups.c``).  tests/bots/test_stops_rollout.py holds both to the step-by-step
rollout (:func:`rummoli.bots.stops_search.policy_step`) on worlds of every built-in ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from random import Random
from typing import Any

from rummoli.bots.stops_policy import Table, dreadful, easy_bet, hand_percentile
from rummoli.shuffling import below
from rummoli.stops.hand import Hand
from rummoli.stops.random_bidding import (
    AUCTION_BIDS,
    BET,
    BID,
    CALL,
    CHECK,
    FOLD,
    KEEP,
    PASS,
    POKER_ROUND,
    RAISE,
    SWAP,
    BidNow,
    bid_loop,
)
from rummoli.twins import compiled

_KINDS = {"check": CHECK, "bet": BET, "call": CALL, "fold": FOLD, "raise": RAISE}


def facing_a_bet(to_call: int, others: int, doubted: int, to_calls: Iterable[int]) -> bool:
    """Whether a seat that must add ``to_call`` with ``others`` still in faces a bet it believes: a level that a
    seat in the bit set ``doubted`` has put in (its own ``to_calls`` entry, seat by seat, is 0) is no sign of a
    hand."""
    return to_call > 0 and others >= 1 and not any(doubted >> s & 1 and owed == 0 for s, owed in enumerate(to_calls))


def bet_chance(pct: float, others: int, facing: bool) -> float:
    """The chance a seat of a rollout gives its hand in the poker round: its percentile ``pct`` against the
    ``others`` still in, or, ``facing`` a bet it believes (:func:`facing_a_bet`), against a hand that bets (the
    top sixth or so at a four-seat table), not a random one."""
    if facing:
        return pct ** (others - 1) * min(1.0, max(0.0, (pct - 0.8) / 0.2))
    return pct ** max(1, others)


def bet_choice(p: float, can_check: bool, bet: tuple[int, int] | None, raise_: tuple[int, int] | None,
               to_call: int, pot: int) -> tuple[str, int]:
    """A rollout's poker decision from ``p`` (:func:`bet_chance`): :func:`easy_bet`, except that a fold
    calls when the pot's odds are worth it."""
    kind, amount = easy_bet(p, can_check, bet, raise_, to_call)
    if kind == "fold" and p * (pot + to_call) >= 1.2 * to_call:
        return "call", amount
    return kind, amount


def bid_policy_pure(getrandbits: Callable[[int], int] | None, policy: tuple[Any, ...], state: list[int],
                    chips: list[int], pots: list[int], hands: list[int], owner: list[int],
                    log: list[tuple[Any, ...]], put: list[int], start_stack: list[int], table: tuple[int, ...],
                    words: tuple[Any, ...]) -> int:
    """:func:`~rummoli.stops.random_bidding.bid_loop` with a rollout's decisions: ``policy`` is ``(percentile,
    widow_test, wild, doubted)``: a hand's poker percentile and whether the widow test finds it dreadful (both
    functions of a card mask), the seats that bet at random in the poker round (drawing through
    ``getrandbits`` as :func:`~rummoli.bots.stops_search.wild_bet` draws; none without a generator) and the
    seats whose bets say nothing of their cards (a bit set each).  The other arguments and the result are
    :func:`~rummoli.stops.random_bidding.bid_random_pure`'s."""
    percentile, widow_test, wild, doubted = policy
    n = table[0]
    if getrandbits is None:
        wild = 0

    def decide(phase: int, seat: int, opts: list[tuple[int, int, int]], now: BidNow) -> tuple[int, int]:
        if phase == POKER_ROUND:
            if wild >> seat & 1:  # uniform over the actions, every amount of a bet or raise one of them
                assert getrandbits is not None
                pick = below(getrandbits, sum(high - low + 1 if kind in (BET, RAISE) else 1
                                              for kind, low, high in opts))
                for kind, low, high in opts:
                    count = high - low + 1 if kind in (BET, RAISE) else 1
                    if pick < count:
                        return kind, low + pick if kind in (BET, RAISE) else 0
                    pick -= count
            puts, level, folded = now.puts, now.level, now.folded
            others = sum(1 for s in range(n) if s != seat and not folded >> s & 1)
            to_call = level - puts[seat]
            facing = facing_a_bet(to_call, others, doubted, (level - put for put in puts))
            ranges = {kind: (low, high) for kind, low, high in opts}
            word, amount = bet_choice(bet_chance(percentile(now.held[seat]), others, facing), CHECK in ranges,
                                      ranges.get(BET), ranges.get(RAISE), to_call, now.pot)
            return _KINDS[word], amount
        if phase == AUCTION_BIDS:
            bid = opts[1] if len(opts) > 1 else None
            if bid is not None and bid[1] <= 2 and widow_test(now.held[seat]):
                return BID, bid[1]
            return PASS, 0
        return (SWAP, 0) if len(opts) > 1 and widow_test(now.held[seat]) else (KEEP, 0)

    return bid_loop(decide, state, chips, pots, hands, owner, log, put, start_stack, table, words)


#: :func:`bid_policy_pure`, compiled where it could be (rummoli.twins)
bid_policy: Callable[..., int] = compiled("bid_policy") or bid_policy_pure


def rollout_bidding(hand: Hand, t: Table, wild: int = 0, rng: Random | None = None, doubted: int = 0) -> None:
    """Make a rollout's decisions from the widow choice, the auction or the poker round to the play round, as
    :func:`~rummoli.bots.stops_search.policy_step` (and ``wild_bet`` for the ``wild`` seats, drawing from
    ``rng``) would one by one, forced ones included; the hand is then at the start of its play round."""
    getrandbits = rng.getrandbits if rng is not None and wild else None
    policy = (hand_percentile, partial(dreadful, t), wild if getrandbits is not None else 0, doubted | wild)
    hand.bid_with(partial(bid_policy, getrandbits, policy))
