"""The ``hard`` Rummy bot: determinized Monte-Carlo search over the draw and the discard.

Each decision samples **worlds**: deals consistent with everything the view shows.  The bot's own
hand and blind draws are known; each opponent's known cards (taken from the pile, or drawn from a
turned-over stock) are placed, and the rest of their hand and of the stock are drawn at random from the
unseen cards.  A world is made real by replaying, with the engine, a record built from the sampled deal
and the view's public actions (:func:`rummoli.rummy.replay_hand`), so it obeys every rule exactly.

A card an opponent laid or threw that nobody saw them take was either dealt to them or drawn blind: the
sampled deal gives them such cards in the order they played them (the first ``hand size`` dealt, the rest
to their blind draws in turn), which is always possible because a hand never runs short.

Candidates are the draws (stock, the upcard, a pass, or each depth in 500 Rum) and, once melds and
lay-offs are done by the normal plan, the few best discards (and knocks) by the normal bot's reckoning.
Every candidate is played in the same worlds (common random numbers) and the hand is rolled out to its
end with a fast rules-of-thumb policy for every seat; the candidate with the best mean of *own points
less the others' mean* wins.  ``budget`` seconds bound a decision; ``samples`` fixes the number of worlds
instead, which makes a tournament reproducible.  A timed search stops early once more worlds would not
change the choice (:func:`settled`).

In Gin each world is **weighed** by how likely the other players' choices are in it
(:mod:`rummoli.bots.rummy_infer`: a card let go by seldom fitted their hand, a discard was seldom part of a
meld), so the means are over what the others probably hold, not over any deal the view allows.  A Gin
discard is not rolled out: its noise drowned the differences that matter.  It is the normal bot's race
reckoning plus the weighed chance that the next player takes the card for a meld (:meth:`gin_discard`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from rummoli.bots import rummy_race, rummy_view
from rummoli.bots.base import FIRST_WORLD_GRACE, ActionJSON, Bot, View, require_legal
from rummoli.bots.estimate import Z95, Estimate, same_action, weighted_stats
from rummoli.bots.rummy_infer import STYLES as INFERRED_STYLES
from rummoli.bots.rummy_infer import Reader, take_chances
from rummoli.bots.rummy_policy import (
    bits,
    card_index_of,
    choose,
    choose_discard_ranked,
    first_legal,
    lay_off_names,
    live,
    plan_play,
)
from rummoli.bots.rummy_view import Known, partners, read_view
from rummoli.cards import CARDS
from rummoli.errors import MalformedInput
from rummoli.records import RecordError
from rummoli.rummy import Action, RummyHand, replay_hand
from rummoli.rummy.base import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, LAYOFF, MELD
from rummoli.shuffling import shuffle

MAX_CANDIDATES = 4  # discards searched (the normal bot's best few)
GIN_DISCARDS = 6  # Gin: the normal bot's best discards weighed for feeding the next player
GIN_FEED_WORLDS = 48  # weighed worlds behind the chance that the next player takes a discard
#: race points (rummy_policy.gin_discards_ranked's unit) against a discard the next player is sure to take;
#: against OpenSpiel's simple bot, 600 games on the same deals: 10 won 59.7%; 5, 16 and 25 won 58.1%, 58.8% and
#: 59.1% (normal 56.2%)
GIN_FEED_POINTS = 10.0
ROLLOUT_MOVES = 600  # a hand that has not ended by then is scored by its deadwood


def sample_deal(k: Known, rng: random.Random) -> dict[str, Any] | None:
    """A record of the hand so far whose hidden cards are drawn at random, consistent with ``k``."""
    n, me = k.n, k.me
    size = k.rules.hand_size_for(n)
    pool = bits(k.unseen)
    shuffle(rng, pool)  # rng.shuffle's order and draws, compiled (every world shuffles the unseen cards)
    dealt: list[list[int]] = []
    draws: dict[int, list[int]] = {}  # seat -> the cards of its blind draws, in order
    upcard = k.turned_up if k.turned_up >= 0 else -1
    for seat in range(n):
        if seat == me:
            hidden = bits(k.hand & ~k.held_tracked[me])
            order = k.hidden_played[me] + hidden
            if len(order) != size:
                return None
            dealt.append(order)
            continue
        slots = k.unknown_slots(seat)
        current = [pool.pop() for _ in range(slots)] if slots <= len(pool) else None
        if current is None:
            return None
        blind = sum(1 for s, c in k.blind_draws if s == seat)
        if upcard < 0 and current and len(k.hidden_played[seat]) + slots == size + blind + 1:
            upcard = current.pop()  # this seat took the upcard nobody named: one it still holds
        order = k.hidden_played[seat] + current
        if len(order) != size + blind:
            return None
        dealt.append(order[:size])
        draws[seat] = order[size:]
    stock: list[int] = [upcard if upcard >= 0 else pool.pop()]
    for seat, card in k.blind_draws:
        if seat == me:
            if card < 0:
                return None
            stock.append(card)
        else:
            stock.append(draws[seat].pop(0))
    stock += pool
    if sum(len(h) for h in dealt) + len(stock) != 52:
        return None
    return {
        "format": "rummoli-hand/1",
        "ruleset": k.rules,  # the loaded ruleset itself: a world is not read from a file again
        "players": list(k.players),
        "chips": list(k.scores),
        "pots": {},
        "dealer": k.dealer,
        # the cards themselves, not their names: the replay takes either, and a world is never written out
        "deal": {"hands": [[CARDS[c] for c in h] for h in dealt], "stock": [CARDS[c] for c in stock]},
        "actions": k.actions,
    }


def sample_world(k: Known, rng: random.Random, reader: Reader | None = None) -> RummyHand | None:
    """A world consistent with ``k`` (``None`` when the sampled deal does not replay to the view).  A
    ``reader`` (:mod:`rummoli.bots.rummy_infer`) sees the replay and weighs the others' choices in it."""
    record = sample_deal(k, rng)
    if record is None:
        return None
    if k.read_actions is None:
        try:
            k.read_actions = tuple(Action.from_json(data) for data in k.actions)
        except MalformedInput:
            k.read_actions = ()
    try:
        world = replay_hand(record, reader, k.read_actions if len(k.read_actions) == len(k.actions) else None,
                            marks=False)  # a world is searched, never read as a stream
    except RecordError:
        if rummy_view.STRICT:
            raise
        return None
    if world.turn != k.me or world.phase != k.phase or world.hands[k.me] != k.hand:
        return None
    return world


