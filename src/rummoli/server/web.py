"""What the browser table needs from the server besides the game protocol: its static files, the
rulesets described in words, the rules texts, and replays of finished hands as a seat saw them.

The page itself lives in ``rummoli/web/`` (package data, no build step). Its addresses (``/``,
``/tables/{id}`` — the invite link —, ``/tables/{id}/hands/{n}``, ``/replay``, ``/rules/{name}``) all
answer the same ``index.html``; the page's own module reads the address and draws the right screen.

A replay is a list of frames, each the viewing seat's own view after one more step of the hand (a forced
play is a step of its own, so a run can be followed card by card) and the events that step added, as
that seat may see them, with their sentences; and the hand's ``result`` (in the hand's own seats), once
the record plays to its end. A player of a table replays its finished hands as their seat saw them; a
spectator as a spectator; an uploaded record (which holds every card already) from the seat asked for.

>>> [r["name"] for r in ruleset_catalogue()][:2]
['rummoli', 'rummoli-tripoley']
>>> describe("michigan")["players"]
[3, 8]
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Header
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from rummoli.errors import IllegalAction, MalformedInput
from rummoli.games import game_of
from rummoli.records import RecordError, check_envelope

#: The view keys that hold the whole public history: a replay frame carries only the step's new events.
HISTORY_KEYS = ("events", "actions", "history")
MAX_FRAMES = 2000

BUILTIN_ORDER = (
    "rummoli", "rummoli-tripoley", "tripoley", "michigan",
    "rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy",
)


def web_dir() -> Path:
    """The folder of the page's static files (inside the installed package)."""
    return Path(str(resources.files("rummoli") / "web"))


# ============================================================================================ rulesets
STOPS_WORDS: dict[str, dict[str, str]] = {
    "widow": {
        "swap_or_auction": "The dealer may swap their hand unseen for the widow; if they keep it, the widow is "
                           "auctioned: the highest bidder pays the dealer and swaps their whole hand for it.",
        "none": "There is no widow to trade.",
    },
    "poker": {
        "before_play": "Before the play, one round of poker betting (check, bet, call, raise, fold) for the "
                       "Poker pot; the best five cards win it.",
        "after_play": "No betting: after the play the best poker hand as dealt takes the Poker pot.",
        "none": "No poker round.",
    },
    "opening_lead": {
        "poker_winner": "The poker round's winner leads first.",
        "left_of_dealer": "The player left of the dealer leads first.",
        "two_of_clubs": "The holder of the two of clubs leads it.",
    },
    "lead": {
        "lowest_overall": "A lead is your lowest card in any suit.",
        "lowest_in_chosen_suit": "A lead is the lowest card of a suit you choose.",
    },
    "restart": {
        "opposite_colour": "After a stop, whoever laid the last card leads their lowest card of the other colour.",
        "other_suit": "After a stop, whoever laid the last card leads their lowest card of another suit.",
        "other_suit_else_same": "After a stop, whoever laid the last card leads the lowest card of another suit, "
                                "or of the same suit if they hold no other.",
    },
    "cannot_lead": {
        "pass_left": "Who cannot lead passes the lead to the left.",
        "pay_and_pass": "Who cannot lead pays one chip into the centre and passes the lead to the left.",
    },
    "claim": {
        "automatic": "Pay cards are paid as soon as they are laid.",
        "announce": "A pay card must be claimed before the next card is laid, or its chips stay.",
    },
    "settle": {
        "poker_showdown": "At the end of the evening one poker showdown takes every chip left on the board.",
        "pot_by_pot": "At the end of the evening each pot left on the board goes to its own poker showdown.",
        "share_equally": "At the end of the evening the chips left on the board are shared equally.",
    },
    "pay": {
        "on_play": "A pay card wins its pot when it is laid.",
        "on_hold": "Holding a pay card in your dealt hand wins its pot at once.",
    },
    "widow_bar": {"none": "", "pay_card_holders": "A player holding a pay card may not take the widow."},
    "dealer_ante": {"same": "", "double": "The dealer antes twice."},
    "leftover": {"pay": "The first out is paid one chip for every card left in the others' hands.",
                 "none": "Cards left in hand cost nothing."},
}


def _stops_words(rules: Any) -> list[str]:
    lines = [f"Board: {rules.board.title}: "
             + ", ".join(f"{p.name} (ante {p.ante})" for p in rules.board.pots) + "."]
    for option, words in STOPS_WORDS.items():
        text = words.get(str(getattr(rules, option)), "")
        if option == "poker" and rules.poker == "before_play":
            text += f" At most {rules.max_bet} chips a bet, {rules.max_raises} raises a round."
        if text:
            lines.append(text)
    return lines


