"""One table for every game: seats, the hand loop, events in one numbering, snapshots and evening records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummoli.cards import Card, shuffled_deck
from rummoli.errors import IllegalAction, MalformedInput, StaleAction
from rummoli.games import replay
from rummoli.rummy import load_ruleset
from rummoli.table import Seat, Table

STOPS = ["rummoli", "rummoli-tripoley", "tripoley", "michigan"]
# A house rule that leaves a card order to chance in the middle of a hand (R-RU-SHUFFLE): a snapshot must
# keep that chance too.
SHUFFLED: dict[str, Any] = {**load_ruleset("rummy").to_dict(), "name": "shuffled", "stock_end": "shuffle_once"}
RUMMY = ["rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy"]
PLAYERS = {"gin-rummy": 2}


def seats_for(ruleset: str, people: int = 1, level: str = "random") -> list[Seat]:
    n = PLAYERS.get(ruleset, 3)
    return [Seat(f"P{i}", None if i < people else level) for i in range(n)]


def pick(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action of a person's view (one amount drawn from a range, if it is one)."""
    action = dict(rng.choice(view["hand"]["legal_actions"]))
    if "min" in action:
        action["amount"] = rng.randint(action.pop("min"), action.pop("max"))
    return action


def advance(table: Table, rng: random.Random, moves: int = 10_000) -> int:
    """Play people at random and bots by themselves for up to ``moves`` moves; deal on between hands."""
    made = 0
    while made < moves and not table.over:
        if table.hand_over:
            table.next_hand()
        elif table.step():
            pass
        else:
            seat = table.to_act()[0]
            table.act(seat, pick(table.view(seat), rng), seq=table.seq)
        made += 1
    return made


def everyone(table: Table) -> list[int | None]:
    return [*range(len(table.seats)), None]


def total_chips(table: Table) -> int:
    """Chips on the table: every stack plus the board (stops)."""
    view = table.view(None)
    board = sum(view["hand"]["pots"].values()) if view["hand"] is not None and not table.hand_over else sum(
        table.evening.pots(None).values())
    return sum(int(s["chips"]) for s in view["seats"]) + board


@pytest.mark.parametrize("ruleset", STOPS + RUMMY)
def test_an_evening_of_every_ruleset_plays_to_its_end(ruleset: str) -> None:
    table = Table(ruleset, seats_for(ruleset, people=2), seed=f"t-{ruleset}", hands=3, chips=60)
    rng = random.Random(1)
    start = total_chips(table) if table.game == "stops" else None
    advance(table, rng)
    assert table.over and table.hand_no == 3
    if start is not None:
        finish = sum(int(s["chips"]) for s in table.view(None)["seats"]) + sum(table.evening.pots(None).values())
        assert finish == start  # R-CHIP-1 across the evening (before any settlement leaves the board empty)
    # every seat's numbered events run 1..seq without a gap
    for seat in everyone(table):
        numbers = [e["seq"] for e in table.events_since(0, seat)]
        assert numbers == list(range(1, table.seq + 1))
    kinds = [e["type"] for e in table.events_since(0, None)]
    assert kinds.count("hand_start") == 3 and kinds.count("hand_over") == 3 and kinds[-1] == "evening_over"


@pytest.mark.parametrize("ruleset", [*STOPS, "poch", "gin-rummy"])
def test_the_views_board_is_the_board_now_and_empty_after_the_settlement(ruleset: str) -> None:
    """``board``: the hand's pots while it is played, what carries over between hands, and every pot at 0 once the
    evening's settlement has shared the board out (the page drew the hand's last pots beside the settlement)."""
    table = Table(ruleset, seats_for(ruleset, people=2), seed=f"board-{ruleset}", hands=2, chips=60)
    rng = random.Random(3)
    start = sum(int(s["chips"]) for s in table.view(None)["seats"]) + sum(table.view(None)["board"].values())
    carried_seen = False
    while not table.over:
        advance(table, rng, moves=1)
        view = table.view(0)
        assert view["board"] == table.view(None)["board"]  # public: the same for every seat and a spectator
        if table.game == "rummy":
            assert view["board"] == {}
        elif not table.over:  # in play the hand's pots; between hands what the hand ended with carries over
            assert view["board"] == view["hand"]["pots"]
            carried_seen = carried_seen or (table.hand_over and sum(view["board"].values()) > 0)
    view = table.view(None)
    if table.game != "rummy":
        assert carried_seen, "no chips carried over: choose another seed"
        assert view["settlement"] and set(view["board"].values()) == {0}, view["board"]
        assert sum(int(s["chips"]) for s in view["seats"]) == start  # every chip is in a stack again