# ---------------------------------------------------------------- the rollout policy (whole worlds)
@cache
def pair_masks(aces: str, ace_value: int) -> tuple[int, ...]:
    """Per card, the cards it would make a two-card start of a meld with (a third card exists)."""
    third = partners(aces, ace_value)
    return tuple(sum(1 << x for x in range(52) if row[x]) for row in third)


def fast_move(w: RummyHand) -> None:
    """One move by the player to act, by rules of thumb on its own hand and the table."""
    seat, hand, rules = w.turn, w.hands[w.turn], w.rules
    table = w.melds_table
    fit_of = table.fit_of  # every meld on the table is a legal meld, so each is a key
    refusal = w.refusal
    if w.phase == "draw":
        pile = w.pile
        if pile:
            top = pile[-1]
            bit = 1 << top
            _, melds = table.best_arrangement(hand | bit)
            cover = 0
            for meld in melds:
                cover |= meld
            useful = bool(cover & bit) or (
                rules.style in ("straight", "500") and any(fit_of[m] & bit for m in w.melds)
            )
            # whether it is useful first: most upcards are not, and the rules' check costs more than the look
            if useful and refusal(seat, DRAW_DISCARD, top, 0) is None:
                w.step((DRAW_DISCARD, top, 0))
                return
        if refusal(seat, DRAW_STOCK, 0, 0) is None:
            w.step((DRAW_STOCK, 0, 0))
        else:
            w.step(w.moves()[-1])  # a pass (Gin's upcard), or the only way to draw
        return
    points, melds = table.best_arrangement(hand)
    cover = 0
    for meld in melds:
        cover |= meld
    if rules.style in ("straight", "500"):
        for meld in melds:
            if refusal(seat, MELD, meld, 0) is None:
                w.step((MELD, meld, 0))
                return
        loose = hand & ~cover
        for index, meld in enumerate(w.melds):
            fit = fit_of[meld] & loose
            while fit:
                low = fit & -fit
                fit ^= low
                card = low.bit_length() - 1
                if refusal(seat, LAYOFF, card, index) is None:
                    w.step((LAYOFF, card, index))
                    return
        if w.must:
            w.step(w.moves()[0])
            return
    loose = hand & ~cover
    if w.taken >= 0 and hand & (hand - 1):
        loose &= ~(1 << w.taken)
    if not loose:
        loose = hand & ~(1 << w.taken) if w.taken >= 0 and hand & (hand - 1) else hand
    best, best_key, best_value = -1, -99, 0
    pairing = pair_masks(rules.aces, rules.ace_value)
    points_of = table.card_points
    free = hand & ~cover
    rest = loose
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        value = points_of[card]
        paired = pairing[card] & free & ~low
        key = value - (6 if paired else 0)  # keep a card that a pair or a run's start needs
        if key > best_key:
            best, best_key, best_value = card, key, value
    if rules.style in ("knock", "gin"):
        dead = table.card_value(hand) - points - (best_value if (1 << best) & ~cover else 0)
        limit = rules.knock_limit if rules.style == "gin" else 5
        if dead <= limit and refusal(seat, KNOCK, best, 0) is None:
            w.step((KNOCK, best, 0))
            return
    if refusal(seat, DISCARD, best, 0) is None:
        w.step((DISCARD, best, 0))
    else:
        w.step(w.moves()[0])