def _rummy_words(rules: Any) -> list[str]:
    style = {"straight": "Straight Rummy: draw, meld sets and runs, lay off, discard; first out scores the "
                         "cards left in the other hands.",
             "500": "500 Rum: take any discard with everything above it; melds score for their maker.",
             "knock": "Knock Rummy: no melding in play; knock to end the hand, lowest deadwood collects.",
             "gin": "Gin Rummy: knock with 10 or less deadwood; gin and undercut bonuses."}
    lines = [style.get(str(rules.style), f"Style: {rules.style}.")]
    lines.append({"low": "Aces are low (A-2-3 is a run).",
                  "high": f"Aces are high (Q-K-A is a run) and count {rules.ace_value}.",
                  "around": f"Runs may go round the corner (K-A-2); aces count {rules.ace_value}."}
                 .get(str(rules.aces), f"Aces: {rules.aces}."))
    lines.append({"flip_once": "When the stock runs out the discards are turned over once.",
                  "block": "When the stock runs out the hand is blocked: the lowest hand collects the differences.",
                  "shuffle_once": "When the stock runs out the discards are shuffled into a new stock once."}
                 .get(str(rules.stock_end), ""))
    if rules.boathouse:
        lines.append("Boathouse: taking the discard means taking the top stock card too.")
    if rules.rummy_bonus and rules.style == "straight":
        lines.append("Going out all at once (rummy) scores double.")
    lines.append(f"The game is won at {rules.target} points.")
    return [line for line in lines if line]


@cache
def describe(name: str) -> dict[str, Any]:
    """A built-in ruleset in words: game, title, players, starting chips, board and options."""
    game = game_of(name)
    if game == "stops":
        from rummoli.stops.ruleset import load_ruleset as load_stops

        stops = load_stops(name)
        return {"name": name, "game": game, "title": stops.title, "players": [stops.min_players, stops.max_players],
                "chips": stops.starting_chips, "board": [p.name for p in stops.board.pots],
                "options": _stops_words(stops), "summary": _from_texts("summary", name)}
    from rummoli.rummy.ruleset import load_ruleset as load_rummy

    rummy = load_rummy(name)
    sizes = [n for n, _ in rummy.hand_size]
    title = name.replace("-", " ").capitalize()
    return {"name": name, "game": game, "title": _from_texts("title", name) or title,
            "players": [min(sizes), max(sizes)], "chips": None, "board": [], "options": _rummy_words(rummy),
            "summary": _from_texts("summary", name), "target": rummy.target}


