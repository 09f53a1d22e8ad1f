"""The widow, its auction and the poker round of a random stops hand in one call (issue 34).

Before the play round a random Rummoli hand makes a dozen decisions, each worked out, drawn and made through
:class:`~rummoli.stops.hand.Hand`'s general machinery (options as tuples, ``_do``, ``_move``): half the hand's
time.  :func:`bid_random_pure` takes the same steps in one loop over plain numbers, drawing exactly as
:meth:`~rummoli.stops.random_path.RandomPath.random_step` draws (an option by ``rng.choice``, then an amount by
``rng.randint``, both through the generator's ``getrandbits`` as ``random.Random._randbelow`` does) and logging
what ``_do``, ``_swap``, ``_move`` and ``_betting`` log; :func:`bid_random` is its compiled twin
(``rummoli/_speedups.c``).  tests/stops/test_stops_bidding.py holds the two together, and
tests/stops/test_stops_outputs.py holds the random path to what the engine showed before either existed.

The loop itself is :func:`bid_loop`, which takes its decider: the random draws above, or a searching bot's rules
of thumb (:mod:`rummoli.bots.stops_rollout`, with its own compiled twin): whoever decides, this fast loop over
the phases' rules exists once in Python and once in C (``bid_core``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from rummoli.shuffling import below
from rummoli.stops.base import IN_WIDOW
from rummoli.stops.ruleset import Ruleset
from rummoli.twins import compiled

__all__ = ["BID_WORDS", "BidNow", "Decide", "bid_loop", "bid_random", "bid_random_pure", "bid_table"]

# The kinds of decision, as the twins number them (their words in BID_WORDS from index 3).
KEEP, SWAP, PASS, BID, CHECK, BET, CALL, FOLD, RAISE = range(9)
#: The words of the log entries the twins make, the very objects the rest of the engine logs.
BID_WORDS: Final = ("act", "chips", "widow_bid", "keep", "swap", "pass", "bid", "check", "bet", "call", "fold",
                    "raise")
#: The phases as the twins number them: the widow choice, the auction, the poker round.
WIDOW_CHOICE, AUCTION_BIDS, POKER_ROUND = range(3)
#: What the twins return: the hand went on to the play round with no poker round, or the poker round is over.
TO_PLAY, BETTING_OVER = range(2)


def bid_table(rules: Ruleset, n: int, dealer: int, pay_mask: int) -> tuple[int, ...]:
    """The ruleset's numbers as the twins take them: ``(n, dealer, max_bet, max_raises, widow barred to pay-card
    holders, pay-card mask, poker pot index or -1 when there is no poker round before the play)``."""
    board_poker = rules.board.poker
    poker = board_poker if rules.poker == "before_play" and board_poker is not None else -1
    return (n, dealer, rules.max_bet, rules.max_raises, int(rules.widow_bar == "pay_card_holders"), pay_mask,
            poker)


#: A decider of :func:`bid_loop`: given the phase, the seat to act, its options (``(kind, lowest, highest)``, the
#: amounts of a bid, bet or raise) and the numbers of the moment (:class:`BidNow`), the ``(kind, amount)`` it makes.
Decide = Callable[[int, int, list[tuple[int, int, int]], "BidNow"], tuple[int, int]]


class BidNow:
    """What a decider of :func:`bid_loop` may read of the moment: the poker round's level and each seat's share
    of it (``puts``), the folded seats (a bit set), the poker pot, and each seat's cards."""

    __slots__ = ("folded", "held", "level", "pot", "puts")

    def __init__(self, level: int, puts: list[int], folded: int, pot: int, held: list[int]) -> None:
        self.level, self.puts, self.folded, self.pot, self.held = level, puts, folded, pot, held


def bid_random_pure(getrandbits: Callable[[int], int], state: list[int], chips: list[int], pots: list[int],
                    hands: list[int], owner: list[int], log: list[tuple[Any, ...]], put: list[int],
                    start_stack: list[int], table: tuple[int, ...], words: tuple[Any, ...]) -> int:
    """Make random decisions, and the forced ones between them, from the widow choice, the auction or the poker
    round until the hand goes on to the play round (:data:`TO_PLAY`) or the poker round ends
    (:data:`BETTING_OVER`: the pot is not yet paid).  ``state`` is ``[phase, turn, bid, bidder, passed, level,
    cap, raises, folded, swapped, given_up]``, read and written back; ``table`` is :func:`bid_table`'s.  The
    lists are written only when the call succeeds (a draw that fails leaves them as they were)."""

    def drawn(phase: int, seat: int, opts: list[tuple[int, int, int]], now: BidNow) -> tuple[int, int]:
        # as RandomPath._random_decision draws: rng.choice, then rng.randint for an amount
        kind, low, high = opts[below(getrandbits, len(opts))]
        return kind, low + below(getrandbits, high - low + 1) if kind in (BID, BET, RAISE) else -1

    return bid_loop(drawn, state, chips, pots, hands, owner, log, put, start_stack, table, words)