def rollout(w: RummyHand, me: int) -> float:
    """Play ``w`` to its end; own points less the mean of the others'.  In Gin a hand won is also worth
    a box at the game's end (R-GIN-7: ``box_bonus`` for every hand won), so the winner's box counts too."""
    moves = 0
    while w.phase != "over" and moves < ROLLOUT_MOVES:
        fast_move(w)
        moves += 1
    n = w.n
    if w.phase != "over":
        table = w.melds_table
        counts = [table.deadwood(h) for h in w.hands]
        return (sum(counts) - counts[me]) / (n - 1) - counts[me]
    deltas = w.deltas
    value = deltas[me] - (sum(deltas) - deltas[me]) / (n - 1)
    if w.rules.style == "gin":
        winner = w.outcome.get("winner")
        if winner is not None and deltas[winner] > 0:
            value += w.rules.box_bonus if winner == me else -w.rules.box_bonus / (n - 1)
    return value


def finish_turn(w: RummyHand, me: int) -> None:
    """Complete the searching player's own turn with the fast policy (melds and lay-offs, a discard)."""
    while w.phase != "over" and w.turn == me and w.phase != "draw":
        fast_move(w)


#: a timed search looks at its candidates every so many worlds and stops once the decision is made
SETTLE_EVERY = 16
#: standard errors by which the leader must beat every other candidate for the search to stop early
SETTLE_LEAD = 3.0
#: points below which the leader's edge does not matter (and known to within as much)
SETTLE_EVEN = 0.5


def settled(scores: Sequence[Sequence[float]], weights: Sequence[float]) -> bool:
    """Whether more worlds would not change the decision: the leader beats every other candidate by
    ``SETTLE_LEAD`` standard errors (weighed, the same worlds for all), or by so little, so surely, that it
    does not matter.  A time budget is what a player waits; a decision made in 32 worlds need not take it."""
    if len(weights) < 2 * SETTLE_EVERY:
        return False
    means = [weighted_stats(s, weights)[0] for s in scores]
    lead = max(range(len(scores)), key=lambda i: means[i])
    for i, other in enumerate(scores):
        if i == lead:
            continue
        gain, half = weighted_stats([a - b for a, b in zip(scores[lead], other, strict=True)], weights)
        if half is None:
            return False
        clear = gain > SETTLE_LEAD * half / Z95
        even = gain + half < SETTLE_EVEN
        if not (clear or even):
            return False
    return True


