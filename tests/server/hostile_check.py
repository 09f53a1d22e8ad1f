"""The hostile-client suite's machinery (issue 33): play whole evenings on a real ``rummoli serve`` with scripted
people, a spectator and bots, keep every frame and REST answer each client got, then read the evening back from
the server's own SQLite store and check every frame against it.

The judge is the server-side record, not what the spectator was sent: the stored snapshot and actions are
replayed one journal entry at a time (``Table.restore`` on an empty journal, then ``replay_journal``), which
gives, at every seq, each seat's cards (what it was dealt, took from the widow or drew) and its legal actions.
Which cards are public, and from which seq, is read from each hand's full event log by kind (a card led,
played, discarded, melded or laid off; the hands shown at a showdown or at the end; the upcard of the start).
A card in a frame to a seat must be that seat's own by that seq, or public by then; a spectator gets public
cards only. ``tests/server/test_server_hostile.py`` runs one short evening per ruleset; ``bench/hostile.py``
runs many.
"""

from __future__ import annotations

import bisect
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Client, Server, play, take_seat

from rummoli.server.api.web import whole_views
from rummoli.server.storage.store import Store
from rummoli.server.tables.room import merge_snapshot
from rummoli.snapshot import replay_journal
from rummoli.table import Table
from rummoli.wording import first_dealer

CARD = re.compile(r"^[2-9TJQKA][shdc]$")
WORDED = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])")  # "10♣" in a sentence
SUITS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
# A forced mark on these tells of the actor's hidden cards (docs/ARCHITECTURE.md "Forced actions", R-VIEW-1):
# only the actor may see it. A forced follow in a stops run, or a Rummy draw from an empty pile, is public.
HIDDEN_FORCED = frozenset({"lead", "pass", "keep", "swap", "bid"})
HIDDEN_FORCED_DRAW = frozenset({"500-rum"})  # where a forced stock draw tells of the hand
# Poch forces a lead only from a last card, which every seat can count (R-PO-13): that mark is public.
PUBLIC_FORCED_LEAD = frozenset({"poch", "poch-hoyle"})
# Full-log entries whose cards everyone sees from that seq on.
PUBLIC_ACTIONS = frozenset({"lead", "play", "discard", "layoff", "meld", "knock"})
PUBLIC_EVENTS = frozenset({"stop", "showdown", "show", "end", "meld"})  # Poch's meld: cards shown for a pool


def cards_in(data: Any, key: str = "") -> list[str]:
    """Every card named anywhere in ``data`` (keys too; in sentences as "10♣"), leaving out the board's pot
    names, which are spelt
    like cards ("Ts" is the Ten of spades pot): a board entry's ``id``, a ``pot`` and the keys of ``pots`` and
    ``board`` maps."""
    found: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if key not in ("pots", "board") and CARD.match(k):
                found.append(k)
            if k == "pot" or (k == "id" and "kind" in data):
                continue
            found.extend(cards_in(v, k))
    elif isinstance(data, list):
        for item in data:
            found.extend(cards_in(item, key))
    elif isinstance(data, str):
        if CARD.match(data):
            found.append(data)
        else:
            found.extend(("T" if rank == "10" else rank) + SUITS[suit] for rank, suit in WORDED.findall(data))
    return found


# ------------------------------------------------------------------------------------ the server's truth
@dataclass
class Truth:
    """What each seat may know at each seq of one evening, read from the server's store."""

    ruleset: str
    table: Table
    public: dict[tuple[int, str], int] = field(default_factory=dict)  # (hand_no, card) -> first public seq
    # (evening seat, hand_no) -> [(seq, cards held so far this hand)], one per journal entry
    own: dict[tuple[int, int], list[tuple[int, frozenset[str]]]] = field(default_factory=dict)
    legal: dict[tuple[int, int], Any] = field(default_factory=dict)  # (seq, evening seat) -> legal actions
    # the same as the hand's own stream tells them in an event's state: where the table makes a forced play in a
    # run itself (its seat's view says it is coming, with no legal actions), the stream still names that one play
    stream_legal: dict[tuple[int, int], Any] = field(default_factory=dict)
    hand_seats: dict[int, list[int]] = field(default_factory=dict)
    took_widow: dict[tuple[int, int], int] = field(default_factory=dict)  # (hand_no, hand seat) -> seq of it
    deals: dict[int, dict[str, Any]] = field(default_factory=dict)

    def owns(self, seat: int, hand_no: int, card: str, seq: int) -> bool:
        # A seat's deal is its own all hand long, and the widow its taker's from the swap on (read from the
        # record: a card may be dealt or taken and played within one journal entry, never seen between two).
        mine = self.hand_seat(seat, hand_no)
        deal = self.deals.get(hand_no, {}).get("deal", {})
        if mine is not None and deal and card in deal["hands"][mine]:
            return True
        took = None if mine is None else self.took_widow.get((hand_no, mine))
        if took is not None and took <= seq and card in deal.get("widow", []):
            return True
        steps = self.own.get((seat, hand_no))
        if not steps:
            return False
        k = min(bisect.bisect_left([s for s, _ in steps], seq), len(steps) - 1)
        return card in steps[k][1]

    def hand_seat(self, seat: int | None, hand_no: int) -> int | None:
        """``seat``'s number in hand ``hand_no`` (None: a spectator, or a seat the hand left out)."""
        seats = self.hand_seats.get(hand_no, [])
        return seats.index(seat) if seat in seats else None

    def may_know(self, seat: int | None, hand_no: int, card: str, seq: int) -> bool:
        """Whether ``seat`` may know ``card`` of hand ``hand_no`` at ``seq`` (hand 0: the evening's own
        events, whose only cards are those the settlement at its end shows)."""
        for hand in {hand_no, 0}:
            shown = self.public.get((hand, card))
            if shown is not None and shown <= seq:
                return True
        return seat is not None and self.owns(seat, hand_no, card, seq)


