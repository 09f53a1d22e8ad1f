"""The rules of thumb of good Rummy players, and the counting that sharpens them.

Both the ``easy`` and the ``normal`` bot plan a whole turn from the view each time they are asked (a
turn is several actions: a draw, then melds and lay-offs, then a discard or a knock) and answer with
the first step of the plan that the view lists as legal.  Melds come from the meld table's best
arrangement (:meth:`MeldTable.best_arrangement`); nothing here decides what a meld is.

``easy``: take the discard only when it completes a meld (or, where melding is allowed, goes straight
onto a table meld); meld and lay off what you can; shed the dearest deadwood; do not throw the next
player a card that fits what they took from the pile or a meld on the table; knock with little
deadwood.

``normal`` adds counting: which cards are dead (in the pile, on the table, known in a hand), how many
live cards would still complete each partial meld, what every opponent collects, the expected gain of a
blind draw against the upcard, and (Knock Rummy) a knock judged against an estimate of the opponents'
deadwood.  In Gin, ``normal`` judges its discard, and the upcard against a blind draw, by how soon the hand
may knock (:mod:`rummoli.bots.rummy_race`): Gin hands are short races to the knock limit.  Every level knocks
with the discard that keeps the least deadwood.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummoli.bots import rummy_race
from rummoli.bots.base import require_legal
from rummoli.bots.rummy_view import Known, card_index, mask_of_names, partners, read_view
from rummoli.cards import CARDS

ActionJSON = dict[str, Any]

# Gin (normal): a discard is judged by how soon the hand it leaves may knock (rummy_race)
GIN_DRAWS = 4  # draws looked ahead
#: sampled sequences of them: the discards are compared over the same futures, and with few the ranking is
#: noisy. Against OpenSpiel's simple bot, 24,000 games each (6 seeds x 2,000 deals): 48 won 56.4% (+2.36 Gin
#: points a game) and 320 won 57.5% (+2.88), at 4-5 ms a decision (p50); the README gives each run
GIN_FUTURES = 320
GIN_KNOCK_WEIGHT = 15.0  # deadwood points a knock one draw sooner is worth
GIN_FEED_COST = 1.5  # points against a card that fits what the other player took from the pile


def card_name(index: int) -> str:
    return str(CARDS[index])


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def melded(k: Known, hand: int) -> tuple[int, tuple[int, ...], int]:
    """Best arrangement of ``hand``: (melded points, melds, mask of melded cards)."""
    points, melds = k.table.best_arrangement(hand)
    cover = 0
    for meld in melds:
        cover |= meld
    return points, melds, cover


def layoff_chain(k: Known, loose: int, table: list[int], *, knocked: bool = False) -> list[tuple[int, int]]:
    """Lay-offs of ``loose`` cards on ``table`` melds, following chains (4s onto 5-6-7s, then 3s):
    ``[(card index, meld index)]``.  Only where melding is open, or (``knocked``) on a knocker's melds."""
    if not (k.melding or knocked) or not table:
        return []
    melds = list(table)
    out: list[tuple[int, int]] = []
    fits = k.table.fits
    progress = True
    while loose and progress:
        progress = False
        for index, meld in enumerate(melds):
            fit = fits(meld) & loose
            if fit:
                low = fit & -fit
                out.append((low.bit_length() - 1, index))
                melds[index] = meld | low
                loose ^= low
                progress = True
    return out


def deadwood_after(k: Known, hand: int) -> int:
    """Deadwood of ``hand`` after its best arrangement and every lay-off on the table."""
    points, _, cover = melded(k, hand)
    loose = hand & ~cover
    dead = k.value(hand) - points
    for card, _ in layoff_chain(k, loose, k.melds):
        dead -= k.value(1 << card)
    return dead


def lay_offs_after_knock(k: Known, knocker: list[int], counting: bool) -> int:
    """Gin, where the defender lays off by hand after the other player's knock (OpenSpiel's engine does;
    ours settles it by rule): the cards of ``k.hand`` to lay off on the ``knocker``'s melds.  Counting
    (normal, hard): the lay-offs and the melds of the rest chosen together to leave the least deadwood
    (exact: :meth:`MeldTable.deadwood_with_layoffs`).  Easy: its own best melds first, then whatever of the
    loose cards fits, chains followed, as a hurried player lays off."""
    if counting:
        return k.table.deadwood_with_layoffs(k.hand, knocker)[1]
    _, _, cover = melded(k, k.hand)
    laid = 0
    for card, _ in layoff_chain(k, k.hand & ~cover, knocker, knocked=True):
        laid |= 1 << card
    return laid


