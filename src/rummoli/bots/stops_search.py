"""Determinization for the ``hard`` stops bot: sample the hidden cards, rebuild a hand, roll out.

:func:`sample_world` places every card the seat has not seen (its view's :class:`Known`) into an
opponent's hand or the widow, keeping hand sizes and every fact the view shows; it then rebuilds the
dealt cards (the swapper's dealt hand is the widow now, and the former widow is in its hand), builds a
:class:`~rummoli.stops.Hand` from the view's starting chips and pots and replays the view's public
actions.  :func:`evaluate` plays each candidate action in each world and finishes the hand with the
rules of thumb (:func:`policy_step`, every seat deciding on its own cards only), scoring the seat's
chips at the end; :func:`playout` plays the play round of each rollout on local masks
(:mod:`~rummoli.bots.stops_playout`), with the engine's results.  The same worlds and the same
rollout seeds serve every candidate, so their differences are not noise from the deal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from rummoli.bots.base import FIRST_WORLD_GRACE
from rummoli.bots.stops_infer import Known, card_index, mask_of_texts
from rummoli.bots.stops_memory import believed
from rummoli.bots.stops_playout import lead_choice, play_round
from rummoli.bots.stops_policy import Table, dreadful, hand_percentile
from rummoli.bots.stops_rollout import bet_chance, bet_choice, facing_a_bet, rollout_bidding
from rummoli.errors import IllegalAction
from rummoli.poker import evaluate_mask
from rummoli.stops.hand import AUCTION, BETTING, OVER, PLAY, WIDOW, Hand
from rummoli.twins import compiled


def _place(k: Known, rng: random.Random, strict: int) -> list[int] | None:
    """Masks of unseen cards per location (seats, then the widow), or ``None`` if stuck.

    ``strict`` 2 keeps every fact, 1 drops the lowest-lead facts, 0 keeps only sizes and forced cards.
    """
    fixed = k.place_cache.get(strict)
    if fixed is None:  # the same for every world of a decision: worked out once
        fixed = k.place_cache[strict] = place_inputs(k, strict)
    caps, out, items = fixed
    return place_cards(rng.random, rng.getrandbits, caps, out, items)


def place_cards_pure(random_: Callable[[], float], bits: Callable[[int], int], caps: list[int], out: list[int],
                     items: list[tuple[int, int, list[int]]]) -> list[int] | None:
    """The free cards ``items`` (how many places each may go to, the card, those places) placed: one
    ``random_()`` a card in card order, then the cards with the fewest places first (ties by those draws), each
    place drawn in proportion to the room ``caps`` left there; ``out`` (each place's cards) with them, or ``None``
    when a card has no room left.  ``caps`` and ``out`` are not changed.  Its compiled twin is ``place_cards``."""
    caps, out = list(caps), list(out)
    cards = [(count, random_(), c, allowed) for count, c, allowed in items]  # one draw per card, in card order
    cards.sort()
    for _, _, c, allowed in cards:
        total = 0
        for loc in allowed:
            total += caps[loc]
        if total <= 0:
            return None
        # rng.randrange(total) as it draws (the fewest bits that reach total, again while out of range),
        # without its argument checks (tests/bots/test_stops_bots.py holds the two equal)
        size = total.bit_length()
        pick = bits(size)
        while pick >= total:
            pick = bits(size)
        for loc in allowed:
            if pick < caps[loc]:
                break
            pick -= caps[loc]
        caps[loc] -= 1
        out[loc] |= 1 << c
    return out


#: :func:`place_cards_pure`, compiled where it could be (rummoli.twins)
place_cards: Callable[..., list[int] | None] = compiled("place_cards") or place_cards_pure


def place_inputs(k: Known, strict: int) -> tuple[list[int], list[int], list[tuple[int, int, list[int]]]]:
    """What :func:`_place` starts from at ``strict``: the room left in each location and the cards
    already placed once the forced cards are in, and each free card with the locations it may go to."""
    n = k.n
    caps = k.capacity()
    out = [0] * (n + 1)
    free = k.unseen
    for c, loc in k.forced.items():
        if caps[loc] > 0:
            caps[loc] -= 1
            out[loc] |= 1 << c
            free &= ~(1 << c)
    banned = [0] * (n + 1)
    if strict >= 1:
        banned = list(k.forbid)
    if strict >= 2:
        banned = [b | s for b, s in zip(banned, k.soft, strict=True)]
    banned[k.me] = -1 & ((1 << 52) - 1)
    items = []
    for c in range(52):
        if free >> c & 1:
            allowed = [loc for loc in range(n + 1) if not banned[loc] >> c & 1]
            items.append((len(allowed), c, allowed))
    return caps, out, items


def _repair(k: Known, placed: list[int], seat: int, value: int, rng: random.Random) -> bool:
    """Swap cards between ``seat`` and other locations until its poker hand is worth what it showed."""
    fixed = sum(1 << c for c, loc in k.forced.items() if loc == seat)
    current = evaluate_mask(placed[seat] | k.played_by[seat])
    others = [loc for loc in range(k.n + 1) if loc != seat and loc != k.me]
    banned = [b | s for b, s in zip(k.forbid, k.soft, strict=True)]
    for _ in range(60):
        if current == value:
            return True
        mine = [c for c in range(52) if (placed[seat] & ~fixed) >> c & 1]
        if not mine:
            return False
        loc = rng.choice(others)
        movable = placed[loc] & ~sum(1 << c for c, f in k.forced.items() if f == loc)
        theirs = [c for c in range(52) if movable >> c & 1]
        if not theirs:
            continue
        x, y = rng.choice(mine), rng.choice(theirs)
        if banned[loc] >> x & 1 or banned[seat] >> y & 1:
            continue
        trial = placed[seat] ^ (1 << x) ^ (1 << y)
        v = evaluate_mask(trial | k.played_by[seat])
        if v <= current:
            placed[seat] = trial
            placed[loc] ^= (1 << x) ^ (1 << y)
            current = v
    return current == value


def _holds_unpaid(k: Known, placed: list[int]) -> bool:
    """Whether some dealt hand holds a whole combo that ``pay = on_hold`` paid nobody for."""
    dealt = [placed[s] | k.played_by[s] for s in range(k.n)]
    dealt[k.me] = k.hand | k.played_by[k.me]
    if k.swapped >= 0:
        dealt[k.swapped] = placed[k.n] | k.known_widow
    return any(d & m == m for masks in k.unpaid_combos for m in masks for d in dealt)


def sample_world(k: Known, view: dict[str, Any], rng: random.Random,
                 likelihood: list[float] | None = None) -> Hand | None:
    """A hand consistent with the view, replayed to the present decision, or ``None``.

    With ``likelihood`` (a one-element list), its value is multiplied by how likely the opponents'
    betting actions are with the hands this world gives them (:func:`bet_likelihood`)."""
    n = k.n
    shown = [(int(s), evaluate_mask(mask_of_texts(cards))) for s, cards in (view.get("showdown") or {}).items()]
    placed = None
    for attempt in range(12):
        placed = _place(k, rng, 2 if attempt < 8 else 1 if attempt < 10 else 0)
        if placed is None:
            continue
        # A showdown shows each hand's best five: the rest of that hand must not beat them.
        if attempt < 10 and not all(_repair(k, placed, s, v, rng) for s, v in shown if s != k.me):
            placed = None
            continue
        if k.unpaid_combos and attempt < 10 and _holds_unpaid(k, placed):
            placed = None
            continue
        break
    if placed is None:
        return None
    current = placed[:n]
    current[k.me] = k.hand
    widow_now = placed[n] | k.known_widow
    dealt = [current[s] | k.played_by[s] for s in range(n)]
    dealt_widow = widow_now
    if k.swapped >= 0:
        dealt[k.swapped], dealt_widow = widow_now, dealt[k.swapped]
    start = view["start"]
    try:
        pots = k.place_cache.get("pots")
        if pots is None:  # the view's starting pots, one balance per pot of the board, read once per decision
            pots = k.place_cache["pots"] = [int(start["pots"].get(pot_id, 0)) for pot_id in k.t.pot_ids]
        hand = Hand.from_masks(k.t.rules, view["players"], start["chips"], pots, k.dealer, dealt, dealt_widow,
                               ante=bool(start["ante"]), auto=False)
        steps = k.place_cache.get("steps")
        if steps is None:  # the view's actions, read once per decision
            steps = k.place_cache["steps"] = [
                (int(a["seat"]), a["action"], -1 if a.get("card") is None else card_index(a["card"]),
                 int(a.get("amount", 0)), bool(a.get("forced", False))) for a in view["actions"]]
        # The moment of each weighed bet (who is still in, what it cost, the pot) is public, so the same in every
        # world: worked out in the first world that reaches it, once per decision.
        moments = k.place_cache.setdefault("bet_moments", {})
        for i, (seat, kind, card, amount, forced) in enumerate(steps):
            if (likelihood is not None and hand.phase == BETTING and seat != k.me
                    and not forced and kind in _BET_KINDS):
                moment = moments.get(i)
                if moment is None:
                    moment = moments[i] = bet_moment(hand, k.t, seat)
                likelihood[0] *= believed(k.credibility[seat],
                                          likelihood_of(hand_percentile(hand.hands[seat]), moment, kind))
            hand.step(seat, kind, card, amount, forced)
    except (ValueError, IndexError, IllegalAction):
        return None
    if hand.hands[k.me] != k.hand or hand.phase != view["phase"]:
        return None
    hand.auto = True
    return hand


_BET_KINDS = frozenset({"check", "bet", "call", "raise", "fold"})
#: the phases :func:`rollout_bidding` plays through in one call
_BIDDING = frozenset({WIDOW, AUCTION, BETTING})


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def bet_likelihood(hand: Hand, t: Table, seat: int, kind: str) -> float:
    """How likely a seat's betting action is with the hand it holds in a world (at least 0.05).

    The model is the family rule (:func:`~rummoli.bots.stops_policy.easy_bet`): bet and raise on
    strength, call on a fair chance against the pot's odds, fold or check otherwise.  The ``normal``
    level bets on somewhat less (from a 0.45 chance), so this reads its bets as a little stronger than
    they are; the thresholds are softened so a world is made less likely, never impossible."""
    return likelihood_of(hand_percentile(hand.hands[seat]), bet_moment(hand, t, seat), kind)


def bet_moment(hand: Hand, t: Table, seat: int) -> tuple[int, int, int]:
    """The public side of a seat's betting decision: how many others are still in, what it must add to stay
    in, and the poker pot."""
    folded = hand.folded
    others = sum(1 for s in range(hand.n) if s != seat and not folded >> s & 1)
    return others, hand.to_call(seat), hand.pots[t.poker or 0]


def likelihood_of(pct: float, moment: tuple[int, int, int], kind: str) -> float:
    """:func:`bet_likelihood` from the hand's percentile and the decision's :func:`bet_moment`."""
    others, to_call, pot = moment
    p = pct ** max(1, others)
    if to_call <= 0:
        strong = sigmoid((p - 0.6) / 0.07)
        return max(0.05, strong if kind in ("bet", "raise") else 1.0 - strong)
    strong = sigmoid((p - 0.75) / 0.07)
    if kind in ("bet", "raise"):
        return max(0.05, strong)
    stay = sigmoid((p - 1.2 * to_call / max(1, pot + to_call)) / 0.08)
    return max(0.05, stay * (1.0 - strong) if kind == "call" else 1.0 - stay)


def verify_world(hand: Hand, view: dict[str, Any]) -> bool:
    """Whether a sampled world shows exactly the view's public facts (for tests)."""
    mine = hand.view(view["seat"], history=True)
    keys = ("phase", "to_act", "chips", "pots", "hand", "hand_sizes", "widow_size", "swapped", "played",
            "actions", "legal_actions")
    if not all(mine.get(key) == view.get(key) for key in keys):
        return False

    def public(events: list[dict[str, Any]]) -> list[Any]:
        # Equal best hands may show other cards of the same ranks: compare a showdown by its value.  The
        # states an event carries depend on when the stream was read, not on the cards: left out.
        return [evaluate_mask(mask_of_texts(e["cards"])) if e["type"] == "showdown"
                else {k: v for k, v in e.items() if k not in ("seq", "state")} for e in events]

    return public(mine["events"]) == public(view["events"])


# --------------------------------------------------------------------------------- rollouts
def counted_lead(hand: Hand, t: Table, seat: int, options: int) -> int:
    """The ``normal`` level's lead for a seat of a rollout, from its own cards and the cards played."""
    played = 0
    for c, owner in enumerate(hand.owner):
        if owner == -2:
            played |= 1 << c
    widow = 52 - sum(m.bit_count() for m in hand.hands) - played.bit_count()
    return lead_choice(t, hand.hands[seat], played, hand.pots, widow, options)


def wild_bet(hand: Hand, rng: random.Random) -> None:
    """A betting decision that says nothing of the cards: uniform over the legal actions, every amount
    of a bet or raise counting as one (how a bettor the memory no longer believes is modelled).

    The amounts are counted, never listed (a ruleset's ``max_bet`` may be a million): one draw below
    their total picks the action and the amount, the draw ``rng.choice`` would make from the list."""
    spans = [(kind, low, high - low + 1 if kind in ("bet", "raise") else 1) for _, kind, low, high, _ in hand.options()]
    pick = rng.randrange(sum(count for _, _, count in spans))
    for kind, low, count in spans:
        if pick < count:
            hand.step(hand.turn, kind, amount=low + pick if kind in ("bet", "raise") else 0)
            return
        pick -= count


def policy_step(hand: Hand, t: Table, doubted: int = 0) -> None:
    """One decision by the rules of thumb for whoever is to act, on their own cards only (and on which
    seats, ``doubted``, are not believed: a bet they made says nothing of their cards).  Before the play
    round, :func:`~rummoli.bots.stops_rollout.rollout_bidding` makes the same decisions in one call; this
    is the reference it is held to (tests/bots/test_stops_rollout.py)."""
    phase = hand.phase
    if phase == PLAY:
        if hand.claim_pending >= 0:
            hand.step(hand.claim_pending, "claim")
        else:
            seat, mask = hand.turn, hand.lead_mask
            card = counted_lead(hand, t, seat, mask) if mask & (mask - 1) else mask.bit_length() - 1
            hand.step(seat, "play" if hand.in_run else "lead", card)
    else:
        seat = hand.turn
        opts = {o[1]: o for o in hand.options()}
        if phase == BETTING:
            folded = hand.folded
            m = sum(1 for s in range(hand.n) if s != seat and not folded >> s & 1)
            pct = hand_percentile(hand.hands[seat])
            to_call = hand.to_call(seat)
            facing = facing_a_bet(to_call, m, doubted, (hand.to_call(s) for s in range(hand.n)))
            bet = opts.get("bet")
            rai = opts.get("raise")
            kind, amount = bet_choice(bet_chance(pct, m, facing), "check" in opts,
                                      None if bet is None else (bet[2], bet[3]),
                                      None if rai is None else (rai[2], rai[3]), to_call, hand.pots[t.poker or 0])
            hand.step(seat, kind, amount=amount)
        elif phase == AUCTION:
            bid = opts.get("bid")
            if bid is not None and bid[2] <= 2 and dreadful(t, hand.hands[seat]):
                hand.step(seat, "bid", amount=bid[2])
            else:
                hand.step(seat, "pass")
        elif phase == WIDOW:
            swap = "swap" in opts and dreadful(t, hand.hands[seat])
            hand.step(seat, "swap" if swap else "keep")


class Expired(Exception):
    """A rollout stopped half-way: the decision's time ran out (its world counts for nothing)."""



#: steps of a rollout between two looks at the clock (a ruleset with a thousand raises makes long ones)
CHECK_EVERY = 64


def _ticker(expired: Callable[[], bool] | None) -> Callable[[], None]:
    """A function to call at each step of a rollout: it raises :class:`Expired` once ``expired()`` says
    so, asking it every :data:`CHECK_EVERY` steps."""
    if expired is None:
        return lambda: None
    count = [0]

    def tick() -> None:
        count[0] += 1
        if count[0] % CHECK_EVERY == 0 and expired():
            raise Expired

    return tick


def rollout(hand: Hand, t: Table, wild: int = 0, rng: random.Random | None = None, doubted: int = 0,
            expired: Callable[[], bool] | None = None) -> None:
    """Finish the hand with :func:`policy_step` for every seat, except that the seats in the bit set
    ``wild`` make their betting decisions with :func:`wild_bet` (drawing from ``rng``).  Bets by the
    seats in ``doubted`` (by default the wild ones) are taken as no sign of a hand.  With ``expired``,
    :class:`Expired` is raised once it says the time is up."""
    doubted |= wild
    tick = _ticker(expired)
    while hand.phase != "over":
        tick()
        if wild and hand.phase == BETTING and wild >> hand.turn & 1 and rng is not None:
            wild_bet(hand, rng)
        else:
            policy_step(hand, t, doubted)


def apply_json(hand: Hand, action: dict[str, Any]) -> None:
    hand.step(*raw_action(action))


def raw_action(action: dict[str, Any]) -> tuple[int, str, int, int]:
    """An action's ``(seat, kind, card index or -1, amount)``, as :meth:`Hand.step` takes them."""
    card = action.get("card")
    return int(action["seat"]), action["action"], -1 if card is None else card_index(card), int(action.get("amount", 0))


def playout(hand: Hand, t: Table, action: tuple[int, str, int, int], wild: int = 0,
            rng: random.Random | None = None, doubted: int = 0,
            expired: Callable[[], bool] | None = None) -> list[int]:
    """The chips at the end of ``hand`` after ``action`` (a :func:`raw_action`) and :func:`rollout`: the
    same hand played the same way, its play round by :func:`~rummoli.bots.stops_playout.play_round`.

    The hand is stepped with ``auto`` off, so that the engine stops where the play round begins (the
    forced actions before it are made here, as ``auto`` would make them at once).  The decisions before
    the play round are made in one call (:func:`~rummoli.bots.stops_rollout.rollout_bidding`, the same
    choices as :func:`policy_step` and :func:`wild_bet` one by one).  A lead or play is not stepped at all:
    the hand is then left as it was, and needs no clone.  ``expired`` is :func:`rollout`'s, read in the
    play round: the one call does not look at the clock (a thousand raises at the limits ruleset take it
    about 20 ms)."""
    seat, kind, card, amount = action
    if hand.phase == PLAY and hand.claim_pending < 0 and not hand.in_run:
        return play_round(hand, t, card)[0]
    if hand.phase == PLAY:  # an open claim or a run: the engine's play round
        hand.step(seat, kind, card, amount)
        rollout(hand, t, wild, rng, doubted, expired)
        return hand.chips
    hand.auto = False
    hand.step(seat, kind, card, amount)
    if hand.phase in _BIDDING and (rng is None or type(rng) is random.Random):
        rollout_bidding(hand, t, wild, rng, doubted)  # the same decisions, in one call
    doubted |= wild
    tick = _ticker(expired)
    while True:
        tick()
        phase = hand.phase
        if phase == PLAY:
            return play_round(hand, t)[0]
        if phase == OVER:
            return hand.chips
        opt = hand.forced_option()
        if opt is not None:
            hand.step(opt[0], opt[1], -1, opt[2], True)
        elif wild and phase == BETTING and wild >> hand.turn & 1 and rng is not None:
            wild_bet(hand, rng)
        else:
            policy_step(hand, t, doubted)


#: racing: from this many worlds on, and every ``RACE_EVERY`` after, a candidate whose paired deficit to
#: the leader is more than ``RACE_Z`` standard errors (and a chip) is no longer rolled out
RACE_FROM = 16
RACE_EVERY = 8
RACE_Z = 3.0


def _race(results: list[list[float]], weights: list[float], alive: list[int], keep: int,
          spectators: frozenset[int] = frozenset()) -> list[int]:
    """The candidates still worth rolling out: all but those clearly behind the leader (``keep`` stays, and
    so do the ``spectators``, which are weighed but never lead)."""
    total = sum(weights)
    if total <= 0:
        return alive
    eff = total * total / sum(w * w for w in weights)
    means = {j: sum(w * x for w, x in zip(weights, results[j], strict=True)) / total for j in alive}
    leader = max((j for j in alive if j not in spectators), key=lambda j: means[j])
    out = []
    for j in alive:
        if j in (leader, keep) or j in spectators:
            out.append(j)
            continue
        gap = means[leader] - means[j]
        var = sum(w * (a - b - gap) ** 2 for w, a, b in zip(weights, results[leader], results[j], strict=True)) / total
        if gap <= max(1.0, RACE_Z * (var / max(1.0, eff - 1)) ** 0.5):
            out.append(j)
    return out


def evaluate(k: Known, view: dict[str, Any], candidates: list[dict[str, Any]], rng: random.Random,
             budget: float, samples: int | None, max_samples: int = 5000,
             out_of_time: Callable[[], bool] = lambda: False, keep: int = 0,
             spectators: frozenset[int] = frozenset()) -> tuple[list[list[float]], list[float]]:
    """The seat's final chips for each candidate in each world, and each world's weight.

    With ``samples`` set, exactly that many worlds are tried (deterministic under the bot's seed);
    otherwise worlds are drawn until ``budget`` seconds have passed.  Either way the search stops early
    once ``out_of_time()`` says so (a server's deadline).  The clock is read inside the rollouts too: a
    world whose rollouts the time cuts short counts for nothing, so a decision may end with no world at
    all (:func:`choose_best` then keeps the default).

    Candidates race: one clearly behind the leader (see ``RACE_Z``) stops being rolled out, so the
    worlds that follow cost less and more of them fit the budget.  Its results stop short (fewer than
    the weights): :func:`choose_best` never picks it.  Candidate ``keep`` (the fallback) always runs, and so
    do the ``spectators`` (a coach's extra actions), which never count in the race: the same worlds and the
    same rollouts give the others the same results with or without them.
    """
    start = time.perf_counter()
    results: list[list[float]] = [[] for _ in candidates]
    weights: list[float] = []
    alive = list(range(len(candidates)))
    raw = [raw_action(c) for c in candidates]
    leads = k.phase == PLAY and all(kind in ("lead", "play") for _, kind, _, _ in raw)
    limit = samples if samples is not None else max_samples

    def expired() -> bool:
        # the first world may take FIRST_WORLD_GRACE beyond the budget (not beyond the deadline)
        spent = time.perf_counter() - start
        return (samples is None and spent >= budget + (0.0 if weights else FIRST_WORLD_GRACE)) or out_of_time()

    for i in range(limit):
        count = len(weights)
        racing = sum(1 for j in alive if j not in spectators)
        if racing > 2 and count >= RACE_FROM and count % RACE_EVERY == 0 and results[alive[0]]:
            alive = _race(results, weights, alive, keep, spectators)
        if out_of_time() or (i > 0 and expired()):
            break
        likelihood = [1.0]
        world = sample_world(k, view, rng, likelihood)
        if world is None:
            continue
        # Each opponent is, in this world, a bettor on strength or (as far as its showdowns have
        # discredited it) a wild one; every candidate meets the same opponents and the same draws.
        wild = sum(1 << s for s in range(k.n) if s != k.me and rng.random() >= k.credibility[s])
        # The others, too, may have stopped believing this seat's bets (they saw its showdowns).
        doubted = wild | (1 << k.me if rng.random() >= k.credibility[k.me] else 0)
        seed = rng.getrandbits(32)
        last = alive[-1]
        # A lead at a settled play round leaves the world as it is (play_round): no clone.  Otherwise
        # the last candidate may have the world itself.
        keeps = leads and world.claim_pending < 0 and not world.in_run
        row = []
        try:
            for j in alive:
                h = world if j == last or keeps else world.clone()
                # Only a wild bettor draws from the rollout's generator: it is seeded for that case alone.
                chips = playout(h, k.t, raw[j], wild, random.Random(seed) if wild else None, doubted, expired)
                row.append(float(chips[k.me]))
        except Expired:
            break
        weights.append(likelihood[0] if k.phase == "poker" else 1.0)
        for j, x in zip(alive, row, strict=True):
            results[j].append(x)
    return results, weights


def choose_best(results: list[list[float]], weights: list[float], default: int, z: float = 1.0,
                spectators: frozenset[int] = frozenset()) -> int:
    """The candidate with the best weighted mean, if it beats ``default`` by more than ``z`` standard
    errors of the paired differences (and a quarter chip); otherwise ``default``.  ``spectators`` are
    never chosen."""
    total = sum(weights)
    if not weights or total <= 0:
        return default
    # dropped by the race, or only weighed for a coach: not these
    full = [j for j, r in enumerate(results) if len(r) == len(weights) and j not in spectators]
    means = {j: sum(w * x for w, x in zip(weights, results[j], strict=True)) / total for j in full}
    best = max(full, key=lambda j: means[j])
    if best == default:
        return best
    diffs = [a - b for a, b in zip(results[best], results[default], strict=True)]
    mean = means[best] - means[default]
    if len(diffs) < 2:
        return default
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    eff = total * total / sum(w * w for w in weights)
    se = (var / max(1.0, eff - 1)) ** 0.5
    return best if mean > max(0.25, z * se) else default