def read_truth(data_dir: Path, table_id: str) -> Truth:
    """The evening as the server stored it, replayed entry by entry."""
    store = Store(f"sqlite:///{data_dir / 'rummoli.sqlite3'}")
    try:
        recovery = store.recover(table_id)
    finally:
        store.close()
    assert recovery is not None, f"table {table_id} is not in the store"
    whole = merge_snapshot(recovery.snapshot, recovery.actions)
    table = Table.restore({**whole, "journal": []})
    truth = Truth(str(whole["ruleset"]), table)
    journal = whole["journal"]
    replay_journal(table, [e for e in journal if e[0] == "settle"])
    held: dict[tuple[int, int], set[str]] = {}
    for entry in journal:
        if entry[0] == "settle":
            continue
        replay_journal(table, [entry])
        if table.hand is None:
            continue
        seq, hand_no = table.seq, table.hand_no
        seats = list(table.view(None)["hand_seats"])
        truth.hand_seats[hand_no] = seats
        for seat in seats:
            view: dict[str, Any] = dict(table.view(seat)["hand"] or {})
            cards = held.setdefault((seat, hand_no), set())
            cards.update(view.get("hand") or [])
            truth.own.setdefault((seat, hand_no), []).append((seq, frozenset(cards)))
            truth.legal[(seq, seat)] = view.get("legal_actions") or []
            truth.stream_legal[(seq, seat)] = table.hand.view(seats.index(seat)).get("legal_actions") or []
    assert table.seq == recovery.table.seq, (table.seq, recovery.table.seq)
    record = table.evening_record()
    for hand_no, hand in enumerate(record["hands"], 1):
        truth.deals[hand_no] = hand
    public_cards(table, truth)
    for base, kind, payload in table._blocks:
        if kind == "event" and payload.get("type") == "evening_over":  # the settlement's showdown, if any
            for card in cards_in(record["settlement"]):
                truth.public.setdefault((0, card), base + 1)
    return truth


def public_cards(table: Table, truth: Truth) -> None:
    """Fill ``truth.public`` from each hand's full log (every card in it, nothing hidden), by kind."""
    blocks = table._blocks  # (base seq, "hand", (hand index, hand seq at start)) | (seq - 1, "event", event)
    for k, (base, kind, payload) in enumerate(blocks):
        if kind != "hand":
            continue
        index, start = payload
        hand = table._hands.hand(index)
        hand_no = index + 1
        end = blocks[k + 1][0] - base + start if k + 1 < len(blocks) else hand.seq
        full = hand.events()
        assert len(full) == hand.seq - 1, "one full event per log entry after the start"
        for hand_seq in range(start + 1, end + 1):
            seq = base + hand_seq - start
            if hand_seq == 1:  # the start: its public part is what a spectator's start shows (the upcard)
                event = hand.events_since(0, None)[0]
                found = cards_in({k: v for k, v in event.items() if k in ("discard", "turned_up", "trump")})
            else:
                event = full[hand_seq - 2]
                if event.get("type") == "swap":
                    truth.took_widow[(hand_no, int(event["seat"]))] = seq
                public = event.get("action") in PUBLIC_ACTIONS or event.get("type") in PUBLIC_EVENTS or (
                    event.get("action") == "draw" and event.get("from") != "stock")
                found = cards_in(event) if public else []
            for card in found:
                truth.public.setdefault((hand_no, card), seq)