def test_events_since_gives_exactly_what_is_new() -> None:
    table = Table("rummoli", seats_for("rummoli", people=3), seed="new")
    rng = random.Random(2)
    seen = {seat: 0 for seat in everyone(table)}
    got: dict[int | None, list[int]] = {seat: [] for seat in everyone(table)}
    for _ in range(60):
        advance(table, rng, moves=1)
        for seat in everyone(table):
            fresh = table.events_since(seen[seat], seat)
            got[seat] += [e["seq"] for e in fresh]
            seen[seat] = table.seq
    for seat in everyone(table):
        assert got[seat] == list(range(1, table.seq + 1))


@pytest.mark.parametrize("ruleset", ["rummoli", "gin-rummy"])
def test_a_finished_hand_forgets_its_events_as_read_and_reads_them_again_the_same(ruleset: str) -> None:
    # A long evening kept every reading of every event (bench/soak.py: about 10 kB an action); the hand before
    # forgets them at the next deal, and a history made again must be exactly what the live reads gave.
    def play(reading: bool, hands: int = 4) -> tuple[Table, dict[int | None, list[Any]]]:
        table = Table(ruleset, seats_for(ruleset, people=2), seed="forget", hands=4, chips=60)
        rng = random.Random(3)
        live: dict[int | None, list[Any]] = {seat: [] for seat in everyone(table)}
        seen = 0
        while not table.over and not (table.hand_no > hands):
            if reading:
                for seat in everyone(table):
                    live[seat] += table.events_since(seen, seat)
                seen = table.seq
            advance(table, rng, moves=1)
        for seat in everyone(table) if reading else ():
            live[seat] += table.events_since(seen, seat)
        return table, live

    table, live = play(reading=True)
    again, _ = play(reading=False)
    for seat in everyone(table):
        assert table.events_since(0, seat) == live[seat] == again.events_since(0, seat)
    # White box: once the third hand is dealt, the first is packed away (rummoli.shelf; the second, just over,
    # stays live until the next deal) and, read again, holds only what the reading made (the third holds its
    # live reading).
    dealt, _ = play(reading=True, hands=2)
    assert dealt.hand_no == 3 and dealt._hands.packed(0) and not any(dealt._hands.packed(k) for k in (1, 2))
    assert dealt._hands.hand(0)._events.public == [] and dealt._hands.hand(2)._events.public != []


def test_a_stale_an_out_of_turn_and_a_malformed_action_change_nothing() -> None:
    table = Table("rummoli", seats_for("rummoli", people=3), seed="bad")
    before = json.dumps(table.snapshot())
    seat = table.to_act()[0]
    other = (seat + 1) % 3
    legal = table.view(seat)["hand"]["legal_actions"][0]
    with pytest.raises(StaleAction):
        table.act(seat, legal, seq=table.seq - 1)
    with pytest.raises(IllegalAction):
        table.act(other, {"action": legal["action"]}, seq=table.seq)
    for bad_seat in (True, 1.0, -1, 3, "0", None):
        with pytest.raises(MalformedInput):
            table.act(bad_seat, legal)  # type: ignore[arg-type]
    for bad in ([], "keep", None, {"action": "fly"}, {**legal, "seat": other}, {**legal, "seat": True}):
        with pytest.raises((MalformedInput, IllegalAction)):
            table.act(seat, bad)
    with pytest.raises(MalformedInput):
        table.act(seat, legal, seq=1.5)  # type: ignore[arg-type]
    assert json.dumps(table.snapshot()) == before


def test_a_person_cannot_act_for_a_bot_seat_and_a_bot_can_take_a_seat_over() -> None:
    table = Table("rummy", [Seat("Ann"), Seat("Bob", bot="easy")], seed="takeover", dealer=1)
    assert table.to_act() == [0]
    with pytest.raises(IllegalAction, match="bot"):
        table.act(1, {"action": "discard", "card": "2s"})
    assert not table.step()  # the person is to act: nothing for the table to do
    table.set_bot(0, "easy")  # Ann is away: a bot plays her seat
    assert table.bot_due() == 0 and table.step()
    assert table.events_since(0, None)[-2]["type"] in ("seat", "action")
    table.set_bot(0, None)
    assert table.bots[0] is None


