"""Computer players for Poch, each reading only its seat's view.  Importing this module registers the levels
with :func:`rummoli.bots.base.make_bot` (``random`` is the shared baseline):

* ``easy`` -- knocks only with three of a kind or better and holds only with a pair; leads its lowest card;
* ``normal`` -- rates its combination against the cards it cannot see, sizes its knocks by it and holds when
  the pot pays for the risk; leads the card that sheds most of its own cards and keeps the lead;
* ``hard`` -- samples the hidden cards consistently with its view (what was melded, shown and laid, each
  hand's size, the stock), and in each sampled world plays every choice out to the end of the hand with the
  normal player's rules for everyone, within ``budget`` seconds or over ``samples`` worlds."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from rummoli.bots.base import ActionJSON, Bot, View, legal_actions, register, require_legal, with_amount
from rummoli.bots.estimate import Estimate
from rummoli.cards import Card
from rummoli.poch.cards import DECK, PLAY_ORDER, best_set, next_up


def _mask(cards: Sequence[str]) -> int:
    return sum(1 << Card.parse(c).index for c in cards)


def _trump(view: View) -> int:
    return Card.parse(view["trump"]["card"]).suit


def _run_top(view: View) -> str:
    ruleset = view["ruleset"]
    if isinstance(ruleset, dict):
        return str(ruleset.get("run_top", "ace"))
    return "king" if ruleset == "poch-hoyle" else "ace"


def _pick(legal: list[ActionJSON], kind: str, amount: int | None = None) -> ActionJSON | None:
    for option in legal:
        if option["action"] == kind:
            if "min" in option:
                low, high = int(option["min"]), int(option["max"])
                return with_amount(option, max(low, min(high, amount if amount is not None else low)))
            return option
    return None


class PochBot(Bot):
    """What every Poch level shares: the vying and the lead, each by its own rule."""

    game = "poch"
    writes_views = False
    reads_words = False

    def choose(self, view: View) -> ActionJSON:
        legal = require_legal(legal_actions(view))
        if legal[0]["action"] == "lead":
            return self.lead(view, legal)
        return self.vie(view, legal)

    #: worlds sampled to rate a combination at the vying
    vie_worlds = 24

    def strength(self, view: View) -> float:
        """The chance that this seat's combination beats every other still in the vying, over worlds sampled
        from its view (a rival who knocked is taken to hold a pair or better where the worlds allow)."""
        me, trump = view["seat"], _trump(view)
        mine = best_set(_mask(view["hand"]), trump)[0]
        vie = view["vie"]
        rivals = [s for s in range(len(vie["put"])) if s not in vie["folded"] and s != me]
        knocked = [s for s in rivals if vie["put"][s] > 0]
        started, wins, done, tries = time.monotonic(), 0, 0, 0
        while done < self.vie_worlds and tries < 4 * self.vie_worlds:
            if done and self.samples is None and time.monotonic() - started > self.budget / 4:
                break
            tries += 1
            world = sample_world(view, self.rng)
            keys = {s: best_set(world[s], trump)[0] for s in rivals}
            if tries < 3 * self.vie_worlds and any(keys[s][0] < 2 for s in knocked):
                continue  # a world where a knocker bluffs is kept only once the others are used up
            wins += all(keys[s] < mine for s in rivals)
            done += 1
        return wins / max(1, done)

    def vie(self, view: View, legal: list[ActionJSON]) -> ActionJSON:
        p = self.strength(view)
        return self.vie_by(view, legal, p)

    def vie_by(self, view: View, legal: list[ActionJSON], p: float) -> ActionJSON:
        vie = view["vie"]
        pocher = sum(v for k, v in view["pots"].items() if any(b["id"] == k and b["kind"] == "vie"
                                                                 for b in view["board"]))
        owed = vie["current"] - vie["put"][view["seat"]]
        if vie["current"] == 0:
            if p > 0.45 and (bet := _pick(legal, "bet", int(1 + p * 10))):
                return bet
            return _pick(legal, "check") or legal[0]
        if p > 0.8 and (raised := _pick(legal, "raise", int(p * 6))):
            return raised
        if p * (pocher + owed) >= (1 - p) * owed:
            return _pick(legal, "call") or legal[0]
        return _pick(legal, "fold") or legal[0]

    def lead(self, view: View, legal: list[ActionJSON]) -> ActionJSON:
        raise NotImplementedError


def lead_score(card: int, mine: int, gone: int, run_top: str) -> tuple[int, int, int]:
    """How good leading ``card`` looks from its own hand alone: whether the run comes back to us (its end is
    a card whose next is gone, or the top), how many of our cards it sheds, and the lower card first."""
    shed, at = 1, card
    while True:
        following = next_up(at, run_top)
        if following is None or (gone >> following) & 1:
            return 1, shed, -PLAY_ORDER[run_top].index(card % 13)
        if not (mine >> following) & 1:
            return 0, shed, -PLAY_ORDER[run_top].index(card % 13)
        shed += 1
        at = following


@register
class EasyPochBot(PochBot):
    level = "easy"
    reads_history = False

    def strength(self, view: View) -> float:
        count = best_set(_mask(view["hand"]), _trump(view))[0][0]
        return {1: 0.0, 2: 0.5, 3: 0.9, 4: 1.0}[count]

    def lead(self, view: View, legal: list[ActionJSON]) -> ActionJSON:
        order = PLAY_ORDER[_run_top(view)]
        return min(legal, key=lambda a: order.index(Card.parse(a["card"]).index % 13))


@register
class NormalPochBot(PochBot):
    level = "normal"
    reads_history = False

    def lead(self, view: View, legal: list[ActionJSON]) -> ActionJSON:
        mine, gone, top = _mask(view["hand"]), _mask([p["card"] for p in view["played"]]), _run_top(view)
        return max(legal, key=lambda a: lead_score(Card.parse(a["card"]).index, mine, gone, top))


# ------------------------------------------------------------------------------ the hard level's worlds
def known_places(view: View) -> tuple[list[int], int]:
    """Each seat's cards known to every seat (melded or shown and not laid since, the turned card), and
    the cards whose place nobody but their holder knows."""
    n = len(view["players"])
    known = [0] * n
    played = _mask([p["card"] for p in view["played"]])
    for meld in view["melds"]:
        known[meld["seat"]] |= _mask(meld["cards"])
    for seat, cards in view["showdown"].items():
        known[int(seat)] |= _mask(cards)
    holder = view["trump"]["holder"]
    if holder is not None:
        known[holder] |= _mask([view["trump"]["card"]])
    known = [k & ~played for k in known]
    me = view["seat"]
    known[me] = _mask(view["hand"])
    hidden = sum(1 << c for c in DECK) & ~played & ~sum(known)
    if holder is None:
        hidden &= ~_mask([view["trump"]["card"]])
    return known, hidden


def sample_world(view: View, rng: random.Random) -> list[int]:
    """Every seat's hand in one world consistent with the view (the stock takes what is left over)."""
    known, hidden = known_places(view)
    cards = [c for c in DECK if (hidden >> c) & 1]
    rng.shuffle(cards)
    hands = list(known)
    at = 0
    for seat, size in enumerate(view["hand_sizes"]):
        need = size - known[seat].bit_count()
        for c in cards[at:at + need]:
            hands[seat] |= 1 << c
        at += need
    return hands


