"""Everything a stops hand shows, held byte for byte to what it showed before the fast path was made faster
(issue 34).

``random_hand`` (the fast path of ``rummoli hand``, simulations and the benchmark) skips the checks and the
state marks of ``apply()``; both ways must keep dealing, deciding and logging exactly as before, so the same
seed gives the same hands, records, events, sentences and replays.  ``SNAPSHOT`` holds, for seeded hands of
every built-in ruleset and of two made-up ones that turn on the options the built-ins leave off (claims
announced, the dealer's double ante, poker after the play, paying when a leader cannot lead, the 2 of clubs
opening, a lead in a chosen suit, the widow barred), a digest of each of:

* ``fast``: many ``random_hand`` hands from one generator: their logs, chips, pots, winners and results;
* ``shown``: one of those hands read in full: record, events, history, every seat's view and events, and the
  replay of its record;
* ``public``: a hand dealt from the same seed played through ``legal_actions()``/``apply()``, with what each
  ``apply()`` returned, the views read on the way and the record, events and replay at the end.

The digests were taken from the engine before the fast path changed (commit 5b1bf37), and taken again when two
showdown fives of one name came to be named down to the card that decides (``Flush, ace-king high``), in the
hand's result and then in each seat's showdown line (checked first, each time, that with the former names every
digest was still the same).  A deliberate change to
what a hand shows changes them: print ``outputs()`` for the failing case, check the change is the one meant,
and take the digests again.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from rummoli.cards import CARDS
from rummoli.stops import Action, AmountRange, Hand, load_ruleset, random_hand, replay_record
from rummoli.stops.replay import NAMES

ANNOUNCE: dict[str, Any] = {"game": "stops", "name": "announce", "board": "copp-clark", "claim": "announce",
                            "dealer_ante": "double", "poker": "after_play", "leftover": "none",
                            "cannot_lead": "pay_and_pass"}
CLUBS: dict[str, Any] = {"game": "stops", "name": "clubs", "board": "tripoley", "opening_lead": "two_of_clubs",
                         "restart": "other_suit_else_same", "lead": "lowest_in_chosen_suit",
                         "widow_bar": "pay_card_holders", "pay": "on_hold"}
RULESETS: dict[str, Any] = {name: name for name in ("rummoli", "rummoli-tripoley", "tripoley", "michigan")} | {
    "announce": ANNOUNCE, "clubs": CLUBS}
PLAYERS = (2, 4, 7)
PARTS = ("fast", "shown", "public")


def digest(parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, default=repr).encode()).hexdigest()[:16]


def shown(hand: Hand) -> list[Any]:
    """Everything a finished hand shows, and the replay of its record."""
    out: list[Any] = [hand.record(), hand.record(forced=True), hand.events(), hand.history(), hand.result(),
                      hand.showdown, hand.play_start, hand.poker_winners]
    for seat in [None, *range(hand.n)]:
        out.append([hand.view(seat, history=True, guide=True), hand.events_since(0, seat)])
    out.append(replay_record(hand.record()))
    return out


def fast(spec: Any, players: int, seed: int) -> tuple[list[Any], Hand]:
    rng = random.Random(seed)
    rules = load_ruleset(spec)
    out: list[Any] = []
    hand = None
    for k in range(40):
        hand = random_hand(rules, players, rng, dealer=k % players if k % 2 else None)
        out.append([hand.log, hand.chips, hand.pots, hand.winner, hand.phase, hand.result()])
    assert hand is not None
    return out, hand


def public(spec: Any, players: int, seed: int) -> list[Any]:
    """A hand through the public API: random legal actions (an amount in its range), read as a table would."""
    rng = random.Random(seed * 7919 + players)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = seed % players
    step = players + 1
    hands: list[list[Any]] = [[] for _ in range(players)]
    for k in range(players):
        hands[(dealer + 1 + k) % players] = deck[k::step]
    hand = Hand(spec, NAMES[:players], [100] * players, {}, dealer, hands, deck[players::step])
    out: list[Any] = []
    while not hand.over:
        legal = hand.legal_actions()
        out.append([str(a) for a in legal])
        out.append([hand.legal_actions(s) == [a for a in legal if a.seat == s] for s in range(players)])
        pick = legal[rng.randrange(len(legal))]
        action = pick.at(rng.randint(pick.min, pick.max)) if isinstance(pick, AmountRange) else pick
        if rng.random() < 0.5:
            action = Action.from_json(action.to_json())
        out.append(hand.apply(action))
        if rng.random() < 0.3:
            seat = rng.choice([None, *range(players)])
            out.append([hand.view(seat), hand.events_since(rng.randrange(hand.seq + 1), seat)])
    out.append(shown(hand))
    return out


def outputs(name: str, players: int, seed: int) -> tuple[str, ...]:
    spec = RULESETS[name]
    hands, last = fast(spec, players, seed)
    return digest(hands), digest(shown(last)), digest(public(spec, players, seed))


CASES = [(name, players, seed) for name in sorted(RULESETS) for players in PLAYERS for seed in range(2)
         if not (name == "michigan" and players < 3)]

SNAPSHOT: dict[tuple[str, int, int], tuple[str, ...]] = {  # (ruleset, players, seed): a digest of each of PARTS
    ('announce', 2, 0): ('90cb2a22976a2c2b', '00a87bea652afa78', '77a37b8e46f60ae3'),
    ('announce', 2, 1): ('5f83a526cbe47c0d', '68feb4c2626833b5', 'ee4571d3c4c1d0b6'),
    ('announce', 4, 0): ('92da9a073d88dceb', '80376eed3e7cb50a', '6845a61c7df94086'),
    ('announce', 4, 1): ('bb7d05dc2d615cff', '9392731553ee9c13', '3fe8eaf6ce85fd8f'),
    ('announce', 7, 0): ('d82536cb9eb52369', 'aef63b455d898f1b', '7e12936c6543ab98'),
    ('announce', 7, 1): ('fdcc748a9438a30a', 'b328945600b9e9a1', '84d1ae2289570308'),
    ('clubs', 2, 0): ('270ef583a637432f', 'fa69098a288fc28d', 'a4b417fe2ae49285'),
    ('clubs', 2, 1): ('5864f8cea39a8020', '2ea99ea698ce710a', 'b557b6514f49146d'),
    ('clubs', 4, 0): ('3ba06dfd559fa2e5', '62e6157ce0a43c44', 'de3dd74360b4e0af'),
    ('clubs', 4, 1): ('39fb7664dbd46522', 'f440ae3e0e359ce7', '98272f853b327b3f'),
    ('clubs', 7, 0): ('feb348b627d321f4', 'a5a2e03e9f599967', '6885b79230a8d869'),
    ('clubs', 7, 1): ('170a8d3c021cd0b1', '235d5015ac4fb21c', '6a380c9da99ec969'),
    ('michigan', 4, 0): ('29861d8dfb1fa980', 'b43be5e9f6388b45', '9970f0cc6d45af74'),
    ('michigan', 4, 1): ('dc292976ddeab730', '3350862c82e73c02', 'bc611ccbc3ce21db'),
    ('michigan', 7, 0): ('e467697d77976b8a', '48fddc0f96f0aaf2', '6b7d6b2fd1376cb5'),
    ('michigan', 7, 1): ('d0adc0dba6003017', '7efa936afba8c957', '5de3c1174633745f'),
    ('rummoli', 2, 0): ('23153d449772e90c', '8651fa724ad7965b', '0b687efb7af4ce75'),
    ('rummoli', 2, 1): ('cfd096f07bcaaf36', '08074da7d75c0ed5', '6cd111995a2faaa0'),
    ('rummoli', 4, 0): ('2c3088dae404d8f2', '9f959d2214bd7d61', 'f2e73b57faf07688'),
    ('rummoli', 4, 1): ('c77d9ca240757b5d', 'db1777bc490ab71f', 'd509c0d14e5e0c8e'),
    ('rummoli', 7, 0): ('b6fa70653bc0ae92', '9037080d337270f8', '3469352a32aa94f3'),
    ('rummoli', 7, 1): ('9d461e17c7dfad10', '0bc50b35fdb815ef', 'fa693fb9eba6f758'),
    ('rummoli-tripoley', 2, 0): ('6547b9d93968e4f5', 'c9b0dfb9296fb04f', '0db84451fa153872'),
    ('rummoli-tripoley', 2, 1): ('cfb2c40f4dd28d26', '4ae3e94eb3602394', '5a05795cac36301a'),
    ('rummoli-tripoley', 4, 0): ('b02f81533aaa06b1', 'bc8685643f7f5203', '36d92502243662a4'),
    ('rummoli-tripoley', 4, 1): ('46ac50265d7e2b23', 'd509519445d1705c', '7c7a09444f3e3771'),
    ('rummoli-tripoley', 7, 0): ('d69cf93fcc36a411', '47846cb95298bdf9', '5f23a12be3536e2e'),
    ('rummoli-tripoley', 7, 1): ('9c84c1ca5f484b30', 'c00eb22665cd0ca4', '207a93f72d1ec484'),
    ('tripoley', 2, 0): ('5d507b6ad0c6754a', 'e92cc4c23b03bda1', '06c00fc04e0ee4ce'),
    ('tripoley', 2, 1): ('b92fba1240a7998b', 'e434ea0f65bce42c', 'dbc62543c3c5eca0'),
    ('tripoley', 4, 0): ('11935acfd7e61a97', '3a8ac0f9ef05298a', '2c849f1529599da9'),
    ('tripoley', 4, 1): ('8ceca886b61391a7', '309e4ebdb6f24690', '1a5d4f993ab7ee10'),
    ('tripoley', 7, 0): ('9d8bab7061cd518b', '64a18a7715783b14', 'edb1e3ad437991c8'),
    ('tripoley', 7, 1): ('1e22c6cddf4dbc6f', '58f8d1aab7d12e10', 'c3b3e635330b7f9e'),
}


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_what_every_stops_hand_shows_is_unchanged(name: str, players: int, seed: int) -> None:
    assert outputs(name, players, seed) == SNAPSHOT[(name, players, seed)]
