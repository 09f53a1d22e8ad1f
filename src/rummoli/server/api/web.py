"""What the browser table needs from the server besides the game protocol: its static files, the
rulesets described in words and the rules texts (rummoli.server.rulesets), and replays of finished hands as a
seat saw them.

The page itself lives in ``rummoli/web/`` (package data, no build step). Its addresses (``/``,
``/tables/{id}`` — the invite link —, ``/tables/{id}/hands/{n}``, ``/replay``, ``/rules/{name}``) all
answer the same ``index.html``; the page's own module reads the address and draws the right screen.

A replay is a list of frames, each the viewing seat's own view after one more step of the hand (a forced
play is a step of its own, so a run can be followed card by card) and the events that step added, as
that seat may see them, with their sentences; and the hand's ``result`` (in the hand's own seats), once
the record plays to its end. A frame's view holds only what changed since the step before (``more``: the
new items of a list that grew, ``gone``: the keys it lost; :func:`whole_views` puts them back together),
so a replay's size follows what happened in the hand, not its length times the whole table: the board and
the rules are sent once. A player of a table replays its finished hands as their seat saw them (their seat
found by number, never by name); a spectator as a spectator; an uploaded record (which holds every card
already) from the seat asked for.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Header, Query
from fastapi.responses import HTMLResponse, PlainTextResponse

from rummoli.errors import IllegalAction, MalformedInput
from rummoli.games import family_of
from rummoli.records import RecordError, check_envelope
from rummoli.server.api.assets import CHECK, VersionedFiles, load_assets
from rummoli.server.rulesets import rules_text, ruleset_catalogue

#: The view keys that hold the whole public history: a replay frame carries only the step's new events.
HISTORY_KEYS = ("events", "actions", "history")
MAX_FRAMES = 2000
#: The largest record ``POST /api/replay`` reads, in bytes (a long Rummy hand's record is about 12 KiB).
REPLAY_BODY = 32 * 1024


def web_dir() -> Path:
    """The folder of the page's static files (inside the installed package)."""
    return Path(str(resources.files("rummoli") / "web"))