def lay_off_names(view: Mapping[str, Any], knocker: Sequence[Sequence[str]], counting: bool) -> list[str]:
    """:func:`lay_offs_after_knock` for a seat's view and the knocker's melds as card names (every level's
    ``lay_off``)."""
    k = read_view(view)
    laid = lay_offs_after_knock(k, [mask_of_names(list(m)) for m in knocker], counting)
    return [card_name(c) for c in bits(laid)]


def completes(k: Known, hand: int, card: int) -> bool:
    """Whether ``card`` would be in a meld of the best arrangement of ``hand`` plus it, or go on the table."""
    bit = 1 << card
    _, _melds, cover = melded(k, hand | bit)
    if cover & bit:
        return True
    return k.melding and any(k.table.fits(m) & bit for m in k.melds)


# ---------------------------------------------------------------- counting (normal)
def live(k: Known) -> int:
    """Cards that may still come: not in my hand, the pile, the table, or a hand known to hold them."""
    return k.unseen


def potential(k: Known, card: int, others: int, live_cards: int) -> float:
    """Live ways ``card`` may still join a meld with the loose ``others`` (a pair's third cards), plus
    a little for the cards that would lay it off on the table later."""
    third = partners(k.rules.aces, k.rules.ace_value)[card]
    total = 0.0
    for other in bits(others):
        total += (third[other] & live_cards).bit_count()
    return total


def feeds(k: Known, card: int, seat: int) -> bool:
    """Whether ``card`` fits what ``seat`` took from the pile (a set or run with one of their cards),
    or a meld on the table (lay-offs are open to all)."""
    bit = 1 << card
    if k.melding and any(k.table.fits(m) & bit for m in k.melds):
        return True
    third = partners(k.rules.aces, k.rules.ace_value)[card]
    return any(third[x] for x in bits(k.collected[seat] & k.held[seat]))


def danger(k: Known, card: int, counting: bool) -> float:
    """How much throwing ``card`` may feed the table: most of all the next player."""
    cost = 6.0 if feeds(k, card, k.next_seat) else 0.0
    if counting:
        for seat in range(k.n):
            if seat not in (k.me, k.next_seat) and feeds(k, card, seat):
                cost += 2.0
        # a card the next player has discarded a neighbour of is safer
        third = partners(k.rules.aces, k.rules.ace_value)[card]
        if any(third[x] for x in bits(k.discarded[k.next_seat])):
            cost -= 1.0
    return cost


# ---------------------------------------------------------------- decisions
def choose_discard_ranked(k: Known, hand: int, options: list[int], counting: bool) -> list[tuple[float, int]]:
    """The cards of ``options`` to shed from ``hand``, best first, with their cost: the deadwood kept,
    the risk of feeding the table and (counting) the live chances the card still has."""
    if counting and k.rules.style == "gin":
        return gin_discards_ranked(k, hand, options)
    points, _, cover = melded(k, hand)
    total = k.value(hand)
    live_cards = live(k) if counting else 0
    loose = hand & ~cover
    ranked: list[tuple[float, int, int]] = []
    for card in options:
        bit = 1 << card
        dead = deadwood_after(k, hand ^ bit) if bit & cover else total - points - k.value(bit)
        cost: float = dead + danger(k, card, counting)
        if counting:
            cost += 1.2 * potential(k, card, loose & ~bit, live_cards)
        ranked.append((cost, -k.value(bit), card))
    ranked.sort()
    return [(cost, card) for cost, _, card in ranked]


def gin_discards_ranked(k: Known, hand: int, options: list[int]) -> list[tuple[float, int]]:
    """Gin, counting: the cards of ``options`` to shed from ``hand``, best first, with their cost: the
    race outlook of the ten cards left (:func:`rummy_race.race` over the same sampled futures for every
    candidate: the deadwood at their end, less ``GIN_KNOCK_WEIGHT`` for each draw sooner that a knock
    becomes possible), and ``GIN_FEED_COST`` for a card that fits what the other player took from the
    pile.  Against OpenSpiel's simple Gin bot (bench/bots_external.py, the same 3,000 games) the rules of
    thumb won 50.5% and this 55%; judging by the deadwood after one or more draws alone won 47-50%, and
    a feed cost of 6 (the rules of thumb's) cost about 1.5 points of win rate against 1.5."""
    key = (hand, tuple(options))
    kept = k.gin_ranked.get(key)
    if kept is not None:
        return list(kept)
    pool = bits(live(k))
    seed = (hand * 1_000_003 + len(pool)) % (1 << 62)
    sampled = rummy_race.futures(seed, pool, GIN_DRAWS, GIN_FUTURES)
    ranked: list[tuple[float, int, int]] = []
    for card in options:
        bit = 1 << card
        cost = race_cost(k, hand ^ bit, sampled) + (GIN_FEED_COST if feeds(k, card, k.next_seat) else 0.0)
        ranked.append((cost, -k.value(bit), card))
    ranked.sort()
    out = k.gin_ranked[key] = [(cost, card) for cost, _, card in ranked]
    return list(out)


