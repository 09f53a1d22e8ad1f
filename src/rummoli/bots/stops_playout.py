"""The play round of a ``hard`` rollout, played on a few local masks and numbers.

A rollout plays the rest of a sampled hand with the rules of thumb, and most of its cards are laid in
the play round, nearly all of them forced.  Through :class:`~rummoli.stops.Hand` each card costs a
log entry, the state's attribute updates and a settle loop, all for a hand that is thrown away:
:func:`play_round` plays the same round on copies of the hands, chips and pots and returns only the
chips and pots at the end.  It reads the rules the engine reads (the restart rule is the engine's own
:func:`~rummoli.stops.play.restart_leads`), and tests/bots/test_stops_playout.py holds it to the
engine's results on many seeded hands of every built-in ruleset.

Every seat leads as the ``normal`` level does, from its own cards and the cards played (:func:`lead_choice`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummoli.bots.stops_infer import counted_lead_score
from rummoli.bots.stops_policy import Table
from rummoli.poker import evaluate_mask
from rummoli.stops.base import PLAYED
from rummoli.stops.hand import Hand
from rummoli.stops.play import RESTART_MODES, board_tables, restart_leads
from rummoli.twins import compiled

ACES = 1 << 12 | 1 << 25 | 1 << 38 | 1 << 51  # the top of each suit: a run stops there


class Seen:
    """What a seat of a rollout counts (the cards played, its own hand): enough for the ``normal``
    lead score, with every unseen card equally likely to be in the widow (``pw``)."""

    __slots__ = ("hand", "played", "pots", "pw", "t")

    def __init__(self, t: Table, hand: int, played: int, pots: list[int], pw: float) -> None:
        self.t, self.hand, self.played, self.pots, self.pw = t, hand, played, pots, pw

    def widow_certain(self) -> int:
        return 0

    def p_widow(self, card: int) -> float:
        return self.pw


def lead_choice(t: Table, held: int, played: int, pots: list[int], widow: int, options: int) -> int:
    """The ``normal`` level's lead among ``options`` for a seat holding ``held``, with ``widow`` cards
    in the widow: the best counted score, the lowest card on ties."""
    unseen = 52 - held.bit_count() - played.bit_count()
    seen = Seen(t, held, played, pots, widow / unseen if unseen else 0.0)
    best, best_score = -1, -1e18
    m = options
    while m:
        low = m & -m
        c = low.bit_length() - 1
        s = counted_lead_score(seen, c)  # type: ignore[arg-type]
        if s > best_score:
            best, best_score = c, s
        m ^= low
    return best


def play_round(hand: Hand, t: Table, first: int = -1) -> tuple[list[int], list[int]]:
    """The chips and pots at the end of ``hand``, its play round played out by :func:`lead_choice` for
    every seat; ``first`` (a card index) is the lead of the seat to act, if given.

    ``hand`` must be in the play round at a lead with no claim open (the state the engine settles at,
    and where a searching bot decides); it is not changed.  A claim under ``claim = announce`` is made
    at once, as the rollouts' rules of thumb do, so it pays as ``automatic`` would.  The cards are laid by
    the compiled ``lay_round`` (``rummoli/_speedups.c``) where it was built, else by :func:`play_round_pure`:
    the same leads, the same payments (tests/bots/test_stops_playout.py holds the two equal)."""
    if _lay_round is None:
        return play_round_pure(hand, t, first)
    rules = hand.rules
    plan = _plans.get((id(rules), id(t)))
    if plan is None or plan[0] is not rules or plan[1] is not t:
        plan = (rules, t, round_plan(t))
        if len(_plans) > 256:
            _plans.clear()
        _plans[(id(rules), id(t))] = plan  # the entry keeps rules and table alive: their ids are not reused
    chips, pots = list(hand.chips), list(hand.pots)
    _lay_round(list(hand.hands), chips, pots, hand.owner, hand.turn, hand.lead_mask, first, plan[2])
    if rules.poker == "after_play" and t.poker is not None:
        _pay_poker(hand, t, chips, pots)
    return chips, pots


def round_plan(t: Table) -> tuple[Any, ...]:
    """What the compiled play round reads of a ruleset (``t.rules``) and its bot table, as numbers: the board's
    tables (the pots each card wins when laid, the pay-card mask), the restart and lead rules, how a seat that
    cannot lead pays, the centre pot, the leftover rule, what :func:`counted_lead_score` reads (the card pots
    in the table's order, whether cards pay when laid, the pay cards and the combos) and the owner of a played
    card."""
    rules = t.rules
    card_pots, combo_end, _ = board_tables(rules.board)
    paying = t.lay_pays if rules.pay == "on_play" else 0
    return (card_pots, combo_end, paying, RESTART_MODES[(rules.restart, rules.lead)],
            rules.cannot_lead == "pay_and_pass", t.centre, rules.leftover == "pay", tuple(t.card_pots.items()),
            rules.pay == "on_play", t.pay_mask, tuple(m for _, masks in t.combos for m in masks), PLAYED)


_plans: dict[tuple[int, int], tuple[Any, Table, tuple[Any, ...]]] = {}
_lay_round: Callable[..., None] | None = compiled("lay_round")
#: whether the play round is laid by its compiled twin
COMPILED = _lay_round is not None


def _pay_poker(hand: Hand, t: Table, chips: list[int], pots: list[int]) -> None:
    """The poker pot after the play round (``poker = after_play``): the best hand of five at the start of it."""
    n = hand.n
    start = hand.play_start
    values = [evaluate_mask(start[s]) for s in range(n)]
    best = max(values)
    winners = [s for s in range(n) if values[s] == best]
    share = pots[t.poker or 0] // len(winners)
    for s in winners:
        chips[s] += share
        pots[t.poker or 0] -= share


def play_round_pure(hand: Hand, t: Table, first: int = -1) -> tuple[list[int], list[int]]:
    """:func:`play_round` in Python: the reference its compiled twin keeps to."""
    rules = hand.rules
    n = hand.n
    hands, chips, pots, owner = list(hand.hands), list(hand.chips), list(hand.pots), list(hand.owner)
    card_pots, combo_end, _ = board_tables(rules.board)
    paying = t.lay_pays if rules.pay == "on_play" else 0
    restart, lead_rule = rules.restart, rules.lead
    pay_to_pass = rules.cannot_lead == "pay_and_pass"
    centre = t.centre
    played = held_all = 0
    for c in range(52):
        if owner[c] == PLAYED:
            played |= 1 << c
    for m in hands:
        held_all |= m
    widow = 52 - held_all.bit_count() - played.bit_count()  # unchanged by the play round
    seat = hand.turn
    options = hand.lead_mask
    if first >= 0:
        card = first
    elif options & (options - 1):
        card = lead_choice(t, hands[seat], played, pots, widow, options)
    else:
        card = options.bit_length() - 1
    lead = True
    streak = last = -1
    while True:
        bit = 1 << card
        held = hands[seat] ^ bit
        hands[seat] = held
        owner[card] = PLAYED
        played |= bit
        if lead or last != seat:  # the streak of cards this seat laid in a row (a combo's lowest rank)
            streak = card % 13
        last = seat
        if bit & paying:
            for j in card_pots[card]:
                chips[seat] += pots[j]
                pots[j] = 0
            for j, low in combo_end[card]:
                if low >= streak:
                    chips[seat] += pots[j]
                    pots[j] = 0
        if not held:  # out: the centre, then the leftover payments
            chips[seat] += pots[centre]
            pots[centre] = 0
            if rules.leftover == "pay":
                for other in range(n):
                    if other != seat:
                        paid = min(hands[other].bit_count(), chips[other])
                        chips[other] -= paid
                        chips[seat] += paid
            break
        if not bit & ACES:
            holder = owner[card + 1]
            if holder >= 0:  # the run goes on: forced
                seat, card, lead = holder, card + 1, False
                continue
        suit = card // 13
        leader = seat
        for _ in range(n):
            options = restart_leads(hands[leader], suit, restart, lead_rule)
            if options:
                break
            if pay_to_pass and chips[leader] > 0:
                chips[leader] -= 1
                pots[centre] += 1
            leader = (leader + 1) % n
        else:  # nobody can lead: the stall
            for s in range(n):
                paid = min(hands[s].bit_count(), chips[s])
                chips[s] -= paid
                pots[centre] += paid
            break
        seat, lead = leader, True
        if options & (options - 1):
            card = lead_choice(t, hands[seat], played, pots, widow, options)
        else:
            card = options.bit_length() - 1
    if rules.poker == "after_play" and t.poker is not None:
        _pay_poker(hand, t, chips, pots)
    return chips, pots
