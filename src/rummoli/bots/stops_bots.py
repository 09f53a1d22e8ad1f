"""Computer opponents for the stops games (Rummoli, Tripoley, Michigan) at three strengths.

Each bot is handed one seat's view (a plain JSON dict, never the hand) and answers with one of the
view's legal actions.  Importing this module registers the three levels with :func:`make_bot`:

* ``easy`` -- the family's rules of thumb (:mod:`rummoli.bots.stops_policy`);
* ``normal`` -- adds counting from the view (:mod:`rummoli.bots.stops_infer`): which cards are gone,
  which must be in the widow, which runs will stop on it, the widow's worth, a quick Monte-Carlo of
  the opponents' poker hands;
* ``hard`` -- samples the hidden cards consistently with its view, rebuilds a hand per sample and
  rolls each choice out (:mod:`rummoli.bots.stops_search`) within ``budget`` seconds, or over a fixed
  number of ``samples`` for reproducible tournaments.

A bot's objective is its own chip change over the hand.

>>> from rummoli.bots.driver import play_out
>>> from rummoli.stops import Hand
>>> from rummoli.cards import shuffled_deck
>>> from rummoli.dealing import deal_with_widow
>>> hands, widow = deal_with_widow(shuffled_deck(3), 3, dealer=0)
>>> hand = Hand("rummoli", ["Ann", "Bob", "Cy"], [100] * 3, {}, 0, hands, widow)
>>> play_out(hand, [EasyStopsBot(1), NormalStopsBot(2), HardStopsBot(3, samples=4)])
>>> hand.over, sum(hand.chips) + sum(hand.pots)
(True, 300)
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from rummoli.bots.base import ActionJSON, Bot, View, legal_actions, register, require_legal, with_amount
from rummoli.bots.estimate import Estimate
from rummoli.bots.stops_chance import LOWNESS, WorthPlan, poker_chance_pure, widow_worth_pure
from rummoli.bots.stops_infer import Known, Told, card_index, counted_lead_score, mask_of_texts, read_view
from rummoli.bots.stops_memory import UNINFORMED, BettingMemory, learns_from
from rummoli.bots.stops_policy import (
    Table,
    best_lead,
    dreadful,
    easy_bet,
    percentile_values,
    poker_percentile,
    table_for,
    value_percentile,
)
from rummoli.bots.stops_search import choose_best, evaluate, sigmoid
from rummoli.poker import evaluate_mask
from rummoli.twins import compiled

log = logging.getLogger("rummoli.bots")


class Options:
    """A view's legal actions grouped: kinds, amount ranges and card masks."""

    def __init__(self, legal: list[ActionJSON]) -> None:
        self.legal = legal
        self.by_kind: dict[str, list[ActionJSON]] = {}
        for a in legal:
            self.by_kind.setdefault(a["action"], []).append(a)

    def has(self, kind: str) -> bool:
        return kind in self.by_kind

    def range(self, kind: str) -> tuple[int, int] | None:
        acts = self.by_kind.get(kind)
        if not acts:
            return None
        return int(acts[0]["min"]), int(acts[0]["max"])

    def cards(self, kind: str) -> int:
        return mask_of_texts([a["card"] for a in self.by_kind.get(kind, [])])

    def pick(self, kind: str, amount: int | None = None, card: int | None = None) -> ActionJSON:
        """The legal action of ``kind`` (with ``amount`` for a bid, bet or raise, ``card`` for a lead)."""
        for a in self.by_kind.get(kind, []):
            if "min" in a:
                if amount is not None:
                    return with_amount(a, amount)
            elif card is None or card_index(a["card"]) == card:
                return a
        raise ValueError(f"no legal {kind} {amount if amount is not None else card}")


def _opponents_in(view: View) -> int:
    betting = view.get("betting") or {}
    folded = set(betting.get("folded", []))
    return sum(1 for s in range(len(view["players"])) if s != view["seat"] and s not in folded)


