"""An evening at one table, for every game: seats (people and bots), the hand loop, events, snapshots.

The terminal table, the lab and the game server run their evenings through :class:`Table`: knowing nothing of
screens or sockets, it deals, takes a seat's action, lets a bot decide, numbers every event, and can be stored.

Seats are the evening's: 0..n-1 in the order given.  A stops hand may seat fewer (a player who could not
ante has left), so each hand has its own seat numbers; ``hand_seats`` maps them back, and every hand-level
view or event keeps the hand's numbering (it is what the engine's legal actions carry).

Everything the table does is kept in a **journal** of plain JSON commands (deal this deck, this seat did this, a bot
took a seat over, the evening was ended): run again, it rebuilds the same evening (:meth:`Table.restore`, what a
server stores). A snapshot adds what the journal cannot rebuild: each bot's random generator and memory.

>>> t = Table("michigan", [Seat("Ann"), Seat("Bob", bot="easy"), Seat("Cy", bot="random")], seed="doc", hands=1)
>>> t.game, t.hand_no, t.seq > 0
('stops', 1, True)
>>> while not t.hand_over:
...     if t.to_act() == [0]:
...         _ = t.act(0, t.view(0)["hand"]["legal_actions"][0])
...     else:
...         _ = t.step()
>>> t.over, [row["name"] for row in t.standings()] == sorted(t.names, key=lambda n: -t.chips()[t.names.index(n)])
(True, True)
>>> again = Table.restore(t.snapshot())
>>> again.view(0) == t.view(0)
True
"""

from __future__ import annotations

import bisect
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, cast

from rummoli.bots.base import LEVELS, Bot, make_bot
from rummoli.bots.driver import bot_decision, show_hand_over, view_for
from rummoli.cards import Card, shuffled_deck
from rummoli.errors import IllegalAction, MalformedInput, RummoliError, StaleAction, quote
from rummoli.evening import Ledger, amount, bonuses_of, in_evening_seats
from rummoli.games import family_of
from rummoli.games.family import Hand
from rummoli.seating import check_seats
from rummoli.shapes import Event, HandResult, HandView, TableView
from rummoli.shelf import Blocks, Ended, HandEnd, HandShelf, Journal
from rummoli.shuffling import derived_number
from rummoli.snapshot import SNAPSHOT_FORMAT, evening_record_of, first_deal_of, restore_start, snapshot_of
from rummoli.streams import check_whole
from rummoli.wording import departures, first_dealer, names_listed, said, sentence


@dataclass(frozen=True)
class Seat:
    """One chair at the table: a display name, and a bot level (``None``: a person sits there)."""

    name: str
    bot: str | None = None
    seed: int | str | None = None  # the bot's own seed; by default derived from the table's


class RecordStore(Protocol):
    """Where finished hands go (files for the terminal table, a database for the server)."""

    def save(self, hand_no: int, record: dict[str, Any]) -> None: ...


DeckSource = Callable[[int], Sequence[Card]]