def play_out(hands: list[int], gone: int, leader: int, run_top: str, first: int | None = None) -> tuple[int, list[int]]:
    """Play a world's hands to the end, each leader choosing by :func:`lead_score` (``first``: the first lead):
    the seat that goes out and the cards each seat still holds."""
    hands = list(hands)
    while True:
        mine = hands[leader]
        if first is not None:
            card, first = first, None
        else:
            card = max((c for c in DECK if (mine >> c) & 1), key=lambda c: lead_score(c, mine, gone, run_top))
        seat = leader
        while True:
            hands[seat] &= ~(1 << card)
            gone |= 1 << card
            if not hands[seat]:
                return seat, [h.bit_count() for h in hands]
            following = next_up(card, run_top)
            holder = -1 if following is None else next((s for s, h in enumerate(hands) if (h >> following) & 1), -1)
            if holder < 0 or following is None:
                leader = seat
                break
            seat, card = holder, following


@register
class HardPochBot(NormalPochBot):
    level = "hard"
    reads_history = False
    vie_worlds = 160

    def _worlds(self) -> int:
        return self.samples if self.samples is not None else 96

    def _stop(self, started: float, done: int) -> bool:
        if done >= self._worlds():
            return True
        if self.samples is None and time.monotonic() - started > self.budget and done > 0:
            return True
        return done > 0 and self.out_of_time()

    def lead(self, view: View, legal: list[ActionJSON]) -> ActionJSON:
        if len(legal) == 1:
            return legal[0]
        return self.estimate(view).preferred_action

    def estimate(self, view: View, extra: Sequence[ActionJSON] = ()) -> Estimate:
        """The decision weighed for the coach (:mod:`rummoli.bots.estimate`): a lead by the chips each card
        brings in every sampled world (the run played out: the centre and a card from each other seat when this
        seat goes out, a card to the winner for each it still holds otherwise); a vying decision, rated by its
        chance to win rather than by each choice's chips, is the bot's rule, unweighed. ``extra``: a taken
        action, always one of the legal ones here, so it is weighed with them."""
        legal = require_legal(legal_actions(view))
        if legal[0]["action"] != "lead" or len(legal) == 1:
            return Estimate.rule(self.choose(view), "chips")
        me, top = view["seat"], _run_top(view)
        gone = _mask([p["card"] for p in view["played"]])
        pools = {b["id"]: b["kind"] for b in view["board"]}
        out_pot = sum(v for k, v in view["pots"].items() if pools.get(k) == "out")
        scores: list[list[float]] = [[] for _ in legal]
        cards = [Card.parse(a["card"]).index for a in legal]
        started, done = time.monotonic(), 0
        while not self._stop(started, done):
            world = sample_world(view, self.rng)
            for i, card in enumerate(cards):
                winner, left = play_out(world, gone, me, top, card)
                scores[i].append(float(sum(left) + out_pot) if winner == me else float(-left[me]))
            done += 1
        mine = _mask(view["hand"])
        best = max(range(len(legal)), key=lambda i: (sum(scores[i]), lead_score(cards[i], mine, gone, top)))
        return Estimate.build(legal, scores, [1.0] * done, best, best, "chips")

    def facts(self, view: View, actions: Sequence[ActionJSON]) -> list[dict[str, Any]]:
        """Nothing more to word beside a Poch choice's value."""
        return [{} for _ in actions]
