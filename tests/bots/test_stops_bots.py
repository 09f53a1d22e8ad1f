"""The stops bots: legal play at every level, determinism, views only, and the rules of thumb."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rummoli.bots.base import RandomBot, is_legal, make_bot
from rummoli.bots.driver import play_out, view_for
from rummoli.bots.stops_bots import EasyStopsBot, HardStopsBot, NormalStopsBot, Options, StopsBot
from rummoli.bots.stops_infer import read_view
from rummoli.bots.stops_search import sample_world, verify_world
from rummoli.cards import CARDS, parse_cards
from rummoli.dealing import deal_with_widow
from rummoli.stops import BUILTIN_RULESETS, Action, Hand, load_ruleset
from rummoli.stops.replay import NAMES


def deal(ruleset: str, players: int, seed: int, chips: int = 100) -> Hand:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    hands, widow = deal_with_widow(deck, players, dealer)
    return Hand(ruleset, NAMES[:players], [chips] * players, {}, dealer, hands, widow)


def lineup(players: int, seed: int) -> list[StopsBot | RandomBot]:
    kinds = [lambda s: EasyStopsBot(s), lambda s: NormalStopsBot(s), lambda s: HardStopsBot(s, samples=2),
             lambda s: RandomBot(s)]
    return [kinds[(seat + seed) % 4](seed * 10 + seat) for seat in range(players)]


class Checked:
    """Wraps a bot: checks that what it receives is its seat's view as plain JSON and what it returns
    is one of that view's legal actions."""

    def __init__(self, bot: Any, hand: Hand, seat: int) -> None:
        self.bot, self.hand, self.seat = bot, hand, seat
        self.calls = 0
        self.observed = 0

    def check(self, view: Any) -> None:
        expected = json.loads(json.dumps(self.hand.view(self.seat, history=True)))
        assert type(view) is dict and view == expected
        hidden = 0
        for s, m in enumerate(self.hand.hands):
            if s != self.seat:
                hidden |= m
        hidden |= self.hand.widow()
        shown = set()
        for cards in view["showdown"].values():
            shown |= set(cards)
        if view.get("given_up"):
            shown |= set(view["given_up"]["cards"])
        # No card of another hand or of the widow, except showdown cards and one's own given-up hand.
        secret = {str(c) for c in CARDS if hidden >> c.index & 1} - shown
        assert not secret & set(view["hand"])
        # Pot ids name cards (the "Qc" pot): leave the board and the pots out of the search.
        events = [{k: v for k, v in e.items() if k not in ("ruleset", "board", "start")} for e in view["events"]]
        text = json.dumps({k: v for k, v in view.items() if k not in ("ruleset", "board", "pots", "start", "events")})
        text += json.dumps(events)
        for card in secret:
            assert f'"{card}"' not in text

    def choose(self, view: Any) -> dict[str, Any]:
        self.check(view)
        choice = self.bot.choose(view)
        assert is_legal(choice, view["legal_actions"]), (choice, view["legal_actions"])
        self.calls += 1
        return dict(choice)

    def observe(self, view: Any) -> None:
        """The end-of-hand view a bot is shown is its own seat's, under the same checks."""
        assert self.hand.over
        self.check(view)
        self.observed += 1
        self.bot.observe(view)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_every_level_plays_only_legal_actions(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    decisions = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(6):
            hand = deal(ruleset, players, seed)
            bots = [Checked(b, hand, s) for s, b in enumerate(lineup(players, seed))]
            assert play_out(hand, bots) is None  # type: ignore[arg-type]
            assert hand.over
            assert sum(hand.chips) + sum(hand.pots) == 100 * players
            assert all(b.observed == 1 for b in bots)  # each saw the end of the hand once
            decisions += sum(b.calls for b in bots)
    assert decisions > 50


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_many_hands_every_level_legal(ruleset: str) -> None:
    """Play many more hands without the view checks: legality comes from ``Hand.apply`` refusing."""
    rules = load_ruleset(ruleset)
    rng = random.Random(ruleset)
    for i in range(120):
        players = rng.randint(rules.min_players, rules.max_players)
        hand = deal(ruleset, players, 1000 + i, chips=rng.choice([3 * len(rules.board.pots), 30, 100]))
        bots = [EasyStopsBot(i) if s % 2 else NormalStopsBot(i) for s in range(players)]
        if i % 10 == 0:
            bots[0] = HardStopsBot(i, samples=1)
        play_out(hand, bots)
        assert hand.over


def test_registered_levels() -> None:
    for level, cls in (("easy", EasyStopsBot), ("normal", NormalStopsBot), ("hard", HardStopsBot)):
        bot = make_bot("stops", level, seed=1)
        assert type(bot) is cls and bot.game == "stops" and bot.level == level


def test_hard_budget_defaults_to_one_second_and_is_configurable() -> None:
    assert HardStopsBot().budget == 1.0
    assert HardStopsBot(budget=0.05).budget == 0.05


def _transcript(seed: int, ruleset: str) -> list[Any]:
    hand = deal(ruleset, 4, seed)
    bots = [EasyStopsBot(seed), NormalStopsBot(seed + 1), HardStopsBot(seed + 2, samples=3),
            HardStopsBot(seed + 3, samples=2)]
    out: list[Any] = []
    play_out(hand, bots, on_action=lambda s, a: out.append(a))
    return [*out, hand.chips]


@pytest.mark.parametrize("ruleset", ["rummoli", "michigan"])
def test_deterministic_under_a_seed(ruleset: str) -> None:
    assert _transcript(5, ruleset) == _transcript(5, ruleset)


def test_sampled_worlds_agree_with_the_view() -> None:
    """Every world the hard bot searches shows exactly its view's public facts."""
    checked = agree = 0
    for ruleset in BUILTIN_RULESETS:
        for seed in range(4):
            hand = deal(ruleset, 3 + seed, seed)
            bots = [EasyStopsBot(seed) for _ in range(hand.n)]
            while not hand.over:
                seat = hand.to_act()[0]
                view = view_for(hand, seat)
                world = sample_world(read_view(view), view, random.Random(seed))
                assert world is not None
                checked += 1
                agree += verify_world(world, view)
                # The seat's own cards and the public facts always match; never the hidden truth needed.
                assert world.hands[seat] == hand.hands[seat]
                assert world.chips == hand.chips and world.to_act() == hand.to_act()
                hand.apply(Action.from_json(bots[seat].choose(view)))
    assert agree >= 0.95 * checked


def test_the_world_sampler_draws_a_location_as_randrange_would() -> None:
    """_place draws each card's location from ``getrandbits`` as ``randrange`` does (the fewest bits,
    again while out of range), so its worlds are those of the sampler that called ``randrange``."""
    for seed in range(50):
        a, b = random.Random(seed), random.Random(seed)
        for total in (1, 2, 3, 5, 7, 12, 13, 16, 17, 40, 64, 100):
            size = total.bit_length()
            pick = b.getrandbits(size)
            while pick >= total:
                pick = b.getrandbits(size)
            assert a.randrange(total) == pick


# ----------------------------------------------------------------------- rules of thumb
def view_of(hand: Hand, seat: int) -> dict[str, Any]:
    return view_for(hand, seat)


def made_hand(ruleset: str, players: int, dealer: int, hands: dict[int, str]) -> Hand:
    """A hand holding the named cards; the others are dealt highest first, then to the widow."""
    from rummoli.stops.hand import deal_sizes

    sizes, widow_size = deal_sizes(players, dealer)
    out = [parse_cards(hands[s]) if s in hands else [] for s in range(players)]
    used = {c for h in out for c in h}
    rest = sorted((c for c in CARDS if c not in used), key=lambda c: (-c.rank, c.suit))
    for s in range(players):
        while len(out[s]) < sizes[s]:
            out[s].append(rest.pop(0))
    assert len(rest) == widow_size
    return Hand(ruleset, NAMES[:players], [100] * players, {}, dealer, out, rest)


def at_the_poker_round(cards: str) -> Hand:
    """A four-seat Rummoli hand where seat 1 holds ``cards``, the dealer keeps the widow and nobody bids:
    seat 1 is first to act in the poker round."""
    hand = made_hand("rummoli", 4, 0, {1: cards})
    hand.apply(Action(0, "keep"))
    while hand.phase == "auction":
        hand.apply(Action(hand.to_act()[0], "pass"))
    assert hand.phase == "poker" and hand.to_act() == [1]
    return hand


def test_easy_keeps_a_hand_with_a_pay_card_and_swaps_a_dreadful_one() -> None:
    # Dealer 0 holds the ten of spades (a Copp Clark pay card): keep.
    hand = made_hand("rummoli", 4, 0, {0: "Ts 5s 6h 8d 9c Jc Qh 6c 9h 3d"})
    view = view_of(hand, 0)
    assert view["phase"] == "widow"
    assert EasyStopsBot(1).choose(view)["action"] == "keep"
    # The same poor hand without a pay card is dreadful: swap it unseen.
    hand = made_hand("rummoli", 4, 0, {0: "Ks 5s 6h 8d 9c Jc Qh 6c 9h 3d"})
    assert EasyStopsBot(1).choose(view_of(hand, 0))["action"] == "swap"


def test_easy_does_not_bid_with_a_good_hand() -> None:
    hand = made_hand("rummoli", 4, 0, {1: "2s 2h 2d 3c 3s As Kh"})
    hand.apply(Action(0, "keep"))
    assert hand.phase == "auction" and hand.to_act() == [1]
    assert EasyStopsBot(1).choose(view_of(hand, 1))["action"] == "pass"


def test_easy_keeps_a_lead_in_the_other_colour() -> None:
    # Seat 1 leads (left of the dealer, no poker round) with 2♠ and 2♥ equally low; every other card
    # is red.  Leading 2♠ leaves only red: after a red stop it has no black lead.  Leading 2♥ keeps 2♠
    # for the restart after hearts stop, then red cards for the next one.
    rules = {"game": "stops", "board": "copp-clark", "widow": "none", "poker": "none",
             "opening_lead": "left_of_dealer"}
    hand = made_hand(rules, 4, 0, {1: "2s 2h 5h 9h Qd 4d 6d 7h 8d 9d 5d"})  # type: ignore[arg-type]
    view = view_of(hand, 1)
    choice = EasyStopsBot(1).choose(view)
    assert {a["card"] for a in view["legal_actions"]} == {"2s", "2h"}
    assert choice["card"] == "2h"


def test_easy_leads_the_card_that_goes_out() -> None:
    rules = {"game": "stops", "board": "copp-clark", "widow": "none", "poker": "none",
             "opening_lead": "left_of_dealer"}
    hand = made_hand(rules, 8, 0, {1: "3s 4s 5s 6s 7s 3h"})  # type: ignore[arg-type]
    view = view_of(hand, 1)
    for bot in (EasyStopsBot(1), NormalStopsBot(1)):
        assert bot.choose(view)["card"] == "3s"  # runs 3-7♠ and keeps 3♥: or goes out; 3s is the run


def facing_a_bet() -> Options:
    """The choices of a seat facing a bet: fold, call, or raise by 1 to 5."""
    return Options([{"seat": 1, "action": "fold"}, {"seat": 1, "action": "call"},
                    {"seat": 1, "action": "raise", "min": 1, "max": 5}])


def test_easy_bets_strength_and_folds_weakness() -> None:
    strong = at_the_poker_round("As Ah Ad Ac Ks Kh 2c")
    assert EasyStopsBot(1).choose(view_of(strong, 1))["action"] == "bet"
    assert NormalStopsBot(1).choose(view_of(strong, 1))["action"] == "bet"
    facing = facing_a_bet()
    assert EasyStopsBot(1).bet_rule(0.1, facing, 5, 5) == ("fold", 0)  # a poor hand does not call 5
    assert EasyStopsBot(1).bet_rule(0.3, facing, 2, 5) == ("call", 0)  # but a fair one calls a small bet


def test_normal_value_bets_the_most_and_calls_on_the_pot_odds() -> None:
    view = view_of(at_the_poker_round("As Ah Ad Ac Ks Kh 2c"), 1)
    most = next(a["max"] for a in view["legal_actions"] if a["action"] == "bet")
    assert NormalStopsBot(1).choose(view) == {"seat": 1, "action": "bet", "amount": most}
    bot = NormalStopsBot(1)
    opening = Options([{"seat": 1, "action": "check"}, {"seat": 1, "action": "bet", "min": 1, "max": 10}])
    assert bot.bet_rule(0.5, opening, 0, 9) == ("bet", 10)
    assert bot.bet_rule(0.4, opening, 0, 9) == ("check", 0)
    facing = facing_a_bet()
    assert bot.bet_rule(0.65, facing, 5, 14) == ("raise", 5)
    assert bot.bet_rule(0.3, facing, 5, 20) == ("call", 0)  # 0.3 of 25 chips is worth 5 to call
    assert bot.bet_rule(0.3, facing, 5, 5) == ("fold", 0)  # 0.3 of 10 is not


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_inferences_from_the_view_are_facts(ruleset: str) -> None:
    """Every card the view says must be somewhere is there, and none is where the view rules it out
    (a stop before an unplayed card puts it in the widow; leads, failed leads, on-hold payments...)."""
    for seed in range(12):
        players = 3 + seed % 6
        hand = deal(ruleset, players, seed)
        bots = [EasyStopsBot(seed) if s % 2 else RandomBot(seed) for s in range(players)]
        while not hand.over:
            seat = hand.to_act()[0]
            view = view_for(hand, seat)
            k = read_view(view)
            widow = hand.widow()
            assert k.widow_certain() & ~widow == 0
            for c, loc in k.forced.items():
                assert (widow if loc == hand.n else hand.hands[loc]) >> c & 1
            for loc, m in enumerate(k.forbid):
                assert m & (widow if loc == hand.n else hand.hands[loc]) == 0
            for loc, m in enumerate(k.soft):
                assert m & (widow if loc == hand.n else hand.hands[loc]) == 0
            hand.apply(Action.from_json(bots[seat].choose(view)))


@pytest.mark.parametrize("ruleset", BUILTIN_RULESETS)
def test_reading_on_from_the_events_already_read_gives_what_a_fresh_read_gives(ruleset: str) -> None:
    """A seat that decides again in a hand reads only the events new since its last view (stops_infer.Told):
    what it then knows is what reading the whole view afresh gives, at every decision of every seat; and a view
    whose events are copies, not the ones read, is read from its start."""
    from rummoli.bots.driver import fast_view_for

    folded = 0
    for seed in range(10):
        players = 3 + seed % 6
        hand = deal(ruleset, players, seed)
        bots = [NormalStopsBot(seed) if s % 2 else RandomBot(seed) for s in range(players)]
        told: dict[int, Any] = {}
        while not hand.over:
            seat = hand.to_act()[0]
            view = fast_view_for(hand, seat, copy=False)  # the events shared with the stream, as the lab's
            fresh = read_view(view)
            on = read_view(view, told.get(seat))
            folded += told.get(seat) is not None and on.told is told[seat]
            assert on == fresh and on.forced == fresh.forced and list(on.forced) == list(fresh.forced)
            told[seat] = on.told
            copied = read_view(view_for(hand, seat), on.told)  # copies: not the events read, so read whole
            assert copied == fresh and copied.told is not on.told
            hand.apply(Action.from_json(bots[seat].choose(view)))
    assert folded > 0  # the reading went on from earlier views, not only from scratch


def test_the_swapper_knows_the_widow_and_worlds_keep_it() -> None:
    hand = made_hand("rummoli", 4, 0, {0: "Ks 5s 6h 8d 9c Jc Qh 6c 9h 3d"})
    given_up = hand.hands[0]
    hand.apply(Action(0, "swap"))
    view = view_for(hand, 0)
    k = read_view(view)
    assert k.known_widow == given_up and k.widow_unknown == 0
    for seed in range(5):
        world = sample_world(k, view, random.Random(seed))
        assert world is not None and world.widow() == given_up and world.given_up == given_up
    # Another seat does not know the widow, and its worlds give the swapper some former widow.
    other = view_for(hand, 1)
    assert "given_up" not in other
    world = sample_world(read_view(other), other, random.Random(1))
    assert world is not None and world.swapped == 0 and world.hands[1] == hand.hands[1]


def test_hard_keeps_to_its_time_budget() -> None:
    import time

    hand = made_hand("rummoli", 4, 0, {1: "As Ah Ad 7c 8c 9c Kh"})
    hand.apply(Action(0, "keep"))
    view = view_for(hand, 1)
    bot = HardStopsBot(1, budget=0.05)
    start = time.perf_counter()
    assert is_legal(bot.choose(view), view["legal_actions"])
    assert time.perf_counter() - start < 0.5
    assert bot.last_worlds >= 1


def test_worlds_where_an_opponent_bets_a_strong_hand_weigh_more() -> None:
    from rummoli.bots.stops_policy import table_for
    from rummoli.bots.stops_search import bet_likelihood
    from rummoli.cards import mask_of

    hand = made_hand("rummoli", 4, 0, {1: "As Ah Ad Ac Ks Kh 2c"})
    hand.apply(Action(0, "keep"))
    while hand.phase == "auction":
        hand.apply(Action(hand.to_act()[0], "pass"))
    weak = hand.clone()
    weak.hands[1] = mask_of(parse_cards("2s 3h 5d 7c 9s Jh 4c 6d 8h Ts"))
    t = table_for("rummoli")
    assert bet_likelihood(hand, t, 1, "bet") > 0.9 > 0.1 > bet_likelihood(weak, t, 1, "bet")
    assert bet_likelihood(weak, t, 1, "check") > bet_likelihood(hand, t, 1, "check")