class StopsBot(Bot):
    """What every stops level shares: claims always, forced choices at once, the phase dispatch."""

    game = "stops"
    writes_views = False  # every level only reads its view (tests/bots/test_fast_view.py checks it)
    reads_words = False  # nor the events' sentences (the same file checks that too)

    def choose(self, view: View) -> ActionJSON:
        legal = require_legal(legal_actions(view))
        if len(legal) == 1 and "min" not in legal[0]:
            return legal[0]
        opts = Options(legal)
        if opts.has("claim"):  # R-PLAY-9: computer players always claim
            return opts.pick("claim")
        return self.decide(dict(view), opts)

    def decide(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        phase = view["phase"]
        if phase == "widow":
            return self.widow(view, opts)
        if phase == "auction":
            return self.auction(view, opts)
        if phase == "poker":
            return self.betting(view, opts)
        return self.lead(view, opts)

    # the easy rules of thumb; the stronger levels override what they improve
    def widow(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        t = table_for(view["ruleset"])
        hand = mask_of_texts(view["hand"])
        return opts.pick("swap" if opts.has("swap") and dreadful(t, hand) else "keep")

    def auction(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        t = table_for(view["ruleset"])
        hand = mask_of_texts(view["hand"])
        bid = opts.range("bid")
        if bid is not None and bid[0] <= 2 and dreadful(t, hand):
            return opts.pick("bid", bid[0])
        return opts.pick("pass")

    def win_chance(self, view: dict[str, Any], thresholds: tuple[float, ...] = ()) -> float:
        """The chance the hand beats every player still in.  ``thresholds``: the values of it where
        this bot's choice changes (a counting bot may stop estimating once it is clearly off them all)."""
        hand = mask_of_texts(view["hand"])
        return float(poker_percentile(hand) ** max(1, _opponents_in(view)))

    def betting(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        betting = view.get("betting") or {}
        me = view["seat"]
        to_call = int(betting.get("level", 0)) - int(betting.get("put", [0] * (me + 1))[me])
        pot = int(view["pots"].get(self.poker_pot(view), 0))
        p = self.win_chance(view, self.bet_thresholds(opts, to_call, pot))
        kind, amount = self.bet_rule(p, opts, to_call, pot)
        return opts.pick(kind, amount if kind in ("bet", "raise") else None)

    def bet_rule(self, p: float, opts: Options, to_call: int, pot: int) -> tuple[str, int]:
        return easy_bet(p, opts.has("check"), opts.range("bet"), opts.range("raise"), to_call)

    def bet_thresholds(self, opts: Options, to_call: int, pot: int) -> tuple[float, ...]:
        """The win chances at which :meth:`bet_rule` changes its answer (none known: estimate fully)."""
        return ()

    @staticmethod
    def poker_pot(view: dict[str, Any]) -> str:
        for p in view["board"]:
            if p["kind"] == "poker":
                return str(p["id"])
        return ""

    def lead(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        t = table_for(view["ruleset"])
        hand = mask_of_texts(view["hand"])
        kind = "lead" if opts.has("lead") else "play"
        pots = [int(view["pots"][pid]) for pid in t.pot_ids]
        return opts.pick(kind, card=best_lead(t, hand, opts.cards(kind), pots))


@register
class EasyStopsBot(StopsBot):
    """The family's rules of thumb: widow only with a dreadful hand and no pay card, bet on the cards
    held and never bluff, keep a lead in the other colour, go out and run your own sequences."""

    level = "easy"
    reads_history = False  # its rules of thumb read the hand, the pots and the betting, never the past


# ------------------------------------------------------------------------------------- normal
def hand_worth(t: Table, mask: int, k: Known, opponents: int) -> float:
    """A rough expected chip value of holding ``mask`` for the play and poker rounds."""
    if not mask:
        return 0.0
    rules = t.rules
    pots = k.pots
    worth = 0.0
    if rules.pay == "on_play":
        for c, js in t.card_pots.items():
            if mask >> c & 1:
                worth += 0.6 * sum(pots[j] for j in js)
        for j, masks in t.combos:
            if any(mask & m == m for m in masks):
                worth += 0.4 * pots[j]
    if t.poker is not None and rules.poker != "none" and mask.bit_count() >= 5:
        worth += poker_percentile(mask) ** max(1, opponents) * (pots[t.poker] + 2 * opponents)
    size = mask.bit_count()
    lowness = (LOWNESS[mask & 0x1FFF] + LOWNESS[mask >> 13 & 0x1FFF] + LOWNESS[mask >> 26 & 0x1FFF]
               + LOWNESS[mask >> 39]) / (12 * size)
    p_out = min(0.9, 2 * lowness / k.n)
    others = sum(k.sizes) - k.sizes[k.me]
    leftover = 0.5 * others if rules.leftover == "pay" else 0.0
    worth += p_out * (pots[t.centre] + leftover)
    return worth


def worth_plan(t: Table, k: Known, opponents: int, size: int) -> WorthPlan:
    """What :func:`hand_worth` reads for hands of ``size`` cards, as :func:`widow_worth` takes it."""
    rules = t.rules
    pots = k.pots
    on_play = rules.pay == "on_play"
    cards = tuple((c, 0.6 * sum(pots[j] for j in js)) for c, js in t.card_pots.items()) if on_play else ()
    combos = tuple((masks, 0.4 * pots[j]) for j, masks in t.combos) if on_play else ()
    poker = t.poker is not None and rules.poker != "none"
    stake = pots[t.poker] + 2 * opponents if t.poker is not None else 0
    others = sum(k.sizes) - k.sizes[k.me]
    leftover = 0.5 * others if rules.leftover == "pay" else 0.0
    return WorthPlan(cards, combos, poker, stake, max(1, opponents), percentile_values(size), k.n,
                     pots[t.centre] + leftover)


#: the compiled twins of the two loops where they were built (rummoli.twins), else the pure ones
poker_chance: Callable[..., tuple[float, float, int]] = compiled("poker_chance") or poker_chance_pure
widow_worth: Callable[[Callable[[], float], list[int], int, int, WorthPlan], float] = (
    compiled("widow_worth") or widow_worth_pure)


def draw(rng: random.Random, cards: list[int], size: int) -> list[int]:
    """``size`` distinct cards drawn at random from ``cards`` (a partial shuffle of a copy: one
    ``random()`` per card drawn, much cheaper than ``rng.sample``)."""
    pool = cards[:]
    n = len(pool)
    random_ = rng.random
    for i in range(min(size, n)):
        j = i + int(random_() * (n - i))
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:size]


def _strong(value: int, size: int, others: int) -> float:
    """How likely a player holding a hand of this value and size was to bet against ``others`` players
    (at least 0.05). Players bet on a fair chance to beat the table: with this hand, would it have?"""
    q = value_percentile(value, size) ** others
    return max(0.05, sigmoid((q - 0.6) / 0.07))


#: :func:`_strong` remembered, one table of values per (size, others): a win chance asks it for every sample
#: of every player who bet, and the hands' values repeat (a dict lookup is cheaper than a cached call's key)
_STRONG: dict[tuple[int, int], dict[int, float]] = {}


def _strong_table(size: int, others: int) -> dict[int, float]:
    table = _STRONG.setdefault((size, others), {})
    if len(table) > 8192:
        table.clear()
    return table


@register
class NormalStopsBot(StopsBot):
    """Counts from the view: the cards gone, the widow's certain cards, where runs stop, the widow's
    worth against the hand's, and the poker hand's chance against the unseen cards."""

    level = "normal"
    reads_actions = False  # it reads the history's events only (the hard level, which searches, reads the actions)
    observes_events = False  # what it learns of a hand's end are its actions (stops_memory.betting_seats)
    reads_moves = True  # what it counts from the events, it counts as well from the public moves (stops_infer.Told)

    def __init__(self, seed: int | str | None = None, budget: float | None = None,
                 samples: int | None = None) -> None:
        super().__init__(seed, budget, samples)
        #: what the showdowns of earlier hands told of each opponent's bets
        self.memory = BettingMemory()
        #: samples behind the last win chance (for benchmarks)
        self.last_poker_samples = 0
        #: what the events of the hand it last decided in told it (stops_infer.Told: read again only from there)
        self._told: Told | None = None

    def __getstate__(self) -> dict[str, Any]:
        """A bot sent to a worker process and back goes without the events it has read (a view is read whole
        when its events are not the ones folded)."""
        return {**self.__dict__, "_told": None}

    def observe(self, view: View) -> None:
        self.memory.observe(view)

    def learns_from(self, view: View) -> bool:
        return learns_from(view)

    def known(self, view: dict[str, Any]) -> Known:
        """The view's facts, with how far this bot believes each opponent's bets."""
        k = read_view(view, self._told)
        self._told = k.told  # the next decision in this hand reads only the events new since this one
        k.credibility = self.memory.by_seat(view)
        return k

    #: Monte-Carlo samples for the poker chance and the widow's worth (each a few microseconds)
    poker_samples = 80
    widow_samples = 24

    def _widow_gain(self, view: dict[str, Any]) -> float:
        k = self.known(view)
        t = k.t
        opp = k.n - 1
        own = hand_worth(t, k.hand, k, opp)
        unseen = [c for c in range(52) if k.unseen >> c & 1]
        size = k.widow_size
        # the sum of hand_worth over the sampled widows (stops_chance.widow_worth_pure: the same draws and sums)
        plan = worth_plan(t, k, opp, min(size, len(unseen)))
        total = widow_worth(self.rng.random, unseen, size, self.widow_samples, plan)
        return total / self.widow_samples - own

    def widow(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        # Keeping sells the widow at auction: swap only a dreadful hand, and only for a better one.
        hand = mask_of_texts(view["hand"])
        if opts.has("swap") and dreadful(table_for(view["ruleset"]), hand) and self._widow_gain(view) > 1.5:
            return opts.pick("swap")
        return opts.pick("keep")

    def auction(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        bid = opts.range("bid")
        if bid is not None:
            most = int(0.6 * self._widow_gain(view))
            if bid[0] <= most:
                return opts.pick("bid", bid[0])
        return opts.pick("pass")

    #: the fewest samples behind a win chance, how often it checks whether the decision is clear, and
    #: how many standard errors away from every threshold make it clear
    poker_min_samples = 8
    poker_check_every = 4
    poker_clear_z = 2.5

    def contest(self, view: dict[str, Any]) -> tuple[Known, list[int], list[int]]:
        """What a win chance starts from: the view's facts, the opponents still in the betting and the
        cards this seat has not seen."""
        k = self.known(view)
        folded = set((view.get("betting") or {}).get("folded", []))
        active = [s for s in range(k.n) if s != k.me and s not in folded]
        return k, active, [c for c in range(52) if k.unseen >> c & 1]

    def win_chance(self, view: dict[str, Any], thresholds: tuple[float, ...] = ()) -> float:
        """Monte-Carlo over the unseen cards, each sample weighted by how likely the opponents' bets
        were with the hands it gives them.  Only the hands that count are dealt (the active players'
        with five cards or more: the unseen cards are exchangeable, so the folded hands and the widow
        need no cards), and with ``thresholds`` it stops as soon as the estimate is more than
        ``poker_clear_z`` standard errors (weighted: Kish's effective sample size) from every one."""
        k, active, unseen = self.contest(view)
        if not active or k.hand.bit_count() < 5:
            return 1.0 if not active else 0.0
        mine = evaluate_mask(k.hand)
        dealt = [(k.sizes[s], k.aggression[s], k.credibility[s]) for s in active if k.sizes[s] >= 5]
        need = sum(size for size, _, _ in dealt)
        if not dealt or need > len(unseen):
            return 1.0
        others = k.n - 1
        # Each sample deals the hands in ``dealt``'s order (the same cards as ever), but looks at the players
        # who bet first: their hands weigh the sample. A player who did not bet only decides whether this seat
        # wins, so once one hand beats this seat's the others are not evaluated (stops_chance.poker_chance_pure).
        order = sorted(range(len(dealt)), key=lambda x: not dealt[x][1])
        # believed(credibility, strong) is credibility * strong + (1 - credibility) * UNINFORMED: its second
        # term is worked out once per player (the same sum, so the same weights)
        plan = [(x, aggression, credibility, (1.0 - credibility) * UNINFORMED, _strong_table(size, others))
                for x in order for size, aggression, credibility in [dealt[x]]]
        wins, weight_sum, n = poker_chance(self.rng.random, unseen, [size for size, _, _ in dealt], plan, _strong,
                                           others, mine, self.poker_samples, thresholds, self.poker_min_samples,
                                           self.poker_check_every, self.poker_clear_z)
        self.last_poker_samples = n
        return wins / weight_sum if weight_sum else 0.0

    def bet_thresholds(self, opts: Options, to_call: int, pot: int) -> tuple[float, ...]:
        if opts.has("check"):
            return (self.bet_from,) if opts.range("bet") is not None else (2.0,)
        out = [to_call / (pot + to_call)] if to_call > 0 else []
        if opts.range("raise") is not None:
            out.append(self.raise_from)
        return tuple(out) or (2.0,)

    #: ``p`` (its hand's chance to beat every player still in, as its counting weighs their bets) from
    #: which it bets, and from which it raises
    bet_from = 0.45
    raise_from = 0.6

    def bet_rule(self, p: float, opts: Options, to_call: int, pot: int) -> tuple[str, int]:
        # Value bets go in at the most the rules allow: the callers at a family table call on their
        # own cards, not on the price (easy calls any amount with a fair hand), so a smaller bet only
        # wins less.  Measured at one table of all four levels (bench.bots_stops), betting from 0.45
        # at the most won normal about a chip a hand more in poker than betting from 0.6 scaled to p.
        if opts.has("check"):
            bet = opts.range("bet")
            return ("bet", bet[1]) if bet is not None and p >= self.bet_from else ("check", 0)
        raise_range = opts.range("raise")
        if raise_range is not None and p >= self.raise_from:
            return "raise", raise_range[1]
        if p * (pot + to_call) >= to_call:  # the pot pays for the risk
            return "call", 0
        return "fold", 0

    def lead(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        k = self.known(view)
        kind = "lead" if opts.has("lead") else "play"
        options = opts.cards(kind)
        best, best_score = -1, -1e18
        for c in range(52):
            if options >> c & 1:
                s = counted_lead_score(k, c)
                if s > best_score:
                    best, best_score = c, s
        return opts.pick(kind, card=best)


# --------------------------------------------------------------------------------------- hard
def candidates(opts: Options) -> list[ActionJSON]:
    """The actions worth searching: every non-amount action, and for bids, bets and raises a few
    amounts (the least, some in between, the most within reason)."""
    out: list[ActionJSON] = []
    for kind, acts in opts.by_kind.items():
        if kind in ("bid", "bet", "raise"):
            low, high = int(acts[0]["min"]), int(acts[0]["max"])
            wanted = {low, min(high, low + 2), min(high, low + 5)} if kind == "bid" else {low, (low + high) // 2, high}
            out.extend(with_amount(acts[0], amount) for amount in sorted(wanted))
        else:
            out.extend(acts)
    return out


@register
class HardStopsBot(NormalStopsBot):
    """Determinization: samples the hidden cards consistently with its view, rebuilds the hand for
    each sample and rolls every candidate action out with the rules of thumb; picks the best mean of
    its own chips.  ``budget`` seconds per decision (default 1), or exactly ``samples`` worlds per
    decision when ``samples`` is set (reproducible under the seed)."""

    level = "hard"
    reads_actions = True  # its search replays the hand's actions (stops_search)

    def __init__(self, seed: int | str | None = None, budget: float | None = None,
                 samples: int | None = None) -> None:
        super().__init__(seed, budget, samples)
        #: worlds used by the last search (for benchmarks)
        self.last_worlds = 0

    #: how many standard errors the search's best must beat the ``normal`` choice by to replace it
    margin = 1.0
    #: worlds per phase as a multiple of ``samples`` (the fixed-sample mode): the betting round and the
    #: auction move the most chips, the play round's leads few
    sample_scale: dict[str, float] = {"poker": 2.0, "play": 0.5}  # noqa: RUF012 - read only
    #: the phases it searches; in the others it plays as ``normal``
    search_phases: frozenset[str] = frozenset({"widow", "auction", "poker", "play"})

    def decide(self, view: dict[str, Any], opts: Options) -> ActionJSON:
        return self.weigh(view, opts).preferred_action

    def estimate(self, view: View, extra: Sequence[ActionJSON] = ()) -> Estimate:
        """The decision weighed as :meth:`choose` makes it (:mod:`rummoli.bots.estimate`): the same
        short cuts (one legal action, a claim), the same candidates, worlds and choice; ``extra`` actions
        are weighed beside them in the same worlds and never preferred.  Unlike :meth:`choose`, every
        candidate is weighed in every world: the race still decides the choice, but a candidate it drops
        keeps being rolled out as a spectator, so that its value is not the few worlds (the first ones, and
        those that made it look worst) it was dropped after."""
        legal = require_legal(legal_actions(view))
        if len(legal) == 1 and "min" not in legal[0]:
            return self._judged(dict(view), legal[0], extra)
        opts = Options(legal)
        if opts.has("claim"):
            return self._judged(dict(view), opts.pick("claim"), extra)
        return self.weigh(dict(view), opts, extra, every=True)

    def facts(self, view: View, actions: Sequence[ActionJSON]) -> list[dict[str, Any]]:
        """What a coach may say of each action beside its chips: nothing more here (a widow's worth is
        read from the estimate itself)."""
        return [{} for _ in actions]

    def weigh(self, view: dict[str, Any], opts: Options, extra: Sequence[ActionJSON] = (),
              every: bool = False) -> Estimate:
        """:meth:`estimate` once the short cuts of :meth:`choose` are passed (``every``: each candidate
        weighed in every world, see :meth:`estimate`)."""
        if view["phase"] not in self.search_phases:
            return self._judged(view, super().decide(view, opts), extra)
        if view["phase"] == "widow" and not dreadful(table_for(view["ruleset"]), mask_of_texts(view["hand"])):
            # The family rule stands: a hand that is not dreadful keeps, and the dealer sells the widow.
            return self._judged(view, opts.pick("keep"), extra)
        start = time.perf_counter()
        fallback = super().decide(view, opts)
        cands = candidates(opts)
        if fallback not in cands:
            cands.append(fallback)
        if len(cands) == 1:
            return self._judged(view, cands[0], extra)
        default = cands.index(fallback)
        return self._search(view, cands, default, [*cands, *extra] if every else extra, start)

    def _judged(self, view: dict[str, Any], action: ActionJSON, extra: Sequence[ActionJSON]) -> Estimate:
        """A choice made by rule: weighed only when a coach brings other actions to compare it with."""
        others = [a for a in extra if a != action]
        if not others:
            return Estimate.rule(action, "chips")
        return self._search(view, [action], 0, others, time.perf_counter(), how="rule")

    def _search(self, view: dict[str, Any], cands: list[ActionJSON], default: int, extra: Sequence[ActionJSON],
                start: float, how: str = "search") -> Estimate:
        searched = len(cands)
        # Each extra action is a spectator, even one the bot searches too: the race may stop rolling that one
        # out, its copy is rolled out in every world (the same seeds give the same values) and stands for it.
        cands = list(cands)
        for action in extra:
            if action not in cands[searched:]:
                cands.append(action)
        spectators = frozenset(range(searched, len(cands)))
        k = self.known(view)
        samples = self.samples
        if samples is not None:
            samples = max(1, round(samples * self.sample_scale.get(view["phase"], 1.0)))
        results, weights = evaluate(k, view, cands, self.rng, self.budget - (time.perf_counter() - start),
                                    samples, out_of_time=self.out_of_time, keep=default, spectators=spectators)
        self.last_worlds = len(weights)
        if not weights and how == "search":
            log.warning("hard stops bot: its time ran out before one world was searched (%s, %s candidates); it "
                        "plays the normal level's choice %s", view["phase"], searched, cands[default])
        best = choose_best(results, weights, default, self.margin, spectators) if how == "search" else default
        for j in range(len(cands) - 1, searched - 1, -1):
            twin = cands.index(cands[j])
            if twin < j:  # a copy of a searched candidate: its values are the candidate's, in every world
                results[twin] = results.pop(j)
                cands.pop(j)
        chips = float(view["chips"][view["seat"]])
        return Estimate.build(cands, results, weights, best, default, "chips", offset=chips, how=how)
