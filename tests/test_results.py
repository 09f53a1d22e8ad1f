"""One result and one set of words (issue 30): what every client shows of a hand is made once, by the engine
through the table, and agrees with the hand's record; every sentence is made from what its reader may see."""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest

from rummoli.games import replay
from rummoli.records import builtin_names
from rummoli.table import Seat, Table
from rummoli.wording import card_word, first_dealer

CARD_WORD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def evening(ruleset: str, seed: str, hands: int = 2, players: int | None = None) -> Table:
    """An evening of random bots beside one seat a person would hold (played here by the same bots)."""
    from rummoli.games import default_players

    n = players or min(default_players(ruleset), 4)
    table = Table(ruleset, [Seat(f"P{k}", bot="random") for k in range(n)], hands=hands, seed=seed)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.play_bot()
    return table


def expected_from_record(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """What a hand's record says it came to, worked out from its replay alone (R-NOTE-4): pots won per
    (pot, evening seat), each evening seat's change, the end's reason and counts."""
    played = replay(record)
    seat_of = [names.index(name) for name in record["players"]]
    pots: dict[tuple[str, int], int] = defaultdict(int)
    end: dict[str, Any] = {}
    for event in played["events"]:
        if event["type"] == "chips" and event["from"].startswith("pot:") and event["to"].startswith("seat:"):
            pots[(event["from"][4:], seat_of[int(event["to"][5:])])] += event["amount"]
        elif event["type"] == "end":
            end = event
    changes = {seat_of[s]: after - before for s, (before, after) in
               enumerate(zip(record["chips"], played["chips"], strict=True))}
    return {"pots": dict(pots), "changes": changes, "end": end}


@pytest.mark.parametrize("ruleset", builtin_names())
def test_every_hands_result_is_what_its_record_replays_to(ruleset: str) -> None:
    table = evening(ruleset, f"result-{ruleset}")
    record = table.evening_record()
    assert len(table.results) == len(record["hands"]) >= 1
    for result, hand in zip(table.results, record["hands"], strict=True):
        expected = expected_from_record(hand, record["players"])
        assert {c["seat"]: c["change"] for c in result["changes"]} == expected["changes"]
        assert result["headline"] == result["lines"][0]
        if result["game"] in ("stops", "poch"):  # a board's pools, won and paid
            assert {(w["pot"], w["seat"]): w["amount"] for w in result["pots_won"]} == expected["pots"]
            assert all(w["text"] and w["name"] for w in result["pots_won"])
        else:
            end = expected["end"]
            assert result["reason"] == end["reason"]
            if "counts" in end:  # a knock or a scored block: the deadwood as the engine counted it
                assert [h["count"] for h in result["hands"]] == end["counts"]
            for seat, change in expected["changes"].items():  # a hand's points are its scores, seat by seat
                assert sum(p["points"] for p in result["points"] if p["seat"] == seat) == change


def test_the_result_names_evening_seats_when_a_broke_player_has_left() -> None:
    table = Table("rummoli", [Seat("Ann", "random"), Seat("Bob", "random"), Seat("Cy", "random")], chips=20,
                  seed="broke-1", hands=30)
    while not table.over:
        if table.hand_over:
            table.next_hand()
        else:
            table.play_bot()
    record = table.evening_record()
    short = [r for r, hand in zip(table.results, record["hands"], strict=True) if len(hand["players"]) < 3]
    assert short, "nobody went broke: choose another seed"
    for result, hand in zip(table.results, record["hands"], strict=True):
        assert {c["seat"] for c in result["changes"]} == {record["players"].index(p) for p in hand["players"]}
        assert all(table.names[c["seat"]] == c["name"] for c in result["changes"])


@pytest.mark.parametrize("ruleset", ["rummoli", "tripoley", "michigan", "gin-rummy", "500-rum", "boathouse-rummy"])
def test_every_sentence_names_only_cards_its_reader_may_see(ruleset: str) -> None:
    """Each event's text is made from the events as its reader gets them: a card it names is one they showed. The
    cut for the first deal, which everyone saw (R-MI-1: the first hand's opening line tells it), is that line's own
    sentence, set aside whole: a card named beside it is still checked."""
    table = evening(ruleset, f"words-{ruleset}", hands=1)
    cut = first_dealer(table.dealer_by, table.cut)
    assert cut or ruleset in ("gin-rummy", "500-rum", "boathouse-rummy")  # the stops games cut (R-MI-1)
    for reader in [*range(len(table.seats)), None]:
        told = opened = 0
        known: set[str] = set()  # every card the reader's events have shown it so far (its own hand among them)
        for event in table.events_since(0, reader):
            known |= {card_word(c) for c in _cards(event)}
            text = event.get("text")
            if not text:
                continue
            if cut and event["type"] == "hand_start" and cut in text:
                opened += 1
                text = text.replace(cut, "")
            told += 1
            named = set(CARD_WORD.findall(text))
            assert named <= known, (reader, event)
            if "the only choice)" in text:  # a forced choice is told only to the seat that had it
                assert event["seat"] == reader and event.get("forced"), (reader, event)
        assert told > 5
        assert opened == (1 if cut else 0), "the first deal's line tells the cut, to every reader alike"


def _cards(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if re.fullmatch(r"[2-9TJQKA][shdc]", value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards(v) for k, v in value.items() if k != "text"), set())
    if isinstance(value, list):
        return set().union(*(_cards(v) for v in value), set())
    return set()


def test_every_action_and_table_event_is_told() -> None:
    table = evening("gin-rummy", "told", hands=2)
    for event in table.events_since(0, 0):
        if event["type"] in ("action", "hand_start", "hand_over", "evening_over", "end", "score"):
            assert event.get("text"), event


def test_a_shared_settlement_pays_whole_chips_as_numbers_and_exact_shares_as_text() -> None:
    table = evening("michigan", "settle-share", hands=1, players=3)
    (entry,) = table.settlement or [{"payments": []}]
    total = Fraction(0)
    for paid in entry["payments"]:
        amount = paid["amount"]
        assert isinstance(amount, int) or (isinstance(amount, str) and "/" in amount), paid
        total += Fraction(amount)
    assert total == entry.get("amount", 0)
    assert table.view(0)["settlement"] == table.settlement
    standings = {row["seat"]: row["chips"] for row in table.standings()}
    assert standings == {s["seat"]: s["chips"] for s in table.view(None)["seats"]}


def test_the_view_carries_the_result_until_the_next_deal_and_the_hand_over_event_carries_it_too() -> None:
    table = Table("tripoley", [Seat("Ann", "random"), Seat("Bob", "random")], hands=2, seed="carry")
    while not table.hand_over:
        table.play_bot()
    view = table.view(1)
    assert view["result"] == table.results[0] and view["result"]["hand_no"] == 1
    over = [e for e in table.events_since(0, 1) if e["type"] == "hand_over"]
    assert over[-1]["result"] == view["result"] and over[-1]["text"].startswith("Hand 1 is over.")
    table.next_hand()
    assert table.view(1)["result"] is None


def test_a_person_is_told_what_happens_now_and_a_bot_is_not() -> None:
    table = Table("gin-rummy", [Seat("Ann"), Seat("Bob", "random")], hands=1, seed="guide", dealer=1)
    hand_view = table.view(0)["hand"]
    assert hand_view["prompt"].startswith("The upcard is ") and hand_view["arranged"]["count"] >= 0
    assert "prompt" not in table.hand.view(0, history=True)  # what a bot decides from has no words
    stops = Table("rummoli", [Seat("Ann"), Seat("Bob", "random")], hands=1, seed="guide")
    mine = stops.view(0)["hand"]
    assert len(mine["best_five"]["cards"]) == 5 and mine["best_five"]["name"][0].isupper()


def test_a_paced_forced_play_is_told_to_its_seat_as_coming_and_to_nobody_else() -> None:
    """At a table that makes forced plays at its own pace (auto=False), the seat whose only choice waits is
    not asked for it: its view names the action under ``forced`` and offers nothing; other seats see no mark."""
    table = Table("michigan", [Seat("Ann"), Seat("Bob"), Seat("Cy")], hands=1, seed="forced-view", auto=False)
    seen = 0
    for _ in range(400):
        if table.hand_over:
            break
        if table.forced_due():
            forced = table.hand.forced_action()
            seat = table.hand_seats[forced.seat]
            mine = table.view(seat)["hand"]
            assert mine["forced"] == forced.to_json() and mine["legal_actions"] == []
            assert mine["prompt"] == "Your only choice is made for you."
            for other in (s for s in range(3) if s != seat):
                assert "forced" not in table.view(other)["hand"]
            seen += 1
            table.step()
        else:
            seat = table.to_act()[0]
            table.act(seat, table.view(seat)["hand"]["legal_actions"][0])
    assert seen > 5 and table.hand_over


@pytest.mark.parametrize("ruleset", ["rummoli", "michigan", "tripoley", "rummoli-tripoley"])
def test_a_hushed_hands_result_is_the_worded_result_without_its_sentences(ruleset: str) -> None:
    """The lab hushes its hands (no bot reads words): each result keeps every figure a worded one has (and every card
    shown), without its sentences and the names of the fives shown."""
    import random

    from rummoli.cards import shuffled_deck
    from rummoli.dealing import deal_with_widow
    from rummoli.stops import Hand
    from rummoli.stops.result import hand_result

    for seed in range(12):
        hands, widow = deal_with_widow(shuffled_deck(seed), 4, dealer=seed % 4)
        worded, hushed = (Hand(ruleset, ["Ann", "Bob", "Cy", "Di"], [60] * 4, {}, seed % 4, [list(h) for h in hands],
                               list(widow)) for _ in range(2))
        hushed.hush()
        for hand in (worded, hushed):
            rng = random.Random(seed)
            while not hand.over:
                hand.random_step(rng)
        full, bare = hand_result(worded), hand_result(hushed)
        assert full["lines"] and full["headline"]
        assert bare["lines"] == [] and bare["headline"] == ""
        assert all(not x["text"] for x in [*bare["pots_won"], *bare["payments"]])
        assert all(x["name"] == "" for x in bare["showdown"]) and all(x["name"] for x in full["showdown"])
        for entry in [*full["pots_won"], *full["payments"]]:
            entry["text"] = ""
        for shown in full["showdown"]:
            shown["name"] = ""
        assert {**full, "lines": [], "headline": ""} == bare


def test_R_POKER_3_two_fives_of_one_name_are_named_down_to_the_card_that_decides() -> None:
    """Two ace-high flushes at a showdown: "Flush, ace high" twice would not say why one wins; each is named down
    to the card that tells them apart. A true tie keeps its plain name; a different hand is named as ever."""
    from rummoli.stops.result import settlement_entry
    from rummoli.stops.ruleset import load_ruleset
    from rummoli.stops.words import five_names

    assert five_names([["Ad", "Kd", "9d", "4d", "3d"], ["As", "Qs", "Ts", "9s", "6s"]]) == [
        "Flush, ace-king high", "Flush, ace-queen high"]
    pairs = [["Kd", "Ks", "Ad", "4d", "3c"], ["Kh", "Kc", "Qs", "Ts", "9s"], ["Qh", "Qc", "As", "Ts", "9h"]]
    assert five_names(pairs) == ["Pair of kings, ace kicker", "Pair of kings, queen kicker", "Pair of queens"]
    assert five_names([["Kd", "Ks", "5d", "5c", "3c"], ["Kh", "Kc", "5s", "5h", "9s"]]) == [
        "Two pair, kings and fives, three kicker", "Two pair, kings and fives, nine kicker"]
    assert five_names([["Ad", "Kd", "9d", "4d", "3d"], ["As", "Ks", "9s", "4s", "3s"]]) == ["Flush, ace high"] * 2
    entry = settlement_entry(load_ruleset("rummoli"), ["Ann", "Bob"], "all", 28, "showdown", {1: 28},
                             {0: ["As", "Qs", "Ts", "9s", "6s"], 1: ["Ad", "Kd", "9d", "4d", "3d"]}, {1})
    assert [(s["player"], s["name"], s["won"]) for s in entry["showdown"]] == [
        ("Ann", "Flush, ace-queen high", False), ("Bob", "Flush, ace-king high", True)]


def test_R_SESSION_2_a_board_shared_by_the_one_player_still_seated_is_not_said_shared() -> None:
    """Michigan's board is shared equally among the players still seated; when the others have left, the one left
    takes it, and the words say so (they said "shared equally: Cy 9 chips")."""
    from rummoli.stops.result import settlement_entry
    from rummoli.stops.ruleset import load_ruleset

    rules = load_ruleset("michigan")
    alone = settlement_entry(rules, ["Ann", "Bob", "Cy"], "all", 9, "share", {2: 9}, {}, {2})
    assert alone["text"] == "Cy takes the 9 chips left on the board, as the last player seated."
    you = settlement_entry(rules, ["Ann", "Bob", "You"], "all", 9, "share", {2: 9}, {}, {2})
    assert you["text"] == "You take the 9 chips left on the board, as the last player seated."
    last = settlement_entry(load_ruleset("rummoli"), ["You", "Bob"], "poker", 6, "alone", {0: 6}, {}, {0})
    assert last["text"] == "You take the Poker pot as the last player left: 6 chips."
    two = settlement_entry(rules, ["Ann", "Bob", "Cy"], "all", 9, "share", {0: 5, 2: 4}, {}, {0, 2})
    assert two["text"] == "The 9 chips left on the board are shared equally: Ann 5 chips, Cy 4 chips."