# ============================================================================================ replays
def _frame(view: dict[str, Any], before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """A step: the parts of the view that changed since ``before`` (the previous step's whole view; the first
    step's is empty, so it carries all of it), with a list that only grew given as its new items (``more``),
    the keys it no longer has (``gone``), and its events."""
    changed: dict[str, Any] = {}
    more: dict[str, Any] = {}
    for key, value in view.items():
        old = before.get(key, _NONE)
        if old == value:
            continue
        if isinstance(old, list) and old and isinstance(value, list) and value[:len(old)] == old:
            more[key] = value[len(old):]
        else:
            changed[key] = value
    frame: dict[str, Any] = {"view": changed, "events": events}
    if more:
        frame["more"] = more
    gone = [k for k in before if k not in view]
    if gone:
        frame["gone"] = gone
    return frame


_NONE = object()


def whole_views(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each step's whole view again from the changes the frames carry (what the page does to show them).

    >>> whole_views([{"view": {"a": 1, "b": [2]}, "events": []},
    ...              {"view": {}, "more": {"b": [3]}, "gone": ["a"], "events": []}])
    [{'a': 1, 'b': [2]}, {'b': [2, 3]}]
    """
    views: list[dict[str, Any]] = []
    view: dict[str, Any] = {}
    for frame in frames:
        grown = {k: [*view[k], *items] for k, items in frame.get("more", {}).items()}
        view = {k: v for k, v in {**view, **frame["view"], **grown}.items() if k not in frame.get("gone", ())}
        views.append(view)
    return views


def replay_frames(record: dict[str, Any], seat: int | None, open_hands: bool = False) -> dict[str, Any]:
    """The frames of a hand record as ``seat`` (hand-level; ``None``: a spectator) saw it (see the module).

    ``open_hands``: each step's view also holds ``open_hands``, every seat's hand at that step as that seat's
    own view shows it (the engine's own redaction, seat by seat: no rule is repeated here), and the cards no seat
    holds, ``out_of_play``, as the engine says them (:meth:`~rummoli.games.family.Hand.out_of_play`: a widow, a
    stock). Only for a hand
    whose every card its asker may already have (an evening that is over: its whole record is theirs)."""
    check_envelope(record)
    family = family_of(record.get("ruleset"))
    players = record.get("players")
    if seat is not None and (not isinstance(players, list) or not 0 <= seat < len(players)):
        raise RecordError(f"seat {seat} is not at this hand", rule="R-NOTE-2")
    frames: list[dict[str, Any]] = []
    seen = 0
    before: dict[str, Any] = {}

    def snap(hand: Any) -> None:
        nonlocal seen, before
        # An event's "state" (where the hand stood after it) is the frame's own view: not sent twice.
        events = [{k: v for k, v in e.items() if k != "state"} for e in hand.events_since(seen, seat)]
        seen = int(hand.seq)
        view = {k: v for k, v in hand.view(seat, guide=True).items() if k not in HISTORY_KEYS}
        if open_hands:
            view["open_hands"] = [hand.view(s)["hand"] for s in range(len(players))]
            if (spare := hand.out_of_play()) is not None:
                view["out_of_play"] = spare
        frames.append(_frame(view, before, events))
        before = view
        if len(frames) > MAX_FRAMES:
            raise RecordError(f"a replay holds at most {MAX_FRAMES} steps", rule="R-NOTE-2")

    if not isinstance(record.get("actions"), list):
        raise RecordError("'actions' must be a list", rule="R-NOTE-3")
    hand: Any = None
    try:
        for hand in family.steps(record):  # a forced play is a step of its own
            snap(hand)
    except IllegalAction as error:
        raise RecordError(error.message, index=len(frames) - 1, rule=error.rule) from None
    out = {"format": "rummoli-replay/2", "game": family.name, "seat": seat, "frames": frames, "result": hand.result()}
    if open_hands:
        out["open"] = True
    return out


async def finished_record(room: Any, hand_no: int, server_error: Any) -> tuple[dict[str, Any], list[int]]:
    """Finished hand ``hand_no`` of a table's room: its record and the hand's own seats (the table's seat
    numbers, in the hand's order); ``409`` when it is not a finished hand of the table."""
    async with room.lock:
        table = room.table
        records = [] if table is None else table.records
        if not 1 <= hand_no <= len(records):
            raise server_error("unavailable", f"hand {hand_no} is not a finished hand of this table", status=409)
        seats = next(s for _n, _hand, s in table.finished_hands(hand_no, hand_no))
        return records[hand_no - 1], list(seats)


# ============================================================================================ routes
PAGES = ("/", "/tables/{table_id}", "/tables/{table_id}/hands/{hand_no}", "/replay", "/rules", "/rules/{name}")


def add_routes(app: Any, table_of: Any, seat_of: Any, server_error: Any) -> None:
    """The page's addresses, its static files and the few JSON endpoints only the page uses."""
    folder = web_dir()

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
    async def table_replay(table_id: str, hand_no: int, authorization: Annotated[str | None, Header()] = None,
                           open_hands: Annotated[bool, Query(alias="open")] = False) -> dict[str, Any]:
        """A finished hand of this table step by step, as your seat saw it (send your seat token), or as a
        spectator sees it (no token). `409` while the hand is in play. With `open=true`, once the evening is
        over, a seat of this table sees every hand as dealt (each step's `open_hands`); `can_open` says
        whether it may. `401`/`403` without a seat's token, `409` while the evening goes on."""
        room = await table_of(table_id)
        if open_hands and not authorization:
            raise server_error("unauthorized", "open hands are for the table's seats: send your seat token",
                               status=401)
        seat = seat_of(room, authorization) if authorization else None
        over = room.over
        if open_hands and not over:
            raise server_error("unavailable", "every hand is shown once the evening is over", status=409)
        # The hand's own seats, by number (a name may look like another's): a seat that sat the hand out sees
        # it as a spectator does.
        record, seats = await finished_record(room, hand_no, server_error)
        frames = replay_frames(record, seats.index(seat) if seat in seats else None, open_hands=open_hands)
        return {**frames, "hand_no": hand_no, "table": table_id, "can_open": over and seat is not None}

    @app.post("/api/replay", summary="Replay an uploaded hand record", tags=["history"])
    async def uploaded_replay(record: Annotated[dict[str, Any], Body()], seat: int | None = None) -> dict[str, Any]:
        """A `rummoli-hand/1` record (at most 32 KiB) played back step by step from `seat`'s chair (none: every
        hand hidden, as a spectator sees it). A bad record is one line naming the action and the rule."""
        # Anyone may send a record here, without a token: the per-address limits (the server's options)
        # apply to this path; the body's size is capped by REPLAY_BODY (rummoli.server.api.app.BodyLimit).
        try:
            return replay_frames(record, seat)
        except RecordError as error:
            where = f"action {error.index}: " if error.index is not None else ""
            raise server_error("malformed", f"{where}{error.message}"[:200], rule=error.rule) from None
        except MalformedInput as error:
            raise server_error("malformed", str(error)[:200]) from None

    assets = load_assets(folder)

    async def page() -> HTMLResponse:
        return HTMLResponse(assets.index, headers={"Cache-Control": CHECK, "Content-Security-Policy": assets.policy})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET", "HEAD"], include_in_schema=False)  # HEAD: link checkers, monitors
    app.mount("/", VersionedFiles(directory=folder, versions=assets.versions), name="web")