@pytest.mark.parametrize("ruleset", STOPS + RUMMY)
def test_a_snapshot_restores_an_identical_evening(ruleset: str) -> None:
    # No table seed: the bots' seeds and the first dealer come from the secure source, so only the
    # snapshot can make the copy the same.  The decks still to come (and the settlement's) are given.
    def decks(number: int) -> list[Card]:
        return shuffled_deck(f"future-{number}")

    table = Table(ruleset, seats_for(ruleset, people=1, level="normal"), hands=2, chips=50, decks=decks)
    rng = random.Random(3)
    advance(table, rng, moves=25)
    copy = Table.restore(json.loads(json.dumps(table.snapshot())), decks=decks)
    assert_same(table, copy)
    # the same future: identical person choices, and bots with the same generators and memory
    for _ in range(2000):
        if table.over:
            break
        if table.hand_over:
            deck = table._deck(table.hand_no + 1)
            chance = rng.getrandbits(64)
            table.next_hand(deck, chance)
            copy.next_hand(deck, chance)
        elif table.step():
            assert copy.step()
        else:
            seat = table.to_act()[0]
            action = pick(table.view(seat), rng)
            table.act(seat, action)
            copy.act(seat, action)
        assert_same(table, copy)
    assert table.over and copy.over


def assert_same(a: Table, b: Table) -> None:
    assert a.seq == b.seq
    for seat in everyone(a):
        assert a.view(seat) == b.view(seat)
        assert a.events_since(0, seat) == b.events_since(0, seat)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([*STOPS, *RUMMY, SHUFFLED]), st.integers(0, 400), st.integers(0, 2**32))
def test_a_snapshot_after_any_move_restores_the_same_views(ruleset: str | dict[str, Any], moves: int,
                                                           seed: int) -> None:
    seats = seats_for(ruleset if isinstance(ruleset, str) else "rummy", people=2, level="easy")
    table = Table(ruleset, seats, seed=None if seed % 3 else str(seed), hands=2, auto=seed % 2 == 0)
    advance(table, random.Random(seed), moves=moves)
    copy = Table.restore(table.snapshot())
    assert_same(table, copy)


def test_a_tampered_snapshot_is_refused_in_one_line() -> None:
    table = Table("rummoli", seats_for("rummoli", people=3), seed="tamper")
    advance(table, random.Random(4), moves=5)
    snap = table.snapshot()
    bad = json.loads(json.dumps(snap))
    bad["journal"][0][1][0], bad["journal"][0][1][1] = bad["journal"][0][1][1], bad["journal"][0][1][1]
    for broken in (bad, {**snap, "format": "x"}, {**snap, "journal": "x"}, {**snap, "seats": [{"name": 3}]}):
        with pytest.raises(MalformedInput) as info:
            Table.restore(broken)
        assert "\n" not in str(info.value)


@pytest.mark.parametrize("ruleset", ["rummoli", "michigan", "rummy", "gin-rummy"])
def test_the_evening_record_replays(ruleset: str) -> None:
    table = Table(ruleset, seats_for(ruleset, people=0), seed="record", hands=3, chips=40)
    advance(table, random.Random(5))
    record = json.loads(json.dumps(table.evening_record()))
    assert record["format"] == "rummoli-evening/1" and len(record["hands"]) == table.hand_no
    result = replay(record)
    assert result["hands"] == table.hand_no
    # the standings the players were shown at the end, after any settlement, beside the stacks the hands left
    assert result["standings"] == json.loads(json.dumps(table.standings()))
    if table.settlement:  # the board was shared out after the last hand: the replay ends before that
        assert sum(result["chips"].values()) + sum(result["pots"].values()) == 40 * len(table.seats)
        assert result["settlement"] == json.loads(json.dumps(table.settlement))
    else:
        final = {row["name"]: row["chips"] for row in table.standings()}
        assert result["chips"] == final
    # a record whose hands do not follow one another is refused
    if len(record["hands"]) > 1:
        record["hands"][1]["chips"][0] += 1
        with pytest.raises(MalformedInput, match="hand 2"):
            replay(record)


def test_a_player_who_cannot_ante_leaves_and_hand_seats_map_back() -> None:
    table = Table("rummoli", [Seat("A"), Seat("B", bot="random"), Seat("C", bot="random")], seed="broke-4", chips=12)
    rng = random.Random(6)
    while not table.over and all(table.evening.seated()):
        advance(table, rng, moves=1)
    assert not table.over, "nobody left: the test's seed must make a player unable to ante"
    if not table.over:
        advance(table, rng, moves=1)  # deal the next hand
        left = [s for s, sat in enumerate(table.evening.seated()) if not sat]
        assert left and not set(left) & set(table.hand_seats)
        view = table.view(left[0])
        assert view["hand"]["seat"] is None  # a player who left watches like a spectator
        # Everyone is told, with the deal: the seat does not just vanish from the table.
        for reader in (None, *range(3)):
            opening = [e for e in table.events_since(0, reader) if e["type"] == "hand_start"][-1]["text"]
            for seat in left:
                said = "You leave" if reader == seat and table.names[seat] == "You" else f"{table.names[seat]} leaves"
                assert f"{said} the table, unable to pay the ante" in opening, opening