def bid_loop(decide: Decide, state: list[int], chips: list[int], pots: list[int], hands: list[int],
             owner: list[int], log: list[tuple[Any, ...]], put: list[int], start_stack: list[int],
             table: tuple[int, ...], words: tuple[Any, ...]) -> int:
    """The widow choice, the auction and the poker round with every choice made by ``decide`` (a forced one,
    the only option, made here with amount 0), moved and logged as ``Hand._do``, ``_swap``, ``_move`` and
    ``_betting`` would: :func:`bid_random_pure` with its decisions drawn, and the searching bot's rollouts
    (:mod:`rummoli.bots.stops_rollout`) with theirs by the rules of thumb.  Arguments and result as
    :func:`bid_random_pure`'s."""
    n, dealer, max_bet, max_raises, barred, pay_mask, poker = table
    act, chips_word, widow_bid = words[0], words[1], words[2]
    kinds = words[3:]
    phase, turn, bid, bidder, passed, level, cap, raises, folded, swapped, given_up = state
    mine, puts, stack, held = list(chips), list(put), list(start_stack), list(hands)
    pot = pots[poker] if poker >= 0 else 0
    entries: list[tuple[Any, ...]] = []
    took = False  # whether the widow changed hands in this call
    everyone = (1 << n) - 1
    while True:
        seat = turn
        if phase == POKER_ROUND:
            if puts[seat] == level:
                opts = [(CHECK, 0, 0)]
                if level == 0 and cap > 0:
                    opts.append((BET, 1, min(max_bet, cap)))
            else:
                opts = [(CALL, 0, 0), (FOLD, 0, 0)]
                if raises < max_raises and cap > level:
                    opts.append((RAISE, 1, min(max_bet, cap - level)))
        elif phase == AUCTION_BIDS:
            opts = [(PASS, 0, 0)]
            if not (barred and held[seat] & pay_mask) and mine[seat] > bid:
                opts.append((BID, bid + 1, mine[seat]))
        else:
            opts = [(KEEP, 0, 0)]
            if not (barred and held[seat] & pay_mask):
                opts.append((SWAP, 0, 0))
        if len(opts) == 1:  # forced: made as Hand._settle_forced makes it
            kind, amount, forced = opts[0][0], 0, True
        else:
            kind, amount = decide(phase, seat, opts, BidNow(level, puts, folded, pot, held))
            forced = False
        entries.append((act, seat, kinds[kind], -1, amount, forced))
        winner = -1  # who takes the widow now (Bidding._swap)
        if phase == POKER_ROUND:  # Bidding._betting
            alive_before = everyone & ~folded
            if kind in (BET, RAISE):
                add = (level - puts[seat]) + amount
                level += amount
                if kind == RAISE:
                    raises += 1
                puts[seat] += add
                mine[seat] -= add
                pot += add
                entries.append((chips_word, seat, -1 - poker, add, kinds[BET]))
                passed = alive_before & ~(1 << seat)
            else:
                if kind == CALL:
                    add = level - puts[seat]
                    puts[seat] += add
                    if add > 0:
                        mine[seat] -= add
                        pot += add
                        entries.append((chips_word, seat, -1 - poker, add, kinds[BET]))
                elif kind == FOLD:
                    folded |= 1 << seat
                    cap = min(stack[s] for s in range(n) if not folded >> s & 1)
                passed &= ~(1 << seat)
            alive = everyone & ~folded
            if alive & (alive - 1) == 0 or not passed:
                status = BETTING_OVER
                break
            for k in range(1, n):
                nxt = (seat + k) % n
                if passed >> nxt & 1:
                    turn = nxt
                    break
            continue
        if kind == SWAP:
            winner = seat
        else:
            if kind == KEEP:
                phase, turn, passed = AUCTION_BIDS, dealer, 1 << dealer
            elif kind == BID:
                bid, bidder = amount, seat
            else:
                passed |= 1 << seat
            others = everyone & ~passed  # Bidding._next_bidder
            if bidder >= 0:
                others &= ~(1 << bidder)
            if others:
                for _ in range(n):
                    turn = (turn + 1) % n
                    if others >> turn & 1:
                        break
                continue
            if bidder >= 0:
                if bid > 0:
                    mine[bidder] -= bid
                    mine[dealer] += bid
                    entries.append((chips_word, bidder, dealer, bid, widow_bid))
                winner = bidder
        if winner >= 0:
            old = held[winner]
            widow = old ^ ((1 << 52) - 1)
            for m in held:
                widow &= ~m
            held[winner] = widow
            swapped, given_up, took = winner, old, True
            entries.append((kinds[SWAP], winner))
        if poker < 0:  # Bidding._begin_poker: no poker round, on to the play
            status = TO_PLAY
            break
        phase, stack, cap, puts = POKER_ROUND, list(mine), min(mine), [0] * n
        level = raises = folded = 0
        passed, turn = everyone, (dealer + 1) % n
    if took:
        for c, holder in ((held[swapped], swapped), (given_up, IN_WIDOW)):
            while c:
                low = c & -c
                owner[low.bit_length() - 1] = holder
                c ^= low
    log.extend(entries)
    chips[:], hands[:], put[:], start_stack[:] = mine, held, puts, stack
    if poker >= 0:
        pots[poker] = pot
    state[:] = [phase, turn, bid, bidder, passed, level, cap, raises, folded, swapped, given_up]
    return status


#: :func:`bid_random_pure`, compiled where it could be.
bid_random: Callable[..., int] = compiled("bid_random") or bid_random_pure