# ------------------------------------------------------------------------------------ checking frames
@dataclass
class Tally:
    frames: int = 0
    cards: int = 0
    rest: int = 0
    forced: int = 0  # forced marks seen (each checked for a hidden origin)
    leaks: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.forced += other.forced
        self.frames += other.frames
        self.cards += other.cards
        self.rest += other.rest
        self.leaks.extend(other.leaks)


def check_part(truth: Truth, tally: Tally, seat: int | None, part: Any, hand_no: int, seq: int, where: str) -> None:
    if isinstance(part, dict) and part.get("type") == "hand_start" and isinstance(part.get("text"), str):
        # The cut for the first deal, as the table words it from the store's own cut, is every seat's to know: it is
        # made face up before the deal, from a deck of its own (R-MI-1), so its cards say nothing of any hand. Only
        # that exact sentence is left out: a card the line names beside it is still checked.
        chosen = first_dealer(truth.table.dealer_by, truth.table.cut)
        part = {**part, "text": part["text"].replace(chosen, "") if chosen else part["text"]}
    for card in cards_in(part):
        tally.cards += 1
        if not truth.may_know(seat, hand_no, card, seq):
            tally.leaks.append(f"{where}: seat {seat} got {card} of hand {hand_no} at seq {seq} "
                               f"(public at {truth.public.get((hand_no, card))})")


def check_forced(truth: Truth, tally: Tally, seat: int | None, event: dict[str, Any], where: str) -> None:
    said = "the only choice)" in str(event.get("text", ""))  # how a sentence tells it
    if not (event.get("forced") or said) or event.get("hand_no") is None or "seat" not in event:
        return
    action = event.get("action")
    tally.forced += 1
    hidden = action in HIDDEN_FORCED or (action == "draw" and truth.ruleset in HIDDEN_FORCED_DRAW)
    if action == "lead" and truth.ruleset in PUBLIC_FORCED_LEAD:
        hidden = False
    if hidden and event["seat"] != truth.hand_seat(seat, int(event["hand_no"])):
        tally.leaks.append(f"{where}: seat {seat} was told hand seat {event['seat']}'s {action} was forced")


def check_legal(truth: Truth, tally: Tally, seat: int | None, message: dict[str, Any], where: str) -> None:
    view = message["view"]
    hand = view.get("hand") or {}
    legal = hand.get("legal_actions") or []
    if seat is None:
        if legal:
            tally.leaks.append(f"{where}: a spectator got legal actions {legal[:2]}")
    else:
        expected = truth.legal.get((message["seq"], seat))
        if expected is not None and legal != expected:
            tally.leaks.append(f"{where}: seat {seat}'s legal actions are not its own: {legal[:3]}")
    for event in message.get("events", []):
        state = event.get("state") or {}
        mine = truth.hand_seat(seat, int(event.get("hand_no") or view.get("hand_no") or 0))
        if state.get("legal_actions") and (seat is None or mine not in state.get("to_act", [])):
            tally.leaks.append(f"{where}: seat {seat} got legal actions at seq {event['seq']} while not to act")
        expected = truth.stream_legal.get((event["seq"], seat)) if seat is not None else None
        if "legal_actions" in state and expected is not None and state["legal_actions"] != expected:
            tally.leaks.append(f"{where}: seat {seat}'s legal actions at seq {event['seq']} are not its own")


def check_frames(truth: Truth, seat: int | None, messages: list[dict[str, Any]], who: str) -> Tally:
    tally = Tally()
    for message in messages:
        if message["type"] not in ("welcome", "update"):
            continue
        tally.frames += 1
        seq, view = message["seq"], message["view"]
        where = f"{who} {message['type']} seq {seq}"
        hand_no = int(view.get("hand_no") or 0)
        check_part(truth, tally, seat, view, hand_no, seq, where)
        if seat is None and (view.get("hand") or {}).get("hand"):
            tally.leaks.append(f"{where}: a spectator was sent a hand")
        for event in message["events"]:
            check_part(truth, tally, seat, event, int(event.get("hand_no") or hand_no), event["seq"],
                       f"{where} event {event.get('type')}/{event.get('action')}")
            check_forced(truth, tally, seat, event, where)
        check_legal(truth, tally, seat, message, where)
    return tally


