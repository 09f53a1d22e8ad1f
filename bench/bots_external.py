"""Our Gin bots against bots nobody here wrote, on engines nobody here wrote.

    python -m bench.bots_external [--deals N] [--levels normal,hard@1,hard@0.25] [--engines openspiel,rlcard,ours]
                                  [--hard-samples K | --hard-budget S] [--workers W] [--seed S]

* **OpenSpiel** (``open_spiel`` ``gin_rummy``, C++): our bot against ``make_simple_gin_rummy_bot``.
* **RLCard** (``rlcard`` ``gin-rummy``): our bot against ``GinRummyNoviceRuleAgent``, its rule-based agent.
* **ours** (our ``gin-rummy`` engine): our bot against our own ``normal`` bot, one hand a game, so that "hard
  beats normal" is measured the same way, deal by deal with the seats swapped.

By default every level plays 500 deals (1,000 games) on each engine: ``normal``, and ``hard`` as shipped
(``hard@1``: one second a decision, the product's budget) and at a quarter of that; a fixed number of worlds
(``--hard-samples``, for ``hard`` without ``@``) makes a run repeatable but is not what players meet.  Every
worker's CPU is counted, and each of our decisions is timed (p50/p95/p99, the wall clock a player waits).

Each deal is played twice with the seats swapped (our bot gets the cards, and the turn, that the other bot
had), so the luck of the deal cancels.  Every game is played by the other engine's rules and scored by its
code: OpenSpiel's ``returns()``, RLCard's ``get_payoffs()``.  The report gives games, our win rate (a tie
counts half) and our points per game, each with a 95% interval taken over the deals (a deal's two games
are one observation), and the adapter's hidden-card check.

**The adapter** (:class:`Seat` and the two engine classes) is the only thing our bot talks to.  It is
fed what the engine shows our seat and nothing else: OpenSpiel's observation for our player (its
string for the phase and whose turn it is, its tensor for our hand, the upcard, the discard pile, the
stock size and the melds laid), and RLCard's state for our player at our turns (our hand, the top
discard, the cards beneath it, the cards the opponent is known to hold from the pile, the unknown cards).
The other player's moves are read from how that information changes: the upcard taken, a stock draw,
the card discarded.  From that it keeps our seat's view in our engine's format (``rummoli.rummy``'s
``view``: hand, discard pile in order, public history, our blind draws, legal actions) and hands it to
our bot, then turns the bot's answer into the engine's action id, and checks it is in the engine's legal
list before sending it.  The **hidden-card check** is made by the referee, outside the adapter: after
every view it asks the engine's full state for the cards our seat cannot know (the stock, and the
opponent's cards never seen on the pile) and counts any the view names.  It must be 0.

**Rule differences, and what the adapter does about them:**

* *Deal and first turn.*  OpenSpiel deals 10 each and offers the upcard as we do (player 0 first, then
  the dealer, player 1; after two passes player 0 draws from the stock): our seat numbers are theirs and
  the dealer is seat 1.  RLCard deals the non-dealer 11 cards and no upcard; the non-dealer discards
  first.  The adapter shows this as our rules' nearest deal: the non-dealer took the upcard.  When that is
  our bot, one of its 11 cards (one it would keep: in its best melds, else its cheapest) is named the
  upcard, so our bot may not throw it at once; when it is the other bot, the upcard is shown as a card
  nobody named (our bot's view allows that; the search samples it).
* *The knock.*  Both engines knock at 10 like us.  OpenSpiel knocks in steps (knock, then the discard,
  then each meld, then pass): the adapter sends the bot's discard and then the best arrangement of the
  ten cards kept, meld by meld.  It offers our bot a knock only where OpenSpiel allows one (its test
  takes the 11-card hand's arrangement, which can refuse a knock ours allows) and where ours does.
  RLCard's knock is one action with its card, as ours; where it can gin it allows only the gin, and the
  view then offers only that knock.
* *The lay-off phase.*  After OpenSpiel's opponent knocks, our bot chooses its lay-offs from its view and
  the knocker's melds (``lay_off``: the normal and hard bots take the exact least deadwood, the easy bot
  lays off what fits its loose cards); the adapter sends them card by card, then the best melds of the
  rest, meld by meld.  (Our own engine settles a knock's lay-offs by rule.)  RLCard has no lay-offs: each
  hand is counted as it is.
* *The wall.*  Our rules end the hand when two cards are left in the stock.  Both engines allow one more
  move there: take the upcard and knock (OpenSpiel's wall phase, RLCard's pick-up before a dead hand).
  The adapter takes it exactly when the knock is then legal and knocks with the card that leaves the
  least deadwood; otherwise it passes (OpenSpiel) or declares the dead hand (RLCard).
* *Discarding the card just taken.*  OpenSpiel allows it (and ends the game on the second repeat); ours
  and RLCard's forbid it.  The view offers our rules' choices, a subset of theirs.
* *Scores and bonuses.*  One game is one deal.  OpenSpiel pays the knocker the deadwood difference, 25
  more for gin; an undercut (strictly less deadwood) pays the defender the difference and 25; a tie goes
  to the knocker with nothing (ours gives the defender the undercut).  RLCard's payoff is not Gin points:
  1 for gin, 0.2 for a knock whatever the defender holds, else minus the deadwood / 100; its win is the
  higher payoff.  Our boxes, game bonus and target do not exist there; our bots play each deal as the
  first of a game (scores 0 to 0), so the bots still reckon with our undercut and bonuses, not theirs.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummoli.bots import make_bot
from rummoli.bots import rummy_bots as _rummy_bots  # noqa: F401  (registers the Rummy levels)
from rummoli.bots.base import Bot
from rummoli.cards import Card
from rummoli.rummy.melds import meld_table

RULESET = "gin-rummy"
KNOCK_LIMIT = 10
TABLE = meld_table("low", 1)  # Gin's aces: low, one point (as OpenSpiel's and RLCard's)


def bit(name: str) -> int:
    return Card.parse(name).bit


def mask(names: Iterable[str]) -> int:
    out = 0
    for name in names:
        out |= bit(name)
    return out


_NAME = [""] * 52
for _rank in "23456789TJQKA":
    for _suit in "shdc":
        _NAME[Card.parse(_rank + _suit).index] = str(Card.parse(_rank + _suit))


def names_of(m: int) -> list[str]:
    return [_NAME[i] for i in range(52) if m >> i & 1]


def pieces(meld: int, known: dict[int, int]) -> list[int]:
    """A meld as melds an engine lists (OpenSpiel's runs stop at five cards): a longer run in threes and the rest."""
    if meld in known:
        return [meld]
    order = sorted(names_of(meld), key=lambda n: (Card.parse(n).index % 13 + 1) % 13)  # ace low
    if len(order) < 6:
        return [meld]
    return [mask(order[:3]), *pieces(mask(order[3:]), known)]


def deadwood_after(hand: int, card: str) -> int:
    return TABLE.deadwood(hand & ~bit(card))


def keep_card(hand: int) -> str:
    """The card of ``hand`` a player would least throw: one in its best melds (the dearest), else its cheapest."""
    _, melds = TABLE.best_arrangement(hand)
    cover = 0
    for m in melds:
        cover |= m
    pool = cover or hand
    if cover:
        return max(names_of(pool), key=lambda n: (TABLE.card_value(bit(n)), n))
    return min(names_of(pool), key=lambda n: (TABLE.card_value(bit(n)), n))


# ------------------------------------------------------------------ our seat's view, as our engine writes it
class Seat:
    """Our seat's view of one Gin hand in another engine, kept from what that engine shows the seat.

    ``named`` collects every card the view has ever named, for the referee's hidden-card check."""

    def __init__(self, me: int, dealer: int, bot: Bot) -> None:
        self.me, self.dealer, self.bot = me, dealer, bot
        self.history: list[dict[str, Any]] = []
        self.drawn: list[list[Any]] = []
        self.turned_up: str | None = None
        self.pile: list[str] = []
        self.hand: list[str] = []
        self.stock = 31
        self.sizes = [10, 10]
        self.taken: str | None = None  # the card we took from the pile this turn
        self.knock_with: str | None = None  # the card our knock throws (OpenSpiel knocks in steps)
        self.laying: set[str] | None = None  # the cards our bot lays off after the other's knock
        self.gin_points = 0.0  # (RLCard) the deal's Gin points for us, counted as OpenSpiel counts them
        self.named: set[str] = set()
        self.decisions = 0
        #: seconds each of our bot's decisions took (the wall clock, as a player waits for it)
        self.times: list[float] = []

    def record(self, seat: int, kind: str, forced: bool = False, **fields: Any) -> None:
        entry: dict[str, Any] = {"type": "action", "seat": seat, "action": kind, **fields}
        if forced:
            entry["forced"] = True
        self.history.append(entry)

    def draw_pile(self, seat: int, card: str | None) -> None:
        if card is None:  # the upcard nobody named (RLCard's non-dealer's eleventh card)
            self.record(seat, "draw", **{"from": "discard"})
        else:
            self.record(seat, "draw", **{"from": "discard", "card": card})
            if self.pile and self.pile[-1] == card:
                self.pile.pop()
        self.sizes[seat] += 1
        if seat == self.me:
            self.taken = card

    def draw_stock(self, seat: int, card: str | None, forced: bool = False) -> None:
        if seat == self.me:
            assert card is not None
            self.drawn.append([len(self.history), card])
        self.record(seat, "draw", forced, **{"from": "stock"})
        self.stock -= 1
        self.sizes[seat] += 1

    def passes(self, seat: int) -> None:
        self.record(seat, "pass")

    def discard(self, seat: int, card: str, kind: str = "discard") -> None:
        self.record(seat, kind, card=card)
        self.pile.append(card)
        self.sizes[seat] -= 1
        if seat == self.me:
            self.taken = None

    def view(self, phase: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": RULESET,
            "style": "gin",
            "players": ["P0", "P1"],
            "scores": [0, 0],
            "dealer": self.dealer,
            "seat": self.me,
            "turn": self.me,
            "to_act": [self.me],
            "phase": phase,
            "aces": "low",
            "ace_value": 1,
            "hand_sizes": list(self.sizes),
            "stock": self.stock,
            "flips": 0,
            "discard": list(self.pile),
            "melds": [],
            "points": [0, 0],
            "history": [dict(e) for e in self.history],
            "flipped_at": [],
            "hand": sorted(self.hand, key=lambda n: bit(n)),
            "drawn": [list(d) for d in self.drawn],
            "legal_actions": legal,
        }
        if self.turned_up is not None:
            out["turned_up"] = self.turned_up
        self.named |= set(out["hand"]) | set(out["discard"]) | {d[1] for d in self.drawn}
        self.named |= {e["card"] for e in self.history if "card" in e}
        if self.turned_up is not None:
            self.named.add(self.turned_up)
        return out

    def draw_options(self, stock: bool, pile: bool, pass_: bool) -> list[dict[str, Any]]:
        out = []
        if stock:
            out.append({"seat": self.me, "action": "draw", "from": "stock"})
        if pile:
            out.append({"seat": self.me, "action": "draw", "from": "discard"})
        if pass_:
            out.append({"seat": self.me, "action": "pass"})
        return out

    def play_options(self, knock_allowed: Callable[[str], bool]) -> list[dict[str, Any]]:
        """Our rules' discards and knocks for the 11-card hand, knocks only where ``knock_allowed`` too."""
        hand = mask(self.hand)
        out: list[dict[str, Any]] = []
        for card in sorted(self.hand, key=lambda n: bit(n)):
            if card == self.taken:
                continue
            out.append({"seat": self.me, "action": "discard", "card": card})
            if deadwood_after(hand, card) <= KNOCK_LIMIT and knock_allowed(card):
                out.append({"seat": self.me, "action": "knock", "card": card})
        return out

    def ask(self, phase: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Our bot's choice for the view built now; it must be one of ``legal``."""
        view = self.view(phase, legal)
        self.decisions += 1
        started = time.perf_counter()
        choice = dict(self.bot.choose(view))
        self.times.append(time.perf_counter() - started)
        if choice not in legal:
            raise AssertionError(f"our bot answered {choice}, not one of {legal}")
        return choice


    def lay_off(self, knocker: list[list[str]]) -> set[str]:
        """Our bot's lay-offs on the ``knocker``'s melds after the other's knock (OpenSpiel's lay-off phase):
        a decision the bot makes from its view, as it makes the others; each must be a card we hold."""
        lay_off = getattr(self.bot, "lay_off", None)
        if lay_off is None:
            raise AssertionError(f"our {self.bot.level} bot makes no lay-off decision")
        chosen = set(lay_off(self.view("layoff", []), knocker))
        if not chosen <= set(self.hand):
            raise AssertionError(f"our bot laid off {sorted(chosen - set(self.hand))}, which it does not hold")
        return chosen


def best_knock(hand: int, exclude: str | None = None) -> str:
    """The card whose discard leaves the least deadwood (the dearest on a tie)."""
    options = [n for n in names_of(hand) if n != exclude]
    return min(options, key=lambda n: (deadwood_after(hand, n), -TABLE.card_value(bit(n)), n))


# ------------------------------------------------------------------ OpenSpiel
class OpenSpielGin:
    """One deal of OpenSpiel's ``gin_rummy``: our bot in one seat, its simple bot in the other."""

    def __init__(self) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("gin_rummy")
        state = self.game.new_initial_state()
        self.card_name = [self._name(state.action_to_string(0, c)) for c in range(52)]
        gr = pyspiel.gin_rummy
        self.DRAW_UPCARD, self.DRAW_STOCK = gr.DRAW_UPCARD_ACTION, gr.DRAW_STOCK_ACTION
        self.PASS, self.KNOCK, self.MELD_BASE = gr.PASS_ACTION, gr.KNOCK_ACTION, gr.MELD_ACTION_BASE
        self.meld_mask = [
            mask(re.findall(r"[2-9TJQKA][scdh]", state.action_to_string(0, self.MELD_BASE + m).split("Action: ")[1]))
            for m in range(gr.NUM_MELD_ACTIONS)
        ]
        self.action_of_meld = {m: self.MELD_BASE + i for i, m in enumerate(self.meld_mask)}

    @staticmethod
    def _name(text: str) -> str:
        raw = text.split("Action: ")[1]
        return str(Card.parse(raw))

    # what the observation shows our seat
    def observe(self, state: Any, me: int) -> dict[str, Any]:
        text = state.observation_string(me)
        tensor = state.observation_tensor(me)
        phase = re.search(r"Phase: (\w+)", text).group(1)  # type: ignore[union-attr]
        player = int(re.search(r"Current player: (-?\d+)", text).group(1))  # type: ignore[union-attr]
        base = 2 + 52 * me
        hand = [self.card_name[c] for c in range(52) if tensor[base + c]]
        offset = 2 + 104 + 2 + 10
        upcard = [self.card_name[c] for c in range(52) if tensor[offset + c]]
        pile = {self.card_name[c] for c in range(52) if tensor[offset + 52 + c]}
        stock = int(sum(tensor[offset + 104 : offset + 156]))
        melds_at = offset + 156
        laid = [
            [self.meld_mask[m] for m in range(185) if tensor[melds_at + 185 * p + m]] for p in range(2)
        ]
        return {
            "phase": phase,
            "player": player,
            "hand": hand,
            "upcard": upcard[0] if upcard else None,
            "pile": pile,
            "stock": stock,
            "laid": laid,
        }

    def play(self, deck: list[int], bot: Bot, me: int, check: Callable[[Seat, Any], int]) -> tuple[float, Seat]:
        """One deal (``deck``: the chance outcomes in order, hands then upcard then the stock's order);
        returns our return and our seat (its decisions and named cards)."""
        pyspiel = self.pyspiel
        state = self.game.new_initial_state()
        other = pyspiel.make_simple_gin_rummy_bot(self.game.get_parameters(), 1 - me)
        seat = Seat(me, 1, bot)
        order = iter(deck)
        seen = self.observe(state, me)
        self.shown: set[str] = set()
        pending: tuple[int, bool] | None = None  # a stock draw waiting for its card: (seat, forced)
        knocked = False
        while not state.is_terminal():
            if state.is_chance_node():
                card = next(order)
                while card not in {a for a, _ in state.chance_outcomes()}:
                    card = next(order)
                state.apply_action(card)
            else:
                actor = state.current_player()
                legal = state.legal_actions()
                ours = actor == me
                action = self.our_move(state, seat, seen, legal, knocked, check) if ours else other.step(state)
                if action not in legal:
                    raise AssertionError(f"illegal action {action} for player {actor}")
                state.apply_action(action)
            self.shown |= self.on_table(state)  # the referee's record, not the adapter's
            now = self.observe(state, me)
            # read what happened from the change in what our seat sees
            if seen["phase"] == "Deal" and now["phase"] == "FirstUpcard":
                seat.hand = list(now["hand"])
                seat.turned_up = now["upcard"]
                seat.pile = [now["upcard"]]
                seat.stock = now["stock"]
            elif pending is not None and now["stock"] == seen["stock"] - 1:
                who, forced = pending
                new = set(now["hand"]) - set(seen["hand"]) if who == me else set()
                seat.draw_stock(who, new.pop() if new else None, forced)
                pending = None
            elif not knocked and seen["phase"] in ("FirstUpcard", "Draw"):
                who = seen["player"]
                if now["phase"] == "Deal":  # a draw from the stock: its card comes next
                    pending = (who, seen["phase"] == "FirstUpcard")
                elif seen["upcard"] is not None and now["upcard"] is None:
                    seat.draw_pile(who, seen["upcard"])
                elif now["phase"] == "FirstUpcard" or (now["phase"] == "Draw" and seen["phase"] == "FirstUpcard"):
                    seat.passes(who)
            elif not knocked and seen["phase"] == "Discard":
                who = seen["player"]
                if now["phase"] == "Knock":
                    knocked = True
                elif now["upcard"] is not None:
                    seat.discard(who, now["upcard"])
            elif seen["phase"] == "Wall":
                knocked = True
            seat.hand = list(now["hand"])
            seen = now
        return float(state.returns()[me]), seat

    def our_move(self, state: Any, seat: Seat, seen: dict[str, Any], legal: list[int], knocked: bool,
                 check: Callable[[Seat, Any], int]) -> int:
        phase = seen["phase"]
        hand = mask(seen["hand"])
        if phase in ("FirstUpcard", "Draw"):
            if len(legal) == 1:
                return legal[0]  # the forced stock draw after two passes
            options = seat.draw_options(self.DRAW_STOCK in legal, self.DRAW_UPCARD in legal, self.PASS in legal)
            choice = seat.ask("draw", options)
            check(seat, state)
            if choice["action"] == "pass":
                return int(self.PASS)
            return int(self.DRAW_STOCK if choice["from"] == "stock" else self.DRAW_UPCARD)
        if phase == "Discard":
            knock_ok = self.KNOCK in legal
            options = seat.play_options(lambda card: knock_ok)
            choice = seat.ask("play", options)
            check(seat, state)
            seat.knock_with = choice["card"] if choice["action"] == "knock" else None
            if choice["action"] == "knock":
                return int(self.KNOCK)
            return self.card_name.index(choice["card"])
        if phase == "Wall":
            upcard = seen["upcard"]
            if self.KNOCK in legal:
                seat.knock_with = best_knock(hand | bit(upcard), exclude=upcard)
                return int(self.KNOCK)
            return int(self.PASS)
        if phase == "Knock":  # our knock: the discard, then the melds of the best arrangement, then pass
            if len(seen["hand"]) == 11:
                card = seat.knock_with
                action = self.card_name.index(card) if card else -1
                if action not in legal:
                    action = min((a for a in legal if a < 52), key=lambda a: deadwood_after(hand, self.card_name[a]))
                return action
            return self.declare(hand, legal)
        if phase == "Layoff":  # their knock: the lay-offs our bot chooses, then the best melds of the rest
            if any(a < 52 for a in legal):  # the lay-offs come first, card by card
                if seat.laying is None:
                    seat.laying = seat.lay_off([names_of(m) for m in seen["laid"][1 - seat.me]])
                    check(seat, state)
                for a in legal:
                    if a < 52 and self.card_name[a] in seat.laying:
                        return a
                return int(self.PASS)
            return self.declare(hand, legal)
        raise AssertionError(f"no move of ours in phase {phase}")

    def declare(self, hand: int, legal: list[int]) -> int:
        """The next meld of the best arrangement that the engine lists, or pass when none is left."""
        _, melds = TABLE.best_arrangement(hand)
        for meld in melds:
            for piece in pieces(meld, self.action_of_meld):
                action = self.action_of_meld.get(piece, -1)
                if action in legal:
                    return action
        return int(self.PASS)

    def on_table(self, state: Any) -> set[str]:
        """(Referee) the cards face up on the table now, read from the full state: the pile, the upcard, and
        after a knock the melds laid down and the cards laid off on them (the observation's, either player's)."""
        public = {self.card_name[c] for c in state.discard_pile()}
        upcard = state.upcard()
        if upcard is not None and upcard >= 0:
            public.add(self.card_name[upcard])
        if not state.is_chance_node() and not state.is_terminal():
            for melds in self.observe(state, 0)["laid"]:
                for meld in melds:
                    public |= set(names_of(meld))
        return public

    def hidden(self, state: Any, me: int) -> set[str]:
        """(Referee) the cards our seat cannot know, from the full state: the stock, and the opponent's
        cards that never lay face up (``self.shown`` gathers those after every step)."""
        hands = state.hands()
        mine = {self.card_name[c] for c in hands[me]}
        theirs = {self.card_name[c] for c in hands[1 - me]}
        stock = set(_NAME) - mine - theirs - self.on_table(state)
        return stock | (theirs - self.shown)


# ------------------------------------------------------------------ RLCard
class RLCardGin:
    """One deal of RLCard's ``gin-rummy``: our bot in one seat, its novice rule agent in the other."""

    def __init__(self) -> None:
        import numpy as np
        import rlcard
        from rlcard.games.gin_rummy.utils import utils
        from rlcard.games.gin_rummy.utils.action_event import (
            ActionEvent,
            DeclareDeadHandAction,
            DiscardAction,
            DrawCardAction,
            GinAction,
            KnockAction,
            PickUpDiscardAction,
        )
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self.np, self.rlcard, self.utils = np, rlcard, utils
        self.ActionEvent = ActionEvent
        self.kinds = (DrawCardAction, PickUpDiscardAction, DeclareDeadHandAction, GinAction, DiscardAction, KnockAction)
        self.agent = GinRummyNoviceRuleAgent()
        self.card_name = [self._name(str(utils.get_card(i))) for i in range(52)]

    @staticmethod
    def _name(text: str) -> str:
        return str(Card.parse(text[0] + text[1].lower()))

    def cards(self, row: Any) -> list[str]:
        return [self.card_name[i] for i in range(52) if row[i]]

    def play(self, seed: int, bot: Bot, me: int, check: Callable[[Seat, Any], int]) -> tuple[float, float, Seat]:
        """One deal under ``seed`` (the same seed deals the same cards and dealer); returns our payoff,
        theirs and our seat."""
        np = self.np
        env = self.rlcard.make("gin-rummy", config={"seed": seed})
        np.random.seed(seed)  # the rule agent breaks ties with numpy's global generator
        state, actor = env.reset()
        seat: Seat | None = None
        after_ours: list[str] | None = None  # the pile (in order) after our last discard
        DrawCard, PickUp, DeadHand, Gin, Discard, Knock = self.kinds
        wall_knock = False
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            if actor != me:
                action = int(self.agent.step(state))
            else:
                events = [self.ActionEvent.decode_action(a) for a in legal]
                obs = state["obs"]
                hand = self.cards(obs[0])
                top = self.cards(obs[1])
                beneath = set(self.cards(obs[2]))
                if not any(isinstance(e, (DrawCard, PickUp, DeadHand, Gin, Discard, Knock)) for e in events):
                    action = legal[0]  # scoring steps
                else:
                    if seat is None:
                        non_dealer = len(hand) == 11 and not top
                        seat = Seat(me, 1 - me if non_dealer else me, bot)
                        if non_dealer:  # shown as: we took the upcard (one of our cards we keep)
                            up = keep_card(mask(hand))
                            seat.turned_up = up
                            seat.pile = [up]
                            seat.draw_pile(me, up)
                        else:  # the other took an upcard nobody named and threw the top card
                            seat.draw_pile(1 - me, None)
                            seat.discard(1 - me, top[0])
                    elif after_ours is not None and len(hand) == 10:  # the other's turn since our discard
                        mine = after_ours[-1]
                        if mine in beneath or (top and top[0] == mine):
                            seat.draw_stock(1 - me, None)
                        else:
                            seat.draw_pile(1 - me, mine)
                        if top and top[0] != mine:
                            seat.discard(1 - me, top[0])
                        after_ours = None
                    action = self.our_move(seat, hand, top, events, legal, wall_knock)
                    check(seat, env)
                    chosen = self.ActionEvent.decode_action(action)
                    if isinstance(chosen, PickUp):
                        wall_knock = DeadHand in {type(e) for e in events}
                        seat.draw_pile(me, top[0])
                    elif isinstance(chosen, DrawCard):
                        pass  # the card is read from our next state
                    elif isinstance(chosen, (Discard, Knock, Gin)):
                        card = (
                            self.card_name[self.utils.get_card_id(chosen.card)]
                            if not isinstance(chosen, Gin)
                            else None
                        )
                        if card is not None:
                            seat.discard(me, card, "knock" if isinstance(chosen, Knock) else "discard")
                            after_ours = list(seat.pile)
                    seat.hand = hand
            if action not in legal:
                raise AssertionError(f"illegal action {action} for player {actor}")
            previous_hand = set(self.cards(state["obs"][0])) if actor == me else None
            state, next_actor = env.step(action)
            if actor == me and next_actor == me and seat is not None and not env.is_over():
                new = set(self.cards(state["obs"][0])) - (previous_hand or set())
                chosen = self.ActionEvent.decode_action(action)
                if isinstance(chosen, DrawCard) and new:
                    seat.draw_stock(me, new.pop())
            actor = next_actor
        payoffs = env.get_payoffs()
        if seat is None:  # the other player, who moves first, ended the deal before we had a choice (a gin)
            seat = Seat(me, me, bot)
        seat.gin_points = self.gin_points(env, me)
        return float(payoffs[me]), float(payoffs[1 - me]), seat

    def gin_points(self, env: Any, me: int) -> float:
        """Our Gin points for the finished deal, counted from RLCard's own record of it (who went out and
        how, and the deadwood its scoring steps found for each hand) as OpenSpiel counts them: a knock wins
        the difference in deadwood; gin wins the other's deadwood and 25; a defender with strictly less
        deadwood than the knocker undercuts, winning the difference and 25; a dead hand is 0.  RLCard has no
        lay-offs, so none are counted.  Its own payoff is not points (a knock is 0.2 however it ends)."""
        from rlcard.games.gin_rummy.utils.move import ScoreNorthMove, ScoreSouthMove

        _, _, DeadHand, Gin, _, _ = self.kinds
        round_ = env.game.round
        action, who = round_.going_out_action, round_.going_out_player_id
        if who is None or isinstance(action, DeadHand):
            return 0.0
        dead = {m.player.player_id: m.deadwood_count for m in round_.move_sheet
                if isinstance(m, (ScoreNorthMove, ScoreSouthMove))}
        knocker, defender = dead[who], dead[1 - who]
        if isinstance(action, Gin):
            won = defender + 25
        elif defender < knocker:
            won = -(knocker - defender + 25)
        else:
            won = defender - knocker
        return float(won if who == me else -won)

    def our_move(self, seat: Seat, hand: list[str], top: list[str], events: list[Any], legal: list[int],
                 wall_knock: bool) -> int:
        DrawCard, PickUp, DeadHand, Gin, Discard, Knock = self.kinds
        by_kind: dict[type, list[int]] = {}
        for action, event in zip(legal, events, strict=True):
            by_kind.setdefault(type(event), []).append(action)
        hand_mask = mask(hand)
        seat.hand = hand
        if PickUp in by_kind or DrawCard in by_kind or DeadHand in by_kind:
            if DeadHand in by_kind:  # the wall: take the upcard only to knock
                if PickUp in by_kind and top:
                    with_top = hand_mask | bit(top[0])
                    if deadwood_after(with_top, best_knock(with_top, exclude=top[0])) <= KNOCK_LIMIT:
                        return by_kind[PickUp][0]
                return by_kind[DeadHand][0]
            choice = seat.ask("draw", seat.draw_options(DrawCard in by_kind, PickUp in by_kind, False))
            if choice["from"] == "stock":
                return by_kind[DrawCard][0]
            return by_kind[PickUp][0]
        knocks = {
            self.card_name[self.utils.get_card_id(e.card)]: a
            for a, e in zip(legal, events, strict=True)
            if isinstance(e, Knock)
        }
        if Gin in by_kind:  # RLCard allows only the gin: which card it throws is its own choice
            return by_kind[Gin][0]
        if wall_knock and knocks:
            return knocks[min(knocks, key=lambda n: (deadwood_after(hand_mask, n), n))]
        choice = seat.ask("play", seat.play_options(lambda card: card in knocks))
        if choice["action"] == "knock":
            return knocks[choice["card"]]
        index = self.card_name.index(choice["card"])
        for action, event in zip(legal, events, strict=True):
            if isinstance(event, Discard) and self.utils.get_card_id(event.card) == index:
                return action
        raise AssertionError(f"RLCard does not allow discarding {choice['card']}")

    def hidden(self, env: Any, me: int) -> set[str]:
        """The referee's list of cards our seat cannot know: the stock, the opponent's unseen cards."""
        game = env.game
        opponent = game.round.players[1 - me]
        stock = {self.card_name[self.utils.get_card_id(c)] for c in game.round.dealer.stock_pile}
        known = {self.card_name[self.utils.get_card_id(c)] for c in opponent.known_cards}
        theirs = {self.card_name[self.utils.get_card_id(c)] for c in opponent.hand}
        return stock | (theirs - known)


# ------------------------------------------------------------------ the runs
def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def our_bot(level: str, seed: int, samples: int | None, budget: float | None = None) -> Bot:
    """Our bot at ``level``; a hard one searches ``samples`` worlds a decision, or with ``samples`` None for
    ``budget`` seconds (the product's 1 s when None too)."""
    hard = level == "hard"
    return make_bot("rummy", level, seed=seed, samples=samples if hard else None, budget=budget if hard else None)


def openspiel_deal(args: tuple[Any, ...]) -> dict[str, Any]:
    """Both games of one deal on OpenSpiel: our bot as player 0, then as player 1.  ``args``: level, seed,
    samples and optionally a hard bot's time budget; the result counts this process's CPU seconds."""
    cpu = time.process_time()
    level, seed, samples, *rest = args
    budget = rest[0] if rest else None
    engine = _engine("openspiel")
    assert isinstance(engine, OpenSpielGin)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    out: dict[str, Any] = {"points": [], "leaks": 0, "views": 0, "decisions": 0, "times": []}
    for me in (0, 1):
        leaks = 0

        def check(seat: Seat, state: Any, me: int = me) -> int:
            nonlocal leaks
            bad = seat.named & engine.hidden(state, me)
            leaks += len(bad)
            return len(bad)

        points, seat = engine.play(deck, our_bot(level, seed * 2 + me, samples, budget), me, check)
        out["points"].append(points)
        out["leaks"] += leaks
        out["decisions"] += seat.decisions
        out["times"] += seat.times
    out["cpu"] = time.process_time() - cpu
    return out


def rlcard_deal(args: tuple[Any, ...]) -> dict[str, Any]:
    """Both games of one deal on RLCard (the same seed deals the same cards and dealer); ``args`` as for
    :func:`openspiel_deal`."""
    cpu = time.process_time()
    level, seed, samples, *rest = args
    budget = rest[0] if rest else None
    engine = _engine("rlcard")
    assert isinstance(engine, RLCardGin)
    out: dict[str, Any] = {"points": [], "theirs": [], "gin": [], "leaks": 0, "decisions": 0, "times": []}
    for me in (0, 1):
        leaks = 0

        def check(seat: Seat, env: Any, me: int = me) -> int:
            nonlocal leaks
            bad = seat.named & engine.hidden(env, me)
            leaks += len(bad)
            return len(bad)

        ours, theirs, seat = engine.play(seed, our_bot(level, seed * 2 + me, samples, budget), me, check)
        out["points"].append(ours)
        out["theirs"].append(theirs)
        out["gin"].append(seat.gin_points)
        out["leaks"] += leaks
        out["decisions"] += seat.decisions
        out["times"] += seat.times
    out["cpu"] = time.process_time() - cpu
    return out


def ours_deal(args: tuple[Any, ...]) -> dict[str, Any]:
    """Both games of one deal on our own engine (``gin-rummy``, one hand each, scores 0 to 0) against our
    normal bot, the seats swapped; ``args`` as for :func:`openspiel_deal`.  A game's points are the hand's
    points for our bot less the normal bot's (one of the two is 0), so a hand won is a game won."""
    from bench.bots_rummy import Timed
    from rummoli.bots.driver import play_out
    from rummoli.rummy import RummyGame

    cpu = time.process_time()
    level, seed, samples, *rest = args
    budget = rest[0] if rest else None
    out: dict[str, Any] = {"points": [], "leaks": 0, "decisions": 0, "times": []}
    for me in (0, 1):
        times: list[float] = []
        ours = Timed(our_bot(level, seed * 2 + me, samples, budget), times)
        theirs = make_bot("rummy", "normal", seed=seed * 2 + 1 - me)
        hand = RummyGame(RULESET, ["P0", "P1"], seed=seed).deal()
        play_out(hand, [ours, theirs] if me == 0 else [theirs, ours])
        out["points"].append(hand.deltas[me] - hand.deltas[1 - me])
        out["decisions"] += len(times)
        out["times"] += times
    out["cpu"] = time.process_time() - cpu
    return out


_ENGINES: dict[str, Any] = {}


def _engine(name: str) -> OpenSpielGin | RLCardGin:
    if name not in _ENGINES:
        _ENGINES[name] = OpenSpielGin() if name == "openspiel" else RLCardGin()
    engine: OpenSpielGin | RLCardGin = _ENGINES[name]
    return engine


def quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values (the nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def win_share(ours: float, theirs: float) -> float:
    return 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500,
                        help="deals per engine and level, each played twice with the seats swapped (1,000 games)")
    parser.add_argument("--levels", default="normal,hard@1,hard@0.25",
                        help="our levels, one line each; hard@S plays hard at S seconds a decision: the default is"
                             " hard as shipped (1 s) and at a quarter of that")
    parser.add_argument("--engines", default="openspiel,rlcard,ours",
                        help="ours: our own engine, against our normal bot (hard beats normal?)")
    parser.add_argument("--hard-samples", type=int, default=16, help="fixed worlds per hard decision")
    parser.add_argument("--hard-budget", type=float, default=None,
                        help="seconds per hard decision instead of fixed worlds (1.0: the bot as shipped)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    hard = f"{args.hard_budget} s" if args.hard_budget is not None else f"{args.hard_samples} worlds"
    print(f"Gin, {args.deals} deals x 2 seats per line; hard: {hard} per decision unless the line says")
    print("(Gin points: OpenSpiel's returns; on RLCard counted from its record the same way, beside its own score)")
    print(f"{'engine':10} {'ours':9} {'games':>6} {'win rate (95% CI)':>24} {'score/game (95% CI)':>24}"
          f" {'Gin points/game (95% CI)':>26} {'ties':>5} {'hidden read':>11} {'CPU s':>7}  decision s p50/p95/p99")
    for engine in args.engines.split(","):
        for token in args.levels.split(","):
            level, _, given = token.partition("@")
            budget = float(given) if given else args.hard_budget
            samples = None if budget is not None else args.hard_samples
            jobs = [(level, args.seed * 100_000 + k, samples, budget) for k in range(args.deals)]
            run = {"openspiel": openspiel_deal, "rlcard": rlcard_deal, "ours": ours_deal}[engine]
            start = time.process_time()
            wall = time.perf_counter()
            results = []
            with ProcessPoolExecutor(max(1, args.workers)) as pool:
                for result in pool.map(run, jobs):
                    results.append(result)
                    if args.progress and len(results) % 10 == 0:
                        games = [(a, b) for r in results for a, b in zip(r["points"], r.get("theirs") or
                                                                          [-p for p in r["points"]], strict=True)]
                        share = statistics.fmean(win_share(a, b) for a, b in games)
                        print(f"  {engine} {token}: {len(results)}/{len(jobs)} deals, win {share:.1%}",
                              file=sys.stderr, flush=True)
            shares, points, gin, ties = [], [], [], 0
            for r in results:
                theirs = r.get("theirs") or [-p for p in r["points"]]
                games = list(zip(r["points"], theirs, strict=True))
                shares.append(statistics.fmean(win_share(a, b) for a, b in games))
                points.append(statistics.fmean(r["points"]))
                gin.append(statistics.fmean(r.get("gin") or r["points"]))
                ties += sum(1 for a, b in games if a == b)
            win, win_half = interval(shares)
            pts, pts_half = interval(points)
            gin_pts, gin_half = interval(gin)
            leaks = sum(r["leaks"] for r in results)
            # every worker's CPU (each deal counts its own) and the parent's
            cpu = sum(r["cpu"] for r in results) + time.process_time() - start
            times = sorted(t for r in results for t in r["times"])
            spread = "/".join(f"{quantile(times, q):.3f}" for q in (0.5, 0.95, 0.99)) if times else "-"
            print(
                f"{engine:10} {token:9} {2 * len(results):6d} {win:8.1%} ({win - win_half:.1%}..{win + win_half:.1%})"
                f" {pts:9.3f} ({pts - pts_half:.3f}..{pts + pts_half:.3f})"
                f" {gin_pts:9.3f} ({gin_pts - gin_half:.3f}..{gin_pts + gin_half:.3f}) {ties:5d} {leaks:11d}"
                f" {cpu:7.1f}  {spread}  ({time.perf_counter() - wall:.0f} s wall, "
                f"{sum(r['decisions'] for r in results)} decisions)",
                flush=True,
            )


if __name__ == "__main__":
    main()
