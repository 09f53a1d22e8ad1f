"""No leak: over many hands with bots, no message to a seat or a spectator holds a card it may not know.

A card may reach seat S in a message at seq K only if it is public by K (a spectator, connected from the
first event, has been shown it at or before K) or if it is S's own (it has been in S's hand list by K, and S's
hand only ever holds cards dealt to S, cards from the widow or stock, or public ones: checked against the
evening's full record). No event shows another seat's lead, widow choice, bid or draw as forced (that would tell
what the seat holds), and a spectator has no hand.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from server_helpers import Client, Server, play

CARD = re.compile(r"^[2-9TJQKA][shdc]$")
# Whether these were forced can depend on the mover's hidden cards (its only card to lead, a widow choice or a
# bid it had to make, a draw from the stock it could not avoid); a follow in the run is forced for everyone alike.
HIDDEN_FORCED = ("lead", "swap", "keep", "bid", "pass", "draw")


def cards_in(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD.match(item):
            found.add(item)
    return found


def hand_of(message: dict[str, Any]) -> tuple[int, list[str]]:
    view = message.get("view") or {}
    hand = view.get("hand") or {}
    return int(view.get("hand_no") or 0), list(hand.get("hand") or [])


def public_times(watcher: Client) -> dict[tuple[int, str], int]:
    """(hand number, card) -> the first seq at which a spectator was shown it."""
    first: dict[tuple[int, str], int] = {}
    for message in watcher.messages:
        if message["type"] not in ("welcome", "update"):
            continue
        for event in message["events"]:
            for card in cards_in(event):
                first.setdefault((int(event.get("hand_no") or 0), card), event["seq"])
        hand_no = hand_of(message)[0]
        for card in cards_in(message["view"]):
            first.setdefault((hand_no, card), message["seq"])
        assert not hand_of(message)[1], "a spectator has no hand"
    return first


def check_seat(client: Client, public: dict[tuple[int, str], int], record: dict[str, Any]) -> int:
    """Check every message of one seat; the number of cards checked."""
    own: dict[int, set[str]] = {}
    checked = 0
    for message in client.messages:
        if message["type"] not in ("welcome", "update"):
            continue
        hand_no, hand = hand_of(message)
        own.setdefault(hand_no, set()).update(hand)
        seq = message["seq"]
        seats = message["view"].get("hand_seats", [])
        mine = seats.index(client.seat) if client.seat in seats else None
        for event in message["events"]:
            if event.get("forced") and event.get("action") in HIDDEN_FORCED:
                assert event.get("seat") == mine, f"another seat's forced flag: {event}"
        for hand_no_of, part in [(hand_no, message["view"])] + [
                (int(e.get("hand_no") or 0), e) for e in message["events"]]:
            for card in cards_in(part):
                checked += 1
                if card in own.get(hand_no_of, set()):
                    continue
                shown = public.get((hand_no_of, card))
                assert shown is not None and shown <= seq, (
                    f"seat {client.seat} was sent {card} of hand {hand_no_of} at seq {seq}, public at {shown}")
    # What a seat held is its own deal, the widow or stock, or public cards: never another seat's hidden hand.
    for hand_no, cards in own.items():
        if not hand_no or hand_no > len(record["hands"]):
            continue
        deal = record["hands"][hand_no - 1]["deal"]
        players = record["hands"][hand_no - 1]["players"]
        if record["players"][client.seat] not in players:  # out of the evening (could not ante): held nothing
            assert not cards, f"seat {client.seat} held {cards} of a hand it was not dealt into"
            continue
        hand_seat = players.index(record["players"][client.seat])
        allowed = set(deal["hands"][hand_seat]) | set(deal.get("widow", [])) | set(deal.get("stock", []))
        for card in cards - allowed:
            assert (hand_no, card) in public, f"seat {client.seat} held {card} of another seat's deal"
    return checked


def test_no_message_holds_a_card_its_receiver_may_not_know(tmp_path: Path) -> None:
    # The scripted people answer far faster than people do: this server lets them.
    server = Server(tmp_path, RUMMOLI_RATE="1000", RUMMOLI_BURST="1000").start()
    try:
        checked = play_evenings(server)
    finally:
        server.stop()
    assert checked > 1000


def play_evenings(server: Server) -> int:
    checked = 0
    for k, (ruleset, bots) in enumerate([("rummoli", ["easy", "random"]), ("tripoley", ["random", "easy"]),
                                         ("michigan", ["random"]), ("rummy", ["random"])]):
        created = server.create(ruleset=ruleset, seats=[{}, {}] + [{"bot": b} for b in bots], seed=f"leak-{k}",
                                hands=3 if ruleset != "rummy" else 1, chips=40)
        table = created["id"]
        watcher = server.client(table, since=0)
        bob = server.post(f"/api/tables/{table}/seats", {"name": "Bob"}).json()
        people = [server.client(table, created["token"], since=0), server.client(table, bob["token"], since=0)]
        rng = random.Random(k)
        play(people, rng, until=lambda p=people: all(c.view.get("over") for c in p), timeout=120,
             eager=ruleset == "rummy")
        watcher.until(lambda m: m["type"] == "update" and m["view"]["over"], timeout=30) \
            if not watcher.view.get("over") else None
        record = server.get(f"/api/tables/{table}/record", token=created["token"]).json()
        public = public_times(watcher)
        for client, token in zip(people, [created["token"], bob["token"]], strict=True):
            checked += check_seat(client, public, record)
            history = server.get(f"/api/tables/{table}/history", token=token).json()
            checked += check_history(client, history, public, record)
            client.close()
        watcher.close()
    return checked


def check_history(client: Client, history: dict[str, Any], public: dict[tuple[int, str], int],
                  record: dict[str, Any]) -> int:
    """A seat's downloaded history: each hand's events are exactly those its live stream sent, and each
    hand's final view holds no card that seat could not know by the hand's end."""
    assert history["format"] == "rummoli-seat-history/3" and history["seat"] == client.seat
    assert [h["hand_no"] for h in history["hands"]] == list(range(1, len(record["hands"]) + 1))
    as_messages: list[dict[str, Any]] = []
    for hand in history["hands"]:
        live = [e for e in client.events if e.get("hand_no") == hand["hand_no"]]
        assert hand["events"] == live, f"hand {hand['hand_no']}: the history's events differ from the live ones"
        assert hand["players"] == record["hands"][hand["hand_no"] - 1]["players"]
        # The history read as the messages it could have been: the hand's events, then its final view.
        view = {"hand_no": hand["hand_no"], "hand_seats": hand["hand_seats"], "hand": hand["view"]}
        as_messages.append({"type": "update", "seq": hand["last_seq"], "events": hand["events"], "view": view})
    assert history["evening"] == [e for e in client.events if not e.get("hand_no")]
    # Checked as if sent after the live stream (what the seat was shown live is what it may know).
    reader = Client.__new__(Client)
    reader.seat, reader.messages = client.seat, [*client.messages, *as_messages]
    return check_seat(reader, public, record)