def unweighed(chosen: ActionJSON, others: Sequence[ActionJSON]) -> Estimate:
    """The estimate of a decision whose time ran out before one world was searched: ``chosen`` (first) is
    played, and ``others`` (a coach's extra actions among them) are listed without values."""
    actions = [chosen]
    for action in others:
        if action not in actions:
            actions.append(action)
    return Estimate.build(actions, [[] for _ in actions], [], 0, 0, "points", how="rule")


# ---------------------------------------------------------------- the bot
class HardRummyBot(Bot):
    """Searches the draw and the discard over sampled worlds; melds as the normal plan does."""

    game = "rummy"
    level = "hard"
    reads_words = False

    def __init__(self, seed: int | str | None = None, budget: float | None = None, samples: int | None = None) -> None:
        super().__init__(seed, budget, samples)
        #: how many standard errors a candidate must beat the normal bot's choice by
        self.margin = 2.0
        #: weigh each world by how likely the others' choices are in it (rummy_infer)
        self.infer = True

    def choose(self, view: View) -> ActionJSON:
        return self.estimate(view).preferred_action

    def lay_off(self, view: View, knocker: Sequence[Sequence[str]]) -> list[str]:
        """As the normal bot lays off after the other player's knock: the exact least deadwood."""
        return lay_off_names(view, knocker, counting=True)

    def estimate(self, view: View, extra: Sequence[ActionJSON] = ()) -> Estimate:
        """The decision weighed as :meth:`choose` makes it (:mod:`rummoli.bots.estimate`): the draws, or
        the discards and knocks worth searching, each one's points over the same worlds, and the one the
        bot plays; a meld or lay-off follows the normal plan unsearched.  ``extra`` actions are weighed
        beside them in the same worlds and never preferred."""
        started = time.perf_counter()
        k = read_view(view)
        legal = require_legal(k.legal)
        if len(legal) == 1:
            return self._judged(k, legal[0], extra, started)
        if k.phase == "draw":
            candidates = self.draw_candidates(k)
            usual = choose(k, counting=True)
            candidates = [usual] + [a for a in candidates if a != usual]
        else:
            step = first_legal(plan_play(k, counting=True), legal)
            if step["action"] in ("meld", "layoff"):
                return self._judged(k, step, extra, started)
            if k.rules.style == "gin":  # a knock the normal plan makes stands (gin_discard says why)
                chosen = step if step["action"] == "knock" else self.gin_discard(k, started)
                return self._judged(k, chosen, extra, started)
            candidates = self.discard_candidates(k, step)
        if len(candidates) == 1:
            return self._judged(k, candidates[0], extra, started)
        found = self.weigh(k, candidates, baseline=0, started=started, extra=extra)
        if found is None:  # no world in the time: the normal bot's choice, nothing weighed
            return unweighed(choose(k, counting=True), [*candidates, *extra])
        return found

    def _judged(self, k: Known, action: ActionJSON, extra: Sequence[ActionJSON], started: float) -> Estimate:
        """A choice made by rule: weighed only when a coach brings other actions to compare it with."""
        others = [a for a in extra if not same_action(a, action)]
        if not others:
            return Estimate.rule(action, "points")
        found = self.weigh(k, [action], 0, started, others, how="rule")
        return unweighed(action, others) if found is None else found

    #: sampled futures behind :meth:`facts`' draws to a knock
    fact_futures = 24

    def facts(self, view: View, actions: Sequence[ActionJSON]) -> list[dict[str, Any]]:
        """What a coach may say of each action beside its points: for a discard or a knock, the deadwood
        the hand keeps (``deadwood``) and, where a hand may knock (Gin, Knock Rummy), the mean number of
        draws before it could (``draws``, over the same sampled draws from the unseen cards for each)."""
        k = read_view(view)
        out: list[dict[str, Any]] = [{} for _ in actions]
        style = k.rules.style
        limit = k.rules.knock_limit if style == "gin" else 5 if style == "knock" else -1
        sampled = None
        for i, a in enumerate(actions):
            if a.get("action") not in ("discard", "knock") or not a.get("card"):
                continue
            bit = 1 << card_index_of(a)
            if not k.hand & bit:
                continue
            left = k.hand ^ bit
            out[i]["deadwood"] = k.table.deadwood(left)
            if limit >= 0:
                if sampled is None:
                    pool = bits(live(k))
                    sampled = rummy_race.futures(k.hand % (1 << 62), pool, rummy_race.KNOCK_HORIZON,
                                                 self.fact_futures)
                out[i]["draws"] = round(rummy_race.draws_to_knock(k.table, left, sampled, limit), 2)
        return out

    def gin_discard(self, k: Known, started: float) -> ActionJSON:
        """Gin, a turn that ends in a discard (a knock the normal plan makes stands: against a player who
        knocks as soon as it may, waiting loses the race more often than it wins an undercut): the normal
        bot's race cost of each of its best few discards, plus :data:`GIN_FEED_POINTS` times the chance that
        the next player takes the card for a meld, read from weighed worlds (:mod:`rummoli.bots.rummy_infer`).
        Against OpenSpiel's simple Gin bot that weighed feeding well where rollouts did not: a rollout's
        noise is tens of points a world, while the chance of a meld is a share of worlds."""
        options = [card_index_of(a) for a in k.legal if a["action"] == "discard"]
        ranked = choose_discard_ranked(k, k.hand, options, counting=True)[:GIN_DISCARDS]
        worlds = self.weighed_worlds(k, GIN_FEED_WORLDS, started + self.budget / 2)
        cards = [card for _, card in ranked]
        chances = take_chances(worlds, k.next_seat, cards) if worlds else [0.0] * len(cards)
        best = min(range(len(cards)), key=lambda i: (ranked[i][0] + GIN_FEED_POINTS * chances[i], i))
        return {"seat": k.me, "action": "discard", "card": str(CARDS[cards[best]])}

    def weighed_world(self, k: Known) -> tuple[RummyHand, float] | None:
        """One sampled world and its weight (1 where this bot does not infer), or ``None``."""
        reader = Reader(k.me) if self.infer and k.rules.style in INFERRED_STYLES else None
        world = sample_world(k, self.rng, reader)
        if world is None:
            return None
        return world, 1.0 if reader is None else reader.weight

    def weighed_worlds(self, k: Known, count: int, deadline: float) -> list[tuple[RummyHand, float]]:
        """Up to ``count`` sampled worlds with their weights, as many as fit before ``deadline`` (at least
        one attempt; a fixed ``samples`` bot ignores the clock, so its choices repeat)."""
        out: list[tuple[RummyHand, float]] = []
        for _ in range(4 * count):
            if out and (self.out_of_time() or (self.samples is None and time.perf_counter() >= deadline)):
                break
            found = self.weighed_world(k)
            if found is not None:
                out.append(found)
                if len(out) >= count:
                    break
        return out

    def draw_candidates(self, k: Known) -> list[ActionJSON]:
        draws = [a for a in k.legal if a["action"] in ("draw", "pass")]
        if k.rules.style == "500" and len(draws) > 4:
            heuristic = choose(k, counting=True)
            blind = [a for a in draws if a.get("from") == "stock"]
            near = [a for a in draws if a.get("from") == "discard"][-2:]
            draws = list({str(a): a for a in [heuristic, *blind, *near]}.values())
        return draws

    def discard_candidates(self, k: Known, step: ActionJSON) -> list[ActionJSON]:
        options = [card_index_of(a) for a in k.legal if a["action"] == "discard"]
        ranked = choose_discard_ranked(k, k.hand, options, counting=True)[:MAX_CANDIDATES]
        knocks = {a["card"] for a in k.legal if a["action"] == "knock"}
        out = [step]
        for rank, (_, card) in enumerate(ranked):
            name = str(CARDS[card])
            out.append({"seat": k.me, "action": "discard", "card": name})
            if name in knocks and rank < 2:
                out.append({"seat": k.me, "action": "knock", "card": name})
        unique = list({(a["action"], a["card"]): a for a in out}.values())
        legal_keys = {(a["action"], a.get("card")) for a in k.legal}
        return [a for a in unique if (a["action"], a["card"]) in legal_keys]

    def search(
        self, k: Known, candidates: list[ActionJSON], baseline: int = 0, started: float | None = None
    ) -> ActionJSON | None:
        """The candidate :meth:`weigh` prefers, or ``None`` when not one world fitted the time."""
        found = self.weigh(k, candidates, baseline, started)
        return None if found is None else found.preferred_action

    def weigh(
        self, k: Known, candidates: list[ActionJSON], baseline: int = 0, started: float | None = None,
        extra: Sequence[ActionJSON] = (), how: str = "search",
    ) -> Estimate | None:
        """The candidates weighed over sampled worlds (``None`` when not one world fitted the time): the
        best mean wins, but the ``baseline`` (the normal bot's choice) stays unless another beats it by
        more than the noise (``margin`` standard errors).  ``extra`` actions are played in the same
        worlds as spectators, never preferred.  ``budget`` counts from ``started`` (when the decision
        began: ranking the candidates takes time too, tens of milliseconds for a Gin discard), else from
        now."""
        searched = len(candidates)
        candidates = list(candidates)
        for action in extra:
            if not any(same_action(action, c) for c in candidates):
                candidates.append(action)
        scores: list[list[float]] = [[] for _ in candidates]
        weights: list[float] = []
        worlds = 0
        deadline = (time.perf_counter() if started is None else started) + self.budget
        attempts = 0
        actions = [Action.from_json(a) for a in candidates]

        def expired() -> bool:
            # the first world may run FIRST_WORLD_GRACE past the budget (never past the deadline)
            grace = 0.0 if worlds else FIRST_WORLD_GRACE
            return self.out_of_time() or (self.samples is None and time.perf_counter() >= deadline + grace)

        while True:
            if self.out_of_time():
                break
            if self.samples is not None:
                if worlds >= self.samples or attempts >= 4 * self.samples + 4:
                    break
            elif (worlds and time.perf_counter() >= deadline) or (attempts >= 8 and not worlds):
                break
            attempts += 1
            found = self.weighed_world(k)
            if found is None:
                continue
            world, weight = found
            row = []
            for action in actions:
                if row and expired():  # the time ran out inside this world: it counts for nothing
                    break
                twin = world.clone()
                twin.make(action)
                finish_turn(twin, k.me)
                row.append(rollout(twin, k.me))
            if len(row) < len(actions):
                break
            worlds += 1
            weights.append(weight)
            for index, score in enumerate(row):
                scores[index].append(score)
            if self.samples is None and how == "search" and worlds % SETTLE_EVERY == 0 and settled(
                scores[:searched], weights
            ):
                break
        if not worlds:
            return None
        best = baseline
        if how == "search":
            means = [weighted_stats(s, weights)[0] for s in scores[:searched]]
            best = max(range(searched), key=lambda i: (means[i], i == baseline, -i))
            if best != baseline and worlds > 1:
                gains = [x - y for x, y in zip(scores[best], scores[baseline], strict=True)]
                gain, half = weighted_stats(gains, weights)
                if half is None or gain <= self.margin * half / Z95:
                    best = baseline
        return Estimate.build(candidates, scores, weights, best, baseline, "points", how=how)