def test_rummoli_replay_reads_an_evening_record_file(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from rummoli.cli import app

    table = Table("rummoli", seats_for("rummoli", people=0), seed="cli", hands=2)
    advance(table, random.Random(7))
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(table.evening_record()), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hands"] == 2
    broken = table.evening_record()
    broken["ledger"] = broken["ledger"][::-1]
    path.write_text(json.dumps(broken), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code != 0 and "out of order" in result.output and "Traceback" not in result.output


def test_a_restored_table_meets_the_same_shuffled_stock() -> None:
    """R-RU-SHUFFLE: the turned-over pile's new order is left to chance after the deal; the snapshot keeps
    that chance (server-side, like the deck), so a restored table draws the same cards after the flip."""
    rng = random.Random(8)
    flipped, hands = False, 0
    # Play on, hand after hand, until a stock has run out and been shuffled (unseeded, it may take a few hands,
    # and an evening may end first: then another evening, also unseeded).
    while not flipped and hands <= 30:
        table = Table(SHUFFLED, [Seat("A"), Seat("B", "random"), Seat("C", "random")])  # no seed
        copy = Table.restore(table.snapshot())
        while not flipped and not table.over and hands <= 30:
            if table.hand_over:
                hands += 1
                table.next_hand()
                copy = Table.restore(table.snapshot())  # the new hand's chance travels in the snapshot
            elif table.step():
                assert copy.step()
            else:
                action = pick(table.view(0), rng)
                table.act(0, action)
                copy.act(0, action)
            assert_same(table, copy)
            flipped = table.hand.flips > 0
    assert flipped  # the stock ran out and was shuffled, and the copy met the same cards


def test_a_choice_the_turn_timer_made_is_marked_for_every_seat_and_survives_a_restore() -> None:
    t = Table("gin-rummy", [Seat("Ann"), Seat("Bob")], seed="timer", hands=1, dealer=1)
    seat = t.to_act()[0]
    before = t.seq
    with pytest.raises(IllegalAction):  # an illegal default is refused before anything is told
        t.act(seat, {"action": "discard", "card": "2c"}, seq=t.seq, timed_out=True)
    assert t.seq == before and all(e[0] != "timeout" for e in t.journal)
    legal = t.view(seat)["hand"]["legal_actions"][0]
    t.act(seat, legal, seq=t.seq, timed_out=True)
    for reader in (0, 1, None):
        marks = [e for e in t.events_since(before, reader) if e["type"] == "timeout"]
        assert [m["seat"] for m in marks] == [seat]
    again = Table.restore(t.snapshot())
    assert again.events_since(0, 0) == t.events_since(0, 0)


def test_a_person_is_asked_their_forced_lead_pass_or_keep_and_a_snapshot_keeps_it() -> None:
    # A server's table (issue 33): the table makes no forced move for a person that the other seats are not told
    # was forced; it is listed as their one legal action and they send it, and it is marked forced for them alone.
    table = Table("michigan", [Seat("Ann"), Seat("Bob", "easy"), Seat("Cy", "easy")], seed="ask", auto=False,
                  ask_forced=True, hands=2)
    asked = 0
    while not table.over:
        if table.hand_over:
            table.next_hand()
            continue
        if table.to_act() == [0] and not table.forced_due():
            legal = table.view(0)["hand"]["legal_actions"]
            action = dict(legal[0])
            if "min" in action:
                action["amount"] = action.pop("min")
                action.pop("max")
            if len(legal) == 1 and "min" not in legal[0] and legal[0]["action"] != "play":
                asked += 1
                again = Table.restore(table.snapshot())
                assert again.ask_forced and not again.forced_due()
            table.act(0, action)
        else:
            assert table.forced_due() or table.bot_due() is not None
            if table.forced_due() and table.to_act() == [0]:
                assert table.view(0)["hand"]["forced"]["action"] == "play"  # a play in a run is made still
            table.step()
    assert asked > 0


def test_the_poker_prompt_names_the_boards_own_pot() -> None:
    """Tripoley's board calls its poker pot "Pot" (its result: "wins the Pot"): the words beside the betting say the
    same, not Rummoli's "Poker pot"."""
    for ruleset, named in (("tripoley", "Poker round for the Pot ("), ("rummoli", "Poker round for the Poker pot (")):
        table = Table(ruleset, seats_for(ruleset, people=4), seed=f"pot-{ruleset}")
        rng = random.Random(3)
        while table.view(table.to_act()[0])["hand"]["phase"] != "poker":
            seat = table.to_act()[0]
            table.act(seat, pick(table.view(seat), rng), seq=table.seq)
        seat = table.to_act()[0]
        assert table.view(seat)["hand"]["prompt"].startswith(named), table.view(seat)["hand"]["prompt"]


@pytest.mark.parametrize(("ruleset", "hands", "noted"), [("gin-rummy", 1, True), ("gin-rummy", None, False),
                                                         ("knock-rummy", 1, False), ("rummoli", 1, False)])
def test_R_GIN_7_a_gin_game_stopped_before_its_target_says_no_bonus_is_added(ruleset: str, hands: int | None,
                                                                             noted: bool) -> None:
    """Ended by the evening's number of hands before anyone reached 100, a Gin game adds no game or box bonus: the
    view's ``end_note`` says so, for the page and the terminal to show (a winner looked for bonuses that never
    came). Played to 100, the bonuses come and nothing is noted; other games never note it."""
    # normal bots: they play a Gin game to 100 in a few hands (random ones took hundreds, 18 s of the suite)
    table = Table(ruleset, seats_for(ruleset, people=0, level="normal"), seed="note", hands=hands, chips=60)
    assert table.view(None)["end_note"] == ""
    advance(table, random.Random(5), moves=100_000)
    assert table.over
    view, last = table.view(0), table.events_since(0, None)[-1]
    assert last["type"] == "evening_over"
    if noted:
        assert view["bonuses"] == [] and max(s["chips"] for s in view["seats"]) < 100
        assert view["end_note"] == ("The game stopped before anyone reached 100 points, so no game or box bonus is "
                                    "added (R-GIN-7).")
    else:
        assert view["end_note"] == ""
        assert (view["bonuses"] != []) == (ruleset == "gin-rummy")


def test_a_win_shared_by_more_than_two_names_them_as_a_sentence_lists_them() -> None:
    """A blocked Boathouse hand that scored nobody ended a QA evening with "You and Ann and Bob and Cy share the win
    with 0 points." (the terminal's and the page's heading)."""
    table = Table("boathouse-rummy", [Seat(name, None) for name in ("You", "Ann", "Bob", "Cy")], seed="tie", hands=1)
    table.end()
    advance(table, random.Random(3))
    assert all(row["chips"] == table.standings()[0]["chips"] for row in table.standings()), table.standings()
    assert table.closing.startswith("The evening is over: You, Ann, Bob and Cy share the win with "), table.closing


def test_the_player_called_you_wins_the_evening_in_the_second_person() -> None:
    """The terminal's player is "You": a Poch evening they won ended "The evening is over: You wins with 156 chips.\""""
    table = Table("poch", [Seat("You", None), Seat("Bob", "random"), Seat("Cy", "random")], seed="you-8", hands=1)
    advance(table, random.Random(1))
    assert [row["name"] for row in table.standings() if row["winner"]] == ["You"], table.standings()
    assert table.closing == f"The evening is over: You win with {table.standings()[0]['chips']} chips.", table.closing


def test_who_left_unable_to_ante_when_that_ended_the_evening_is_said_at_its_end() -> None:
    """Who cannot pay the next ante leaves, their chips to the board, and is told with the next deal (R-ANTE-1). When
    that left too few to play, there was no next deal: a QA evening of four Michigan hands ended after one, Ann's 2
    chips and Bob's 3 gone to the board, without a word on the terminal or the page (their view's end_note)."""
    table = Table("michigan", [Seat(n, "random") for n in ("Ann", "Bob", "Cy", "Dee")], seed="broke-1", hands=6,
                  chips=8)
    advance(table, random.Random(1))
    assert table.over and table.hand_no == 1, table.hand_no
    assert [(e["player"], e["chips_to_centre"]) for e in table.ledger if e["type"] == "out"] == [("Cy", 1), ("Dee", 1)]
    assert table.view(None)["end_note"] == ("Cy leaves the table, unable to pay the ante; their 1 chip goes to the "
                                            "board. Dee leaves the table, unable to pay the ante; their 1 chip goes "
                                            "to the board.")
    # an evening that reached its agreed end has nobody leave after its last hand, and nothing to add
    table = Table("michigan", [Seat(n, "random") for n in ("Ann", "Bob", "Cy")], seed="t-michigan", hands=2)
    advance(table, random.Random(1))
    assert table.over and table.hand_no == 2 and table.view(None)["end_note"] == ""