def check_rest(truth: Truth, seat: int | None, answers: list[tuple[str, Any]], who: str) -> Tally:
    """The REST answers a client got: the summary (public only), its history (each hand as of its last seq)
    and the replays of finished hands (as of the hand's end)."""
    tally = Tally()
    for path, body in answers:
        tally.rest += 1
        where = f"{who} GET {path}"
        if path.endswith("/history"):
            for event in body["evening"]:
                check_part(truth, tally, seat, event, int(event.get("hand_no") or 0), event["seq"], where)
            for hand in body["hands"]:
                last = hand["last_seq"]
                for event in hand["events"]:
                    check_part(truth, tally, seat, event, hand["hand_no"], event["seq"], where)
                    check_forced(truth, tally, seat, event, where)
                check_part(truth, tally, seat, hand["view"], hand["hand_no"], last, f"{where} hand view")
        elif "/replay" in path:
            hand_no = int(body["hand_no"])
            end = max(s for s, _ in truth.own[(truth.hand_seats[hand_no][0], hand_no)])
            for frame in body["frames"]:
                check_part(truth, tally, seat, frame, hand_no, end, where)
                for event in frame.get("events", []):
                    check_forced(truth, tally, seat, {"hand_no": hand_no, **event}, where)
            if seat is None and any(v.get("hand") for v in whole_views(body["frames"])):
                tally.leaks.append(f"{where}: a spectator's replay holds a hand")
        elif path == "/api/tables":
            check_part(truth, tally, None, body, 0, 0, where)  # the listing names no card at all
        else:
            check_part(truth, tally, None, body, int(body.get("hand_no") or 0), int(body.get("seq") or 0), where)
    return tally


def check_holdings(truth: Truth) -> list[str]:
    """What each seat held in a hand is its deal, the widow if it took it, the stock, or public cards: never
    another's."""
    out = []
    for (seat, hand_no), steps in truth.own.items():
        deal = truth.deals.get(hand_no, {}).get("deal")
        if deal is None:
            continue  # the hand in play when the evening ended (not in the record)
        hand_seat = truth.hand_seats[hand_no].index(seat)
        widow = deal.get("widow", []) if (hand_no, hand_seat) in truth.took_widow else []
        allowed = set(deal["hands"][hand_seat]) | set(widow) | set(deal.get("stock", []))
        for card in steps[-1][1] - allowed:
            if (hand_no, card) not in truth.public:
                out.append(f"seat {seat} held {card} of hand {hand_no}, from another seat's deal")
    return out


# ------------------------------------------------------------------------------------ playing an evening
@dataclass
class Person:
    client: Client
    token: str | None
    answers: list[tuple[str, Any]] = field(default_factory=list)
    rejoined: list[dict[str, Any]] = field(default_factory=list)  # the welcomes of its reconnections
    earlier: list[dict[str, Any]] = field(default_factory=list)  # what it got before it went away
    hand_no: int = 0
    replayed: int = 0  # the hands whose replay it has fetched

    def fetch(self, server: Server, http: httpx.Client, table_id: str, rng: random.Random) -> None:
        """What this client may ask for besides its live stream: a reconnection's welcome from a random seq
        (kept with its frames), the listing, the summary, its history and each newly finished hand's replay
        (``http`` keeps one connection: a fresh client per request cost 40 ms, most of the suite's time)."""
        again = server.client(table_id, self.token, since=rng.randint(0, self.client.seq))
        self.rejoined.extend(again.messages)
        again.close()
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        paths = ["/api/tables", f"/api/tables/{table_id}"] + [f"/api/tables/{table_id}/history"] * bool(self.token)
        paths += [f"/api/tables/{table_id}/hands/{n}/replay" for n in range(self.replayed + 1, self.hand_no)]
        self.replayed = max(self.replayed, self.hand_no - 1)
        for path in paths:
            answer = http.get(server.url + path, headers=headers)
            assert answer.status_code == 200, answer.text
            self.answers.append((path, answer.json()))


def hostile_server(data: Path) -> Server:
    """A server for the suite (not started): the scripted people answer far faster than people do, so its
    rate limit lets them; its grace period is short, so a person who goes away is played by a bot soon."""
    return Server(data, "--grace", str(GRACE), RUMMOLI_RATE="1000", RUMMOLI_BURST="1000")


def rulesets() -> list[str]:
    from rummoli.records import builtin_names

    return builtin_names()


def seating(ruleset: str, k: int) -> tuple[int, list[str]]:
    """How many people, and which bots, sit at evening ``k`` of ``ruleset`` (2 to 4 people, 3 or 4 seats)."""
    if ruleset == "gin-rummy":
        return 2, []
    people = 2 + k % 3
    return people, ["random", "easy"][:4 - people]


GRACE = 0.5  # the hostile server's --grace: seconds away before a bot plays the seat
AWAY = GRACE + 1.0  # how long a person goes away
# Few chips make stops players drop out between hands, so hand seats stop matching evening seats.
CHIPS = [60, 14, 25]