def choose_discard(k: Known, hand: int, options: list[int], counting: bool) -> tuple[int, int]:
    """The card to shed from ``hand`` among ``options``: ``(card, deadwood left)``."""
    card = choose_discard_ranked(k, hand, options, counting)[0][1]
    return card, deadwood_after(k, hand ^ (1 << card))


def expected_stock_deadwood(k: Known, hand: int, samples: int = 16) -> float:
    """Mean deadwood after drawing an unseen card blind and shedding the dearest loose card."""
    pool = bits(k.unseen)
    if not pool:
        return float(deadwood_after(k, hand))
    step = max(1, len(pool) // samples)
    chosen = pool[::step]
    total = 0.0
    for card in chosen:
        after = hand | (1 << card)
        points, _, cover = melded(k, after)
        loose = after & ~cover
        dear = max((k.value(1 << c) for c in bits(loose)), default=0)
        total += k.value(after) - points - dear
    return total / len(chosen)


def best_discard_deadwood(k: Known, hand: int, keep: int) -> int:
    """Deadwood after shedding the dearest loose card other than ``keep``."""
    points, _, cover = melded(k, hand)
    loose = hand & ~cover & ~(1 << keep)
    dear = max((k.value(1 << c) for c in bits(loose)), default=0)
    return k.value(hand) - points - dear


def gin_takes_upcard(k: Known, top: int) -> bool:
    """Gin, counting: whether the upcard wins the race to a knock over a blind draw, judged as a discard is
    (:func:`gin_discards_ranked`: the deadwood at the end less ``GIN_KNOCK_WEIGHT`` a draw sooner), over the
    same sampled futures of the unseen cards for both: the upcard, or the future's first card, drawn now and
    the rest after.  It replaced the rules of thumb's test (the upcard for a meld, or for 3 points less
    deadwood than a blind draw is expected to leave), which ignores the cards the upcard may yet join: the
    README's Gin table measures the two on the same deals."""
    pool = bits(live(k))
    seed = (k.hand * 1_000_003 + top) % (1 << 62)
    sampled = rummy_race.futures(seed, pool, GIN_DRAWS + 1, GIN_FUTURES)
    top_bit = 1 << top
    return race_cost(k, k.hand, [[top_bit, *f[:GIN_DRAWS]] for f in sampled]) < race_cost(k, k.hand, sampled)


def race_cost(k: Known, hand: int, futures: list[list[int]]) -> float:
    """Gin: how ``hand`` fares in the race to a knock over ``futures`` (:func:`rummy_race.race`): the deadwood
    at the end less ``GIN_KNOCK_WEIGHT`` for each draw sooner that a knock becomes possible; lower is better."""
    mean, early = rummy_race.race(k.table, hand, futures, k.rules.knock_limit)
    return mean - GIN_KNOCK_WEIGHT * early


def choose_draw(k: Known, counting: bool) -> ActionJSON:
    legal = k.legal
    stock = next((a for a in legal if a.get("from") == "stock" or a["action"] == "pass"), legal[0])
    piles = [a for a in legal if a.get("from") == "discard"]
    if not piles:
        return stock
    if k.rules.style == "500":
        return _choose_draw_500(k, stock, piles)
    top = k.pile[-1]
    if counting and k.rules.style == "gin":
        return piles[0] if gin_takes_upcard(k, top) else stock
    if completes(k, k.hand, top):
        return piles[0]
    if counting and not k.melding:
        # a card that cuts the deadwood by more than a blind draw is expected to
        with_top = best_discard_deadwood(k, k.hand | (1 << top), top)
        if with_top + 3 < expected_stock_deadwood(k, k.hand):
            return piles[0]
    return stock


def _choose_draw_500(k: Known, stock: ActionJSON, piles: list[ActionJSON]) -> ActionJSON:
    """500 Rum: weigh each legal depth by the points it melds against the cards it leaves in hand."""
    base_points, _, base_cover = melded(k, k.hand)
    base_lay = sum(k.value(1 << c) for c, _ in layoff_chain(k, k.hand & ~base_cover, k.melds))
    base_dead = k.value(k.hand) - base_points - base_lay
    best, best_gain = stock, 0.0
    for action in piles:
        name = action.get("card")
        deepest = card_index(name) if name else k.pile[-1]
        depth = k.pile.index(deepest) if deepest in k.pile else len(k.pile) - 1
        taken = 0
        for card in k.pile[depth:]:
            taken |= 1 << card
        after = k.hand | taken
        points, _, cover = melded(k, after)
        lay = sum(k.value(1 << c) for c, _ in layoff_chain(k, after & ~cover, k.melds))
        dead = k.value(after) - points - lay
        gain = (points + lay - base_points - base_lay) - 0.6 * max(0, dead - base_dead)
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def plan_play(k: Known, counting: bool, knock_at: int | None = None) -> list[ActionJSON]:
    """The rest of the turn: melds (the one holding a card that must reach the table first), lay-offs,
    then a discard or a knock."""
    me, hand = k.me, k.hand
    plan: list[ActionJSON] = []
    if k.melding:
        _, melds, cover = melded(k, hand)
        melds = tuple(sorted(melds, key=lambda m: 0 if m & k.must else 1))
        for meld in melds:
            plan.append({"seat": me, "action": "meld", "cards": [card_name(c) for c in bits(meld)]})
        table = list(k.melds) + list(melds)
        for card, index in layoff_chain(k, hand & ~cover, table):
            if index < len(k.melds):
                plan.append({"seat": me, "action": "layoff", "card": card_name(card), "meld": index})
    options = [card_index_of(a) for a in k.legal if a["action"] == "discard"]
    if options:
        card, dead = choose_discard(k, hand, options, counting)
        if not k.melding and hand.bit_count() > 1:
            threshold = knock_at if knock_at is not None else knock_threshold(k, counting)
            knock_card, knock_dead = knock_discard(k, hand, options, card, dead)
            if knock_dead <= threshold:  # refused (Gin's limit) it falls through to the discard
                plan.append({"seat": me, "action": "knock", "card": card_name(knock_card)})
        plan.append({"seat": me, "action": "discard", "card": card_name(card)})
    return plan


def knock_discard(k: Known, hand: int, options: list[int], usual: int, usual_dead: int) -> tuple[int, int]:
    """The card to knock with and the deadwood it leaves: the least deadwood of all ``options`` (a knock ends
    the hand, so the race the usual discard was chosen for is over, and every point kept is counted against
    the knocker or risks an undercut), ``usual`` on a tie."""
    best, best_dead = usual, usual_dead
    for card in options:
        if card != usual:
            dead = deadwood_after(k, hand ^ (1 << card))
            if dead < best_dead:
                best, best_dead = card, dead
    return best, best_dead


def card_index_of(action: ActionJSON) -> int:
    return card_index(str(action["card"]))


def estimate_deadwood(k: Known, seat: int) -> float:
    """A guess at a hand's deadwood from its size, the turns it has had and what it collected."""
    slots = k.unknown_slots(seat)
    pool = bits(k.unseen)
    mean = sum(k.value(1 << c) for c in pool) / len(pool) if pool else 6.0
    keep = max(0.2, 0.8 - 0.06 * k.turns[seat])
    return slots * mean * keep


def knock_threshold(k: Known, counting: bool) -> float:
    """The most deadwood to knock with: Knock Rummy pays a penalty for knocking without the lowest
    count, so a counting player knocks only well under its guess of the others'.  Gin allows a knock
    only at ``knock_limit`` or less, and there every level knocks as soon as it may: a hand won is worth
    a box at the game's end (R-GIN-7) besides its points, and waiting gives the other player turns to
    knock first (against OpenSpiel's simple Gin bot, which knocks at once, holding back for an undercut's
    safety won 48.8% of 2,000 games and knocking at once 50.3%, with the same points per game)."""
    if k.rules.style == "gin":
        return k.rules.knock_limit
    if not counting:
        return 5
    lowest = min(estimate_deadwood(k, s) for s in range(k.n) if s != k.me)
    return max(0.0, min(10.0, lowest - 6.0))


def choose(k: Known, counting: bool) -> ActionJSON:
    """The easy (``counting`` false) or normal choice for the view ``k`` was read from."""
    legal = require_legal(k.legal)
    choice = choose_draw(k, counting) if k.phase == "draw" else first_legal(plan_play(k, counting), legal)
    return choice


def _key(action: ActionJSON) -> tuple[Any, ...]:
    cards = action.get("cards")
    return (
        action.get("action"),
        action.get("from"),
        action.get("card"),
        action.get("meld"),
        frozenset(cards) if cards else None,
    )


def first_legal(plan: list[ActionJSON], legal: list[ActionJSON]) -> ActionJSON:
    """The first planned step the view lists as legal; else a safe fallback among the legal actions."""
    by_key = {_key(a): a for a in legal}
    for step in plan:
        found = by_key.get(_key(step))
        if found is not None:
            return found
    for kind in ("meld", "layoff", "discard", "knock", "draw"):
        for action in legal:
            if action["action"] == kind:
                return action
    return legal[0]