class Table:
    """An evening of any built-in or custom ruleset (see the module's docstring)."""

    def __init__(
        self,
        ruleset: str | dict[str, Any],
        seats: Sequence[Seat],
        *,
        chips: int | None = None,
        hands: int | None = None,
        seed: str | None = None,
        samples: int | None = None,
        budget: float | None = None,
        auto: bool = True,
        ask_forced: bool = False,
        dealer: int | None = None,
        decks: DeckSource | None = None,
        store: RecordStore | None = None,
        deal: bool = True,
        settle: bool = True,
        fast: bool = False,
    ) -> None:
        if not isinstance(ruleset, str | dict):
            raise MalformedInput("a ruleset is a built-in name or an inline table")
        check_seats(seats, LEVELS)  # names that read alike included: each seat is told apart by its name
        if chips is not None:
            check_whole(chips, "starting chips")
        if hands is not None and check_whole(hands, "the evening's length in hands") < 1:
            raise MalformedInput("an evening lasts at least 1 hand")
        self.family = family_of(ruleset)
        self.game = self.family.name
        self.reference = ruleset
        self.seats = list(seats)
        self.names = [s.name for s in seats]
        self.seed = seed
        self.samples = samples
        self.budget = budget
        self.auto = auto
        # With auto=False: a person's forced lead, pass or keep is asked of them as a choice (a server: the other
        # seats must not learn from the table making it that it was forced); a play in a run is made still.
        self.ask_forced = ask_forced
        self.settles = settle  # share the board out at the evening's end (R-SESSION-2); the lab measures hands
        self.fast = fast  # bots decide from cheaper copies of their views (the lab's hot path: bots.driver)
        self.hands_limit = hands
        self.start_chips = chips
        self.store = store
        self._decks = decks
        if dealer is not None and not 0 <= check_whole(dealer, "dealer") < len(seats):
            raise MalformedInput(f"dealer must be a seat from 0 to {len(seats) - 1}")
        cut = None if seed is None else f"{seed}-cut"
        self.evening = self.family.evening(ruleset, self.names, chips, hands, dealer, cut)
        self.first_dealer = self.evening.dealer
        self.starting, self.dealer_by, self.cut = first_deal_of(self.evening, dealer is not None)  # for the record
        self.rules = self.evening.rules
        self.bots: list[Bot | None] = [self._new_bot(i, s.bot, s.seed) for i, s in enumerate(seats)]
        self.settlement: list[dict[str, Any]] = []
        self.ledger = Ledger()  # hands and the evening's own moves between them, in order
        self._ledger_seen = 0
        self.hand: Hand | None = None
        self.hand_seats: list[int] = []
        self._hands = HandShelf(packs=not fast)  # every hand of the evening, the finished ones on file
        self.journal = Journal(self._hands)  # every command of the evening; a finished hand's on file with it
        #: Each finished hand's record and its result (in evening seats), read from the shelf as lists are read.
        self.records: Sequence[dict[str, Any]] = Ended(self._hands, "record")
        self.results: Sequence[HandResult] = Ended(self._hands, "result")
        # What numbers the events (Blocks): a table event mid-hand (a bot taking a seat over) splits the hand in two.
        self._blocks = Blocks()
        self._closed, self.ending, self.closing = False, False, ""  # ending: end() stopped it early; see _close
        self.replaying = False  # while the journal is run again (a restore): finished hands are not stored again
        self.settle_decks: list[list[Card]] = []  # a restore settles with the decks the journal names
        if deal:
            self.next_hand()

    # ---------------------------------------------------------------------------------- bots
    def _new_bot(self, seat: int, level: str | None, seed: int | str | None = None) -> Bot | None:
        if level is None:
            return None
        if seed is None:
            seed = f"{self.seed}-bot{seat}" if self.seed is not None else secrets.randbits(64)
        return make_bot(self.game, level, seed, budget=self.budget, samples=self.samples)

    def set_bot(self, seat: int, level: str | None) -> None:
        """A bot takes ``seat`` over (a player who is away), or hands it back to its person (``None``)."""
        seat = self._seat(seat)
        if level is not None and level not in LEVELS:
            raise MalformedInput(f"unknown bot level {quote(level)}")
        if self.level(seat) == level:
            return
        seed: int | str = secrets.randbits(64) if self.seed is None else f"{self.seed}-bot{seat}-{len(self.journal)}"
        self.seat_bot(seat, level, seed)

    def seat_bot(self, seat: int, level: str | None, seed: int | str) -> None:
        """A bot with its own ``seed`` takes ``seat`` (``None``: its person again), as the journal says."""
        self.journal.append(["bot", seat, level, seed])
        self.bots[seat] = self._new_bot(seat, level, seed)
        name = self.names[seat]
        text = f"A computer player ({level}) plays for {name}." if level else f"{name} is back at the table."
        self._public({"type": "seat", "seat": seat, "bot": level, "text": text})

    def level(self, seat: int) -> str | None:
        """The level of the bot playing ``seat``, or ``None`` when a person plays it."""
        bot = self.bots[seat]
        return None if bot is None else bot.level

    def bot_due(self) -> int | None:
        """The evening seat of the bot whose decision the hand waits for, if any."""
        if self.hand is None or self.hand_over or self.forced_due():
            return None
        for seat in self.to_act():
            if self.bots[seat] is not None:
                return seat
        return None

    def forced_due(self) -> bool:
        """With ``auto=False``: whether a forced action waits to be made by :meth:`step`."""
        if self.auto or self.hand is None or self.hand_over or not self.family.steps_forced:
            return False
        forced = self.hand.forced_action()
        if forced is None:
            return False
        return not (self.ask_forced and self.bots[self.hand_seats[forced.seat]] is None
                    and not self.hand.forced_shown())

    def forced_hidden(self) -> bool:
        """Whether the forced action waiting (:meth:`forced_due`) is one that other seats are not told was forced
        (a lead, a pass, a keep: R-VIEW-1), so that it must reach them as a chosen one would."""
        return self.forced_due() and not self.in_play().forced_shown()

    def bot_view(self, seat: int) -> dict[str, Any]:
        """The engine view a bot at evening ``seat`` decides from (plain JSON data)."""
        return view_for(self.in_play(), self.hand_seats.index(self._seat(seat)))

    def play_bot(self) -> None:
        """Let the due bot decide here and now, and apply its choice (nothing when no bot is due)."""
        seat = self.bot_due()
        if seat is None:
            return
        bot = self.bots[seat]
        assert bot is not None
        self.play(seat, bot_decision(self.hand, self.hand_seats.index(seat), bot, self.fast))

    def apply_bot_choice(self, seat: int, choice: dict[str, Any], bot: Bot | None = None) -> None:
        """Apply a choice a bot made elsewhere (a worker process); ``bot`` is that bot as it came back,
        memory and generator included, and replaces the seat's."""
        seat = self._seat(seat)
        if self.bot_due() != seat:
            raise IllegalAction("R-TURN", f"no bot decision of seat {seat} is due")
        self.play(seat, choice)
        if bot is not None:
            self.bots[seat] = bot

    def step(self) -> bool:
        """Make one move that no person makes: a forced action (``auto=False``) or a bot's decision."""
        if self.forced_due():
            self.journal.append(["forced"])
            self.in_play().step_forced()
            self._after_move()
            return True
        if self.bot_due() is None:
            return False
        self.play_bot()
        return True

    # ---------------------------------------------------------------------------------- people
    def in_play(self) -> Hand:
        """The hand being played (or just finished); MalformedInput before the first deal."""
        if self.hand is None:
            raise MalformedInput("no hand has been dealt yet")
        return self.hand

    def _seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise MalformedInput(f"no seat {quote(seat)} at this table (seats 0 to {len(self.seats) - 1})")
        return seat

    def act(self, seat: int, action: object, seq: int | None = None, *, timed_out: bool = False) -> None:
        """A person's action for evening ``seat`` (an R-NOTE-3 object).  With ``seq``, the action is
        refused as stale unless the table is still where the sender saw it.  Nothing changes on error.
        What each seat learns of it, it reads with :meth:`events_since`.

        ``timed_out``: the turn timer made this choice for the seat (a safe default); a public ``timeout``
        event says so just before the action, so every seat's log marks it."""
        seat = self._seat(seat)
        if seq is not None and check_whole(seq, "seq") != self.seq:
            raise StaleAction(seq, self.seq)
        if not isinstance(action, dict):
            raise MalformedInput("an action is a JSON object")
        if self.bots[seat] is not None:
            raise IllegalAction("R-TURN", f"seat {seat} is being played by a bot")
        if self.hand is None or self.hand_over:
            raise IllegalAction("R-END-1", "no hand is in play")
        if seat not in self.hand_seats:
            raise IllegalAction("R-ANTE-1", f"seat {seat} is not in this hand")
        if self.forced_due():
            raise IllegalAction("R-PLAY-3", "a forced play is being made")
        if timed_out:
            self.hand.verify(self._parse(seat, action))  # refused before the timeout is told: nothing changes
            self.timeout(seat)
        self.play(seat, action)

    def timeout(self, seat: int) -> None:
        """Tell every seat that the turn timer makes ``seat``'s next choice (journalled)."""
        self.journal.append(["timeout", seat])
        text = sentence(said(self.names[seat], "runs out of time: the safe choice is made for them"))
        self._public({"type": "timeout", "seat": seat, "text": text})

    def _parse(self, seat: int, action: dict[str, Any]) -> Any:
        hand_seat = self.hand_seats.index(seat)
        given = action.get("seat", hand_seat)
        if given != hand_seat or isinstance(given, bool):
            raise MalformedInput(f"an action is for your own seat ({hand_seat} in this hand), not {quote(given)}")
        return self.family.read_action({**action, "seat": hand_seat})

    def play(self, seat: int, action: dict[str, Any]) -> None:
        """A decision for evening ``seat``, journalled, without a person's checks (a bot's, or the journal's)."""
        parsed = self._parse(seat, action)
        self.in_play().make(parsed)
        self.journal.append(["act", seat, parsed.to_json()])
        self._after_move()

    def _after_move(self) -> None:
        if self.in_play().over and not self._hands.finished(len(self._hands) - 1):
            self._finish_hand()

    # ---------------------------------------------------------------------------------- hands
    @property
    def hand_over(self) -> bool:
        """Whether the hand in play (if any) is over: then :meth:`next_hand` may deal the next."""
        return self.hand is None or bool(self.hand.over)

    @property
    def hand_no(self) -> int:
        return len(self._hands)

    def finished_hands(self, first: int = 1, last: int | None = None) -> Iterator[tuple[int, Any, list[int]]]:
        """``(hand_no, engine hand, evening seats of its hand seats)`` of each ended hand from ``first`` to ``last``.
        A finished hand no longer changes: its view now is the one its seats were shown when it ended."""
        return self._hands.finished_hands(first, last)

    def finished_count(self) -> int:
        return self._hands.finished_count()

    @property
    def over(self) -> bool:
        """The evening is over: no further hand will be dealt."""
        return self.hand_over and (self._closed or self.evening.over)

    def _deck(self, number: int) -> list[Card]:
        if self._decks is not None:
            return list(self._decks(number))
        return shuffled_deck(None if self.seed is None else f"{self.seed}-hand{number}")

    def next_hand(self, deck: Sequence[Card] | None = None, chance: int | None = None) -> None:
        """Deal the next hand (from ``deck``, else the table's shuffle).  Only between hands.

        ``chance`` seeds whatever else the hand leaves to chance after the deal (a Rummy stock shuffled when it
        runs out, R-RU-SHUFFLE); by default the table's seed or the secure source. Journalled with the deck.
        The hand before is packed away (rummoli.shelf): a long evening stays small."""
        if not self.hand_over:
            raise IllegalAction("R-END-1", "the hand in play is not over")
        if self.over:
            raise IllegalAction("R-SESSION-1", "the evening is over")
        self._hands.pack_finished()
        self.journal.seal()
        number = self.hand_no + 1
        cards = list(deck) if deck is not None else self._deck(number)
        if chance is None:
            chance = secrets.randbits(64) if self.seed is None else derived_number(f"{self.seed}-chance{number}")
        hand, seats = self.evening.start(cards, self.auto, check_whole(chance, "chance"))
        self._note_ledger()
        # who could not ante is told with the deal, not left to vanish; the first, how its dealer was chosen (R-MI-1)
        gone = departures(self.ledger) if number > 1 else f" {first_dealer(self.dealer_by, self.cut)}".rstrip()
        self.journal.append(["deal", [str(c) for c in cards], chance])
        self.hand, self.hand_seats = hand, seats
        readers = [self.bots[s] for s in seats]
        if self.fast and all(bot is not None and not bot.reads_words for bot in readers):
            hand.hush()  # nobody at this hand reads the events' words
        start = {"type": "hand_start", "hand_no": self.hand_no + 1, "hand_seats": list(seats),
                 "dealer": seats[hand.dealer],
                 "text": f"Hand {self.hand_no + 1}: {said(self.names[seats[hand.dealer]], 'deals')}.{gone}"}
        self._public(start, kept=("start", len(self._hands)))
        self._hands.add(hand, seats, start)
        self._blocks.append((self.seq, "hand", (len(self._hands) - 1, 0)))
        self._after_move()  # a hand can end before anyone decides (every stop forced)

    def _finish_hand(self) -> None:
        index = len(self._hands) - 1
        self._hands.finish(index)
        hand = self.in_play()
        show_hand_over(hand, [self.bots[s] for s in self.hand_seats], self.fast)
        result = in_evening_seats(hand.result(), self.hand_seats)
        result["hand_no"] = self.hand_no
        record = self.evening.finish(hand)
        self.ledger.append({"type": "hand", "hand_no": self.hand_no})
        self._note_ledger()
        if self.store is not None and not self.replaying:
            self.store.save(self.hand_no, record)
        event = {"type": "hand_over", "hand_no": self.hand_no, "chips": self.chips(), "standings": self.standings(),
                 "result": result, "text": f"Hand {self.hand_no} is over. {result['headline']}"}
        self._hands.keep_end(index, HandEnd(record, result, event))
        self._public(event, kept=("end", index))
        if self.evening.over:
            self._close()

    def _note_ledger(self) -> None:
        self.ledger += self.evening.ledger_since(self._ledger_seen)
        self._ledger_seen = self.evening.ledger_length

    def end(self) -> None:
        """The table agrees to stop: no new hand; the hand in play, if any, is played to its end first."""
        if not self._closed:
            self.journal.append(["end"])
            self.ending = True
            self.evening.end()
            if self.hand_over:
                self._close()
            else:  # every seat is told now, not at the hand's end (a table event moves the seq: clients are sent it)
                self._public({"type": "ending", "text": "The evening ends with this hand: no other is dealt."})

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.family.has_board and self.evening.over and self.settles:
            decks = self.settle_decks or [self._deck(-k) for k in range(1, len(self.evening.pots(None)) + 2)]
            self.journal.append(["settle", [[str(c) for c in d] for d in decks]])
            self.settlement = self.evening.settle(decks)
        standings = self.standings()
        best = [row["name"] for row in standings if row["winner"]]
        won = said(names_listed(best), "wins" if len(best) == 1 else "share the win")  # "You win" for the player
        self.closing = text = f"The evening is over: {won} with {standings[0]['chips']} {self.family.unit}."
        self._public({"type": "evening_over", "standings": standings, "settlement": self.settlement,
                      "bonuses": self.bonuses(), "text": text})

    # ---------------------------------------------------------------------------------- reading
    def to_act(self) -> list[int]:
        """The evening seats the table waits for now (``[]`` between hands)."""
        if self.hand_over:
            return []
        return [self.hand_seats[s] for s in self.in_play().to_act()]

    def chips(self) -> list[int | str]:
        """Every seat's stack (stops) or score (Rummy) now."""
        live = None if self.hand_over else self.hand
        return [amount(v) for v in self.evening.chips(live, self.hand_seats)]

    def standings(self) -> list[dict[str, Any]]:
        """Places from the best down (equal totals share a place): place, seat, name, chips, winner."""
        rows = self.evening.standings()
        if not self.hand_over:  # rank by the stacks as they stand in the hand
            live = self.evening.chips(self.hand, self.hand_seats)
            order = sorted(range(len(self.seats)), key=lambda s: -live[s])
            best = live[order[0]]
            rows = []
            for k, s in enumerate(order):
                place = rows[-1]["place"] if rows and live[s] == live[order[k - 1]] else k + 1
                rows.append({"place": place, "seat": s, "name": self.names[s], "chips": amount(live[s]),
                             "seated": self.evening.seated()[s], "winner": live[s] == best})
        return [{**r, "chips": amount(r["chips"]) if isinstance(r["chips"], int | Fraction) else r["chips"]}
                for r in rows]

    def view(self, seat: int | None, shared: bool = False, hand: bool = True) -> TableView:
        """What ``seat`` may know (``None``: spectator), as JSON (``shared``: :meth:`hand_view`; ``hand``: or None)."""
        if seat is not None:
            seat = self._seat(seat)
        hand_view, seated, chips = self.hand_view(seat, shared) if hand else None, self.evening.seated(), self.chips()
        return {
            "seq": self.seq,
            "game": self.game,
            "ruleset": self.reference,
            "title": getattr(self.rules, "title", self.rules.name),
            "you": seat,
            "seats": [{"seat": i, "name": s.name, "bot": self.level(i),
                       "chips": chips[i], "seated": seated[i]} for i, s in enumerate(self.seats)],
            "hand_no": self.hand_no,
            "hands": self.hands_limit,
            "dealer": self.hand_seats[self.hand.dealer] if self.hand is not None else self.evening.dealer,
            "hand_seats": list(self.hand_seats),
            "hand": hand_view,
            "to_act": self.to_act(),
            "hand_over": self.hand_over,
            "over": self.over,
            "standings": self.standings(),
            "result": self.results[-1] if self.hand_over and self.results else None,
            "settlement": self.settlement,
            "board": self.evening.pots(self.hand),  # now: after the settlement, empty (docs/views.md)
            "bonuses": self.bonuses() if self.over else [], "end_note": self.evening.end_note(), "ending": self.ending,
        }

    def hand_view(self, seat: int | None, shared: bool = False) -> HandView | None:
        """The hand in play as evening ``seat`` (``None``: a spectator) is shown it at the table, with what a person
        is told beside it (prompt, best five, melds); ``shared``: as the engines' ``view`` (read only)."""
        if self.hand is None:
            return None
        hand_seat = self.hand_seats.index(seat) if seat is not None and seat in self.hand_seats else None
        view = self.hand.view(hand_seat, guide=True, shared=shared)
        # A forced play waits for the table's pace (auto=False): its seat is told it is coming, not asked. Whose it is
        # is asked first (once; forced_due asks again), as every seat's view of every state asks it.
        if hand_seat is not None and not self.auto:
            forced = self.hand.forced_action()
            if forced is not None and forced.seat == hand_seat and self.forced_due():
                view["forced"] = forced.to_json()
                view["legal_actions"] = []
                view["prompt"] = "Your only choice is made for you."
        return view

    def bonuses(self) -> list[dict[str, Any]]:
        """Points the evening adds at its end, beyond its hands (Gin's game and box bonuses, R-GIN-7)."""
        return bonuses_of(self.ledger, self.names)

    # ---------------------------------------------------------------------------------- events
    @property
    def seq(self) -> int:
        """The number of the last event (table events and every hand's events, in one numbering)."""
        if (last := self._blocks.last) is None:
            return 0
        base, kind, payload = last
        if kind == "hand":
            index, start = payload
            return base + int(self._hands.hand(index).seq) - int(start)
        return base + 1

    def _public(self, event: dict[str, Any], kept: tuple[str, int] | None = None) -> None:
        """Number a table event. A hand's start and end events are ``kept`` with the hand, on the shelf
        (``("start" or "end", hand index)``): their blocks name the hand."""
        seq = self.seq
        self._blocks.append((seq, "event", event) if kept is None else (seq, *kept))
        if self.hand is not None and self._hands.is_last(self.hand) and not self.hand_over:
            # The hand goes on after this event: its next events are numbered after it.
            self._blocks.append((seq + 1, "hand", (len(self._hands) - 1, self.hand.seq)))

    def hand_start(self, hand_no: int) -> int:
        """The evening ``seq`` just before hand ``hand_no``'s first event, its ``hand_start`` (:attr:`seq` for a
        hand not dealt)."""
        for k, (base, kind, payload) in enumerate(self._blocks):
            if kind == "hand" and payload[0] == hand_no - 1:
                before = self._blocks[k - 1] if k else None
                if before is not None and before[1] == "start" and before[2] == hand_no - 1:
                    return int(before[0])
                return int(base)
        return int(self.seq)

    def events_since(self, seq: int, seat: int | None, until: int | None = None) -> list[Event]:
        """Events ``seq + 1`` to :attr:`seq` (or to ``until``) as evening ``seat`` may learn them (``None``: a
        spectator), each carrying its ``seq``; a hand's events keep the hand's seat numbers and name the
        ``hand_no``."""
        seq = check_whole(seq, "seq")
        if seat is not None:
            seat = self._seat(seat)
        out: list[Event] = []
        # Blocks are contiguous and in order: only the one holding seq + 1 and those after it have news.
        first = max(0, bisect.bisect_right(self._blocks.bases, seq) - 1)
        blocks = self._blocks[first:]
        ends: dict[int, int] = {}  # block -> the hand seq where it ends (where the hand's next block starts)
        last: dict[int, int] = {}
        for k, (_base, kind, payload) in enumerate(blocks):
            if kind == "hand":
                if payload[0] in last:
                    ends[last[payload[0]]] = payload[1]
                last[payload[0]] = k
        for k, (base, kind, payload) in enumerate(blocks):
            if until is not None and base >= until:
                break
            if kind != "hand":
                if base + 1 > seq:  # a table event (hand_start, hand_over, ...)
                    event = (payload if kind == "event" else self._hands.start(payload) if kind == "start"
                             else self._hands.end(payload).event)
                    out.append(cast(Event, {**event, "seq": base + 1}))
                continue
            index, start = payload
            hand = self._hands.hand(index)
            end = ends.get(k, hand.seq)
            if until is not None:
                end = min(end, until - base + start)
            if base + end - start <= seq:
                continue
            seats = self._hands.seats(index)
            hand_seat = seats.index(seat) if seat is not None and seat in seats else None
            for event in hand.events_since(max(start, seq - base + start), hand_seat):
                if event["seq"] > end:
                    break
                event["seq"] += base - start  # the hand gives copies: renumber them in place
                event["hand_no"] = index + 1
                out.append(event)
        return out

    # ---------------------------------------------------------------------------------- keeping
    def snapshot(self) -> dict[str, Any]:
        """Everything needed to bring this evening back exactly (server side only: it holds the decks)."""
        return snapshot_of(self)

    @classmethod
    def restore(cls, data: dict[str, Any], *, decks: DeckSource | None = None,
                store: RecordStore | None = None) -> Table:
        """The evening a :meth:`snapshot` describes: same views, legal actions and future results.  The
        engines check every step of the journal again, so a tampered snapshot is refused in one line."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise MalformedInput(f"not a table snapshot (format {SNAPSHOT_FORMAT!r})")
        try:
            seats = [Seat(str(s["name"]), s["bot"], s["seed"]) for s in data["seats"]]
            table = cls(data["ruleset"], seats, chips=data["chips"], hands=data["hands"], seed=data["seed"],
                        samples=data["samples"], budget=data["budget"], auto=bool(data["auto"]),
                        ask_forced=bool(data.get("ask_forced", False)),
                        dealer=data["dealer"], decks=decks, store=store, deal=False, settle=data.get("settle", True))
            restore_start(table, data)  # how the first dealer was chosen, and the journal run again
            for bot, state in zip(table.bots, data["bots"], strict=True):
                if bot is not None and state is not None:
                    bot.load_state(state)
        except RummoliError as error:
            raise MalformedInput(f"snapshot does not replay: {error}") from None
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise MalformedInput(f"snapshot is malformed: {type(error).__name__} {str(error)[:80]}") from None
        return table

    def evening_record(self) -> dict[str, Any]:
        """The ``rummoli-evening/1`` record: every finished hand's record and the evening's ledger."""
        return evening_record_of(self)

    def __repr__(self) -> str:
        return f"<Table {self.game} {len(self.seats)} seats, hand {self.hand_no}, seq {self.seq}>"