def ruleset_catalogue() -> list[dict[str, Any]]:
    """Every built-in ruleset, described (stops games first)."""
    folder = resources.files("rummoli") / "rulesets"
    found = {p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")}
    names = [n for n in BUILTIN_ORDER if n in found] + sorted(found - set(BUILTIN_ORDER))
    return [describe(n) for n in names]


def _texts() -> Any:
    """The packaged rules texts (``rummoli rules NAME``), or ``None`` where this build has none."""
    try:
        return importlib.import_module("rummoli.rules_texts")
    except ImportError:
        return None


def _from_texts(part: str, name: str) -> str | None:
    """A rules text's ``title`` or ``summary`` for ``name``, or ``None`` where there is none."""
    texts = _texts()
    try:
        return str(getattr(texts, part)(name)) if texts is not None else None
    except MalformedInput:
        return None


def ruleset_title(ruleset: str | dict[str, Any], table: Any = None) -> str:
    """A table's ruleset in words for the join page: the title its ``table`` (or the rules the table loaded)
    carries, else for a built-in the title of its rules text, else its name. Without a table (the evening has
    not started) the ruleset is loaded from ``ruleset``, the table's option.

    >>> ruleset_title("gin-rummy"), ruleset_title("michigan")
    ('Gin Rummy', 'Michigan')
    >>> ruleset_title({"game": "rummy", "name": "house"})
    'house'
    """
    own = getattr(table, "title", None)
    if isinstance(own, str) and own:
        return own
    if isinstance(ruleset, str):
        return _builtin_title(ruleset)
    rules = table.rules if table is not None else _loaded(ruleset)
    if rules is None:
        return str(ruleset.get("name", "custom"))[:64]
    return str(getattr(rules, "title", None) or rules.name)


@cache
def _builtin_title(name: str) -> str:
    rules = _loaded(name)
    if rules is None:
        return name
    return str(getattr(rules, "title", None) or _from_texts("title", name) or rules.name)


def _loaded(ruleset: str | dict[str, Any]) -> Any:
    """The ruleset loaded by its game's engine, or None where it does not load."""
    try:
        if game_of(ruleset) == "stops":
            from rummoli.stops.ruleset import load_ruleset as load_stops

            return load_stops(ruleset)
        from rummoli.rummy.ruleset import load_ruleset as load_rummy

        return load_rummy(ruleset)
    except MalformedInput:
        return None


def rules_text(name: str) -> str:
    """The Markdown ``rummoli rules NAME`` prints; where the build has no text, the options in words."""
    texts = _texts()
    if texts is not None:
        result: str = texts.text(name)  # MalformedInput for an unknown name
        return result
    if name not in {r["name"] for r in ruleset_catalogue()}:
        raise MalformedInput(f"no rules for {name!r}")
    about = describe(name)
    return f"# {about['title']}\n\n" + "\n".join(f"- {line}" for line in about["options"]) + "\n"


# ============================================================================================ replays
def _frame(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"view": {k: v for k, v in view.items() if k not in HISTORY_KEYS}, "events": events}


def replay_frames(record: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The frames of a hand record as ``seat`` (hand-level; ``None``: a spectator) saw it (see the module)."""
    check_envelope(record)
    game = game_of(record.get("ruleset"))
    players = record.get("players")
    if seat is not None and (not isinstance(players, list) or not 0 <= seat < len(players)):
        raise RecordError(f"seat {seat} is not at this hand", rule="R-NOTE-2")
    frames: list[dict[str, Any]] = []
    seen = 0

    def snap(hand: Any) -> None:
        nonlocal seen
        events = hand.events_since(seen, seat)
        seen = int(hand.seq)
        frames.append(_frame(hand.view(seat, guide=True), events))
        if len(frames) > MAX_FRAMES:
            raise RecordError(f"a replay holds at most {MAX_FRAMES} steps", rule="R-NOTE-2")

    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list", rule="R-NOTE-3")
    try:
        if game == "stops":
            from rummoli.stops.actions import Action as StopsAction
            from rummoli.stops.replay import hand_from_record

            hand = hand_from_record(record, auto=False)
            snap(hand)
            for data in actions:
                action = StopsAction.from_json(data)
                while not hand.over and (forced := hand.forced_action()) is not None and forced != action:
                    hand.step_forced()
                    snap(hand)
                hand.apply(action)
                snap(hand)
            while not hand.over and hand.step_forced():
                snap(hand)
        else:
            from rummoli.rummy.actions import Action as RummyAction
            from rummoli.rummy.play import hand_from_record as rummy_hand

            hand = rummy_hand(record)
            snap(hand)
            for data in actions:
                hand.apply(RummyAction.from_json(data))
                snap(hand)
    except IllegalAction as error:
        raise RecordError(error.message, index=len(frames) - 1, rule=error.rule) from None
    return {"format": "rummoli-replay/1", "game": game, "seat": seat, "frames": frames, "result": hand.result()}


# ============================================================================================ routes
PAGES = ("/", "/tables/{table_id}", "/tables/{table_id}/hands/{hand_no}", "/replay", "/rules", "/rules/{name}")


def add_routes(app: Any, table_of: Any, seat_of: Any, server_error: Any) -> None:
    """The page's addresses, its static files and the few JSON endpoints only the page uses."""
    folder = web_dir()
    index = folder / "index.html"

    @app.get("/api/rulesets", summary="The built-in rulesets in words", tags=["rules"])
    async def rulesets() -> dict[str, Any]:
        """Each built-in ruleset: game, title, players, starting chips, board and its options in words."""
        return {"rulesets": ruleset_catalogue()}

    @app.get("/api/rules/{name}", summary="How to play a ruleset (Markdown)", tags=["rules"],
             response_class=PlainTextResponse)
    async def rules(name: str) -> PlainTextResponse:
        """The same text `rummoli rules NAME` prints, as Markdown."""
        try:
            text = rules_text(name[:64])
        except MalformedInput as error:
            raise server_error("not_found", str(error)[:200], status=404) from None
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    @app.get("/api/tables/{table_id}/hands/{hand_no}/replay", summary="Replay a finished hand", tags=["history"])
    async def table_replay(table_id: str, hand_no: int,
                           authorization: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """A finished hand of this table step by step, as your seat saw it (send your seat token), or as a
        spectator sees it (no token). `409` while the hand is in play."""
        live = await table_of(table_id)
        seat = seat_of(live, authorization) if authorization else None
        async with live.lock:
            table = live.table
            records = [] if table is None else table.records
            if not 1 <= hand_no <= len(records):
                raise server_error("unavailable", f"hand {hand_no} is not a finished hand of this table",
                                   status=409)
            record = records[hand_no - 1]
            names = list(table.names)
        players = record["players"]
        hand_seat = players.index(names[seat]) if seat is not None and names[seat] in players else None
        frames = replay_frames(record, hand_seat)
        return {**frames, "hand_no": hand_no, "table": table_id}

    @app.post("/api/replay", summary="Replay an uploaded hand record", tags=["history"])
    async def uploaded_replay(record: Annotated[dict[str, Any], Body()], seat: int | None = None) -> dict[str, Any]:
        """A `rummoli-hand/1` record played back step by step from `seat`'s chair (none: every hand hidden,
        as a spectator sees it). A bad record is one line naming the action and the rule."""
        try:
            return replay_frames(record, seat)
        except RecordError as error:
            where = f"action {error.index}: " if error.index is not None else ""
            raise server_error("malformed", f"{where}{error.message}"[:200], rule=error.rule) from None
        except MalformedInput as error:
            raise server_error("malformed", str(error)[:200]) from None

    async def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    app.mount("/", StaticFiles(directory=folder), name="web")