@dataclass
class Evening:
    ruleset: str
    table_id: str
    seconds: float
    tally: Tally
    truth: Truth
    messages: dict[int | None, list[dict[str, Any]]]  # each client's frames, by seat (None: the spectator)


def play_evening(server: Server, ruleset: str, k: int, hands: int, timeout: float = 120) -> Evening:
    """One evening of ``ruleset`` played by random people; its frames and answers checked against the store."""
    started = time.monotonic()
    people, bots = seating(ruleset, k)
    stops = ruleset in ("rummoli", "rummoli-tripoley", "tripoley", "michigan")
    created = server.create(ruleset=ruleset, seats=[{} for _ in range(people)] + [{"bot": b} for b in bots],
                            seed=f"hostile-{ruleset}-{k}", hands=hands if stops else 1, chips=CHIPS[k % len(CHIPS)])
    table_id = created["id"]
    watcher = Person(server.client(table_id, since=0), None)
    tokens = [created["token"]] + [take_seat(server, table_id, f"P{n}")["token"] for n in range(1, people)]
    seated = [Person(server.client(table_id, token, since=0), token) for token in tokens]
    everyone = [*seated, watcher]
    rng = random.Random(f"{ruleset}-{k}")
    http = httpx.Client(timeout=10)
    clients = [p.client for p in seated]
    # On odd evenings the last person goes away mid-evening for longer than the server's grace (a bot plays
    # the seat meanwhile) and comes back, catching up from the last seq it saw.
    leaver, away = (seated[-1] if k % 2 else None), [0.0]

    def come_and_go(person: Person) -> None:
        if away[0] == 0 and watcher.client.seq >= 30 and not watcher.client.view.get("over"):
            person.earlier.extend(person.client.messages)
            clients.remove(person.client)
            person.client.close()
            away[0] = time.monotonic()
        elif away[0] > 0 and time.monotonic() - away[0] > AWAY:
            person.client = server.client(table_id, person.token, since=person.client.seq)
            clients.append(person.client)
            away[0] = -1.0

    def over() -> bool:
        while watcher.client.poll() is not None:
            pass
        if leaver is not None:
            come_and_go(leaver)
        for person in everyone:
            hand_no = int(person.client.view.get("hand_no") or 0)
            if hand_no != person.hand_no and person.client.view.get("hand_seats") and (
                    person is not leaver or away[0] <= 0):
                person.hand_no = hand_no
                person.fetch(server, http, table_id, rng)
        return all(p.client.view.get("over") for p in everyone) and away[0] <= 0

    play(clients, rng, until=over, timeout=timeout, eager=not stops)
    for person in everyone:
        person.client.drain(0.1)
        person.hand_no = int(person.client.view.get("hand_no") or 0) + 1  # every hand is finished now
        person.fetch(server, http, table_id, rng)
        person.client.close()
    http.close()
    truth = read_truth(server.data, table_id)
    tally = Tally()
    for person in everyone:
        seat, who = person.client.seat, f"{ruleset} seat {person.client.seat}"
        tally.add(check_frames(truth, seat, person.earlier + person.client.messages + person.rejoined, who))
        tally.add(check_rest(truth, seat, person.answers, who))
    tally.leaks.extend(check_holdings(truth))
    return Evening(ruleset, table_id, time.monotonic() - started, tally, truth,
                   {p.client.seat: p.earlier + p.client.messages for p in everyone})


def figures(evenings: list[Evening]) -> str:
    """The table of figures: per ruleset, evenings, frames, REST answers, cards checked, leaks."""
    rows = ["ruleset            evenings  frames  answers    cards  forced  leaks  seconds"]
    by: dict[str, list[Evening]] = {}
    for evening in evenings:
        by.setdefault(evening.ruleset, []).append(evening)
    total = Tally()
    for name, some in by.items():
        tally = Tally()
        for evening in some:
            tally.add(evening.tally)
        total.add(tally)
        rows.append(f"{name:18} {len(some):8} {tally.frames:7} {tally.rest:8} {tally.cards:8} {tally.forced:7} "
                    f"{len(tally.leaks):6} {sum(e.seconds for e in some):8.1f}")
    rows.append(f"{'all':18} {len(evenings):8} {total.frames:7} {total.rest:8} {total.cards:8} {total.forced:7} "
                f"{len(total.leaks):6}")
    kinds = Counter(leak.split(":")[0].split(" seq ")[0] for leak in total.leaks)
    rows.extend(f"  leak at {where}: {n}" for where, n in kinds.most_common(10))
    rows.extend(f"  {leak}" for leak in total.leaks[:10])
    return "\n".join(rows)
