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

The digests were taken from the engine before the fast path changed (commit 5b1bf37).  A deliberate change to
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
    ('announce', 2, 0): ('ea3200fca4290cc5', '10953c90ae82900e', 'fe163b768e1d96f5'),
    ('announce', 2, 1): ('541f77c91eec29eb', '68fddae1de60089a', '8895e26eb542be84'),
    ('announce', 4, 0): ('2bcc28f4aaaa53ca', 'f30fd2ef77e3f299', '12a574e092481fad'),
    ('announce', 4, 1): ('1250befa64a4c031', 'ac74c6a003e30e04', 'e8cab08a46f22e71'),
    ('announce', 7, 0): ('089a077864d6b6a3', '26ff961595fa8309', '020bebbfc55f3516'),
    ('announce', 7, 1): ('72115d769e9ef992', '5617ebf1f8b0cfa3', '31891bd2839b2179'),
    ('clubs', 2, 0): ('c60c7a40d27f3e60', '52d228ad8de83cda', 'a4b417fe2ae49285'),
    ('clubs', 2, 1): ('95570dc7709020da', '2ea99ea698ce710a', 'b557b6514f49146d'),
    ('clubs', 4, 0): ('88c3b32675e3c9ed', '1ea4b23de388a0c3', 'a367860b1ec4dc2a'),
    ('clubs', 4, 1): ('1b9baf8b4282d8ef', '580444b8ce29a707', '26c9bdab79307f52'),
    ('clubs', 7, 0): ('7bfc3b36cf6bc16f', 'a5a2e03e9f599967', 'b891bc945386c44c'),
    ('clubs', 7, 1): ('a0a1df2a8e5ffd7b', '1073baa8c6b67724', '8ee07f6400ebb764'),
    ('michigan', 4, 0): ('29861d8dfb1fa980', 'b43be5e9f6388b45', '9970f0cc6d45af74'),
    ('michigan', 4, 1): ('dc292976ddeab730', '3350862c82e73c02', 'bc611ccbc3ce21db'),
    ('michigan', 7, 0): ('e467697d77976b8a', '48fddc0f96f0aaf2', '6b7d6b2fd1376cb5'),
    ('michigan', 7, 1): ('d0adc0dba6003017', '7efa936afba8c957', '5de3c1174633745f'),
    ('rummoli', 2, 0): ('9a6cc00fc4d30b95', '8a4a1236aff67538', '0b687efb7af4ce75'),
    ('rummoli', 2, 1): ('8a47424d66450981', '08074da7d75c0ed5', 'ada2c8b0f6ff7b5c'),
    ('rummoli', 4, 0): ('7469056be4407de8', '3505cd1b77fb386a', '32f017aba6b7d09d'),
    ('rummoli', 4, 1): ('749e46dd290f5a9c', '313f4feb925dc3fb', '79a10f33a9dd8621'),
    ('rummoli', 7, 0): ('9aab1cf2306c390f', '5f1adb5f2b3b36da', '3f6efe4065bf75eb'),
    ('rummoli', 7, 1): ('64e0293b7a32d839', '9d219f0d7804d71c', '17a3e184f8bb1c76'),
    ('rummoli-tripoley', 2, 0): ('8605166c5c433917', '6a1afde885bfa3b9', '0db84451fa153872'),
    ('rummoli-tripoley', 2, 1): ('ccc5dd606a82d36e', 'e0e38516ae29368b', 'ff140d9def203709'),
    ('rummoli-tripoley', 4, 0): ('55a42bf4bf8aefb0', '3192d031e1acf497', '9db77950dcd3ae5e'),
    ('rummoli-tripoley', 4, 1): ('b2c4b7e1fb6c65d2', '3c373a0574b7a7a8', '057c27cf35d32dee'),
    ('rummoli-tripoley', 7, 0): ('52272774574f45cd', '5e5326a752af79a7', '86014418f03e36c0'),
    ('rummoli-tripoley', 7, 1): ('780e39df612eee0e', '74cdee8c1fad3e5f', '254bb279441a4eaa'),
    ('tripoley', 2, 0): ('335c33252b09be5a', 'e92cc4c23b03bda1', '06c00fc04e0ee4ce'),
    ('tripoley', 2, 1): ('cd530599e5186cee', 'c8e25d721bbfad34', 'dbc62543c3c5eca0'),
    ('tripoley', 4, 0): ('152fb58cbb08cb66', '455aaf822668b267', 'b61aa665c400bcf5'),
    ('tripoley', 4, 1): ('87f86f6b2c20bed1', '309e4ebdb6f24690', '50f1fb82a45eb9f0'),
    ('tripoley', 7, 0): ('c5ef03ecf0609221', '7db861cd21ebdaa4', '130b8334cfc8169c'),
    ('tripoley', 7, 1): ('49404650ac8be4d1', '1750959eff276b3f', '94bb7d232ddc2f4a'),
}


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_what_every_stops_hand_shows_is_unchanged(name: str, players: int, seed: int) -> None:
    assert outputs(name, players, seed) == SNAPSHOT[(name, players, seed)]
