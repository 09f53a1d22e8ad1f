"""The messages of the game server, as pydantic models: the REST bodies and every websocket message.

``GET /api/protocol.json`` serves :func:`protocol_schema`: the JSON Schema of each message and
:data:`PROTOCOL_VERSION`, which changes whenever a message changes in a way an old client would misread.

Display names are plain text: they are checked for length and control characters and never interpreted.

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("a\\x00b")
Traceback (most recent call last):
...
ValueError: a name may not hold control characters
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter

from rummoli.errors import quote
from rummoli.limits import JOINERS, not_text, shows_nothing, stacked_marks

PROTOCOL_VERSION = 1
MAX_NAME = 24
BOT_LEVELS = ("random", "easy", "normal", "hard")
Level = Literal["random", "easy", "normal", "hard"]
PaceName = Literal["instant", "fast", "normal", "slow"]  # rummoli.server.tables.schedule.PACES


def plain_text(text: str, limit: int, what: str) -> str:
    """``text`` as the server keeps ``what`` (a name, a chat line): one line of 1 to ``limit`` characters with its
    spaces collapsed, no control characters (but the joiners of emoji and scripts: rummoli.limits.not_text),
    something visible, and no pile of combining marks on one character (rummoli.limits.MAX_MARKS: they would draw
    over the page's rows around it)."""
    if not_text(text) is not None:
        raise ValueError(f"{what} may not hold control characters")
    problem = stacked_marks(text)
    if problem is not None:
        raise ValueError(f"{what} {problem}")
    line = " ".join(text.split()).strip(JOINERS).strip()  # a joiner at either end joins nothing: "Ann\u200d" is "Ann"
    if shows_nothing(line):
        raise ValueError(f"{what} needs at least one visible character")
    if len(line) > limit:
        raise ValueError(f"{what} has at most {limit} characters")
    return line


def clean_name(text: str, limit: int = MAX_NAME) -> str:
    """A display name as the server keeps it: inner spaces collapsed, 1 to ``limit`` characters, no controls (but
    the joiners), something visible.

    >>> family = "\U0001F468\u200d\U0001F467"
    >>> clean_name("Mehr\u200cnaz") == "Mehr\u200cnaz", clean_name(family) == family, clean_name(" Ann\u200d ")
    (True, True, 'Ann')
    >>> clean_name("\u200d")
    Traceback (most recent call last):
    ...
    ValueError: a name needs at least one visible character
    """
    return plain_text(text, limit, "a name")


Name = Annotated[str, AfterValidator(clean_name)]
MAX_CHAT = 200  # rummoli.server.tables.chat.MAX_LINE
Reaction = Literal["thumbs_up", "good_hand", "well_played", "oops"]  # rummoli.server.tables.chat.REACTIONS


def not_past_chat_bounds(value: Any) -> Any:
    """A chat line sent with over 1,000 characters is refused before it is read, in the words of the 200 kept (the
    message's own cap of 4,096 characters a text would otherwise answer it with a limit no chat line has)."""
    if isinstance(value, str) and len(value) > 5 * MAX_CHAT:
        raise ValueError(f"a chat line has at most {MAX_CHAT} characters")
    return value


def clean_line(text: str) -> str:
    """A chat line as the server keeps it: plain text on one line, 1 to 200 characters, spaces collapsed.

    >>> clean_line("  <b>hi</b>   there ")
    '<b>hi</b> there'
    >>> clean_line("x" * 201)
    Traceback (most recent call last):
    ...
    ValueError: a chat line has at most 200 characters
    """
    return plain_text(text, MAX_CHAT, "a chat line")


class Strict(BaseModel):
    """What a client sends (a REST body, a websocket message), read strictly: no field it does not know, and each
    field of exactly the JSON type the published schema gives it: ``"29"`` is not the integer 29 and ``true`` is
    not 1 (a whole number is still a number where one with a fraction may be given)."""

    model_config = ConfigDict(extra="forbid", str_max_length=4096, strict=True)


# ============================================================================================ REST
class SeatSpec(Strict):
    """A seat at a new table: ``{"bot": "easy"}`` for a computer player, ``{}`` for a person (open)."""

    bot: Level | None = None


class CreateTable(Strict):
    """``POST /api/tables``: the table's game and options, and the creator's own seat and name."""

    ruleset: str | dict[str, Any] = Field(
        "rummoli", description="A built-in ruleset's name, or a ruleset given inline as a JSON object (never a path).")
    seats: list[SeatSpec] = Field(
        default_factory=lambda: [SeatSpec(), SeatSpec(bot="easy"), SeatSpec(bot="easy"), SeatSpec(bot="easy")],
        min_length=2, max_length=8, description="Every seat in order; the creator sits at `creator_seat`.")
    name: Name = Field(..., description="The creator's display name (text, at most 24 characters).")
    creator_seat: int = Field(0, ge=0, le=7, description="The creator's seat (a person's seat).")
    chips: int | None = Field(None, ge=1, le=100_000,
                              description="Starting chips (stops games; default: the ruleset's).")
    hands: int | None = Field(None, ge=1, le=500, description="Hands in the evening (default: the ruleset's own end).")
    turn_timer: float | None = Field(
        None, ge=5, le=600, description="Seconds a person has for a decision before a safe default is played.")
    seed: str | None = Field(None, max_length=64, description="A fixed shuffle (only if the server allows seeds).")
    pace: PaceName | None = Field(
        None, description="How fast the table goes: seconds before a bot's move is shown and between forced plays: "
                          "instant (0, 0), fast (0.5, 0.3), normal (1, 0.6), slow (2, 1.2); null: the server's own.")


class TableCreated(BaseModel):
    id: str
    invite: str = Field(description="The address to send to friends; it gives no seat by itself.")
    seat: int
    token: str = Field(description="The creator's seat token: a secret, shown only once.")
    protocol: int = PROTOCOL_VERSION


class JoinTable(Strict):
    """``POST /api/tables/{id}/seats``: take an open seat (the first open one unless ``seat`` is given)."""

    name: Name = Field(..., description="Your display name (text, at most 24 characters).")
    seat: int | None = Field(None, ge=0, le=7)


class Joined(BaseModel):
    id: str
    seat: int
    token: str = Field(description="The seat token: a secret, shown only once.")


class SeatInfo(BaseModel):
    seat: int
    name: str
    bot: str | None = Field(description="The bot level playing this seat now (a bot's seat, or an absent person's).")
    person: bool = Field(description="A person's seat (taken or open), not a computer player's.")
    open: bool = Field(description="A person's seat nobody holds: anyone with the invite may take it.")
    connected: bool


class Pace(BaseModel):
    """A table's pace: seconds before a bot's move is shown and between forced plays, and the pace its
    creator chose (``null``: the server's settings)."""

    bot: float
    play: float
    name: PaceName | None


class TableSummary(BaseModel):
    id: str
    game: str
    ruleset: str
    title: str = Field(description="The ruleset's title in words (e.g. \"Gin Rummy\").")
    seats: list[SeatInfo]
    open_seats: int
    hand_no: int
    seq: int
    over: bool
    status: str = Field(description="waiting (seats open), playing, paused (its computer players stopped "
                                    "answering; the creator may resume it) or over.")
    turn_timer: float | None
    pace: Pace
    created_at: float
    invite: str
    chips: int | None = Field(None, description="Starting chips its creator chose (null: the ruleset's own).")
    hands: int | None = Field(None, description="Hands in the evening (null: the ruleset's own end).")
    ending: bool = Field(False, description="The evening was ended before its own end (by its creator, or idle): "
                                            "no hand is dealt after the one in play (if any); `over` once that hand "
                                            "is over.")


class TableList(BaseModel):
    tables: list[TableSummary]


class ErrorBody(BaseModel):
    code: str
    message: str
    rule: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


# ============================================================================================ websocket
class Message(Strict):
    """A client's websocket message, read strictly (:class:`Strict`)."""


class Hello(Message):
    """The first message of a client: a seat token to play, none to watch; ``since`` asks for missed events."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: str | None = Field(None, max_length=128)
    since: int | None = Field(None, ge=0, description="The last seq this client saw (after a reconnect).")


class Act(Message):
    """A decision: an R-NOTE-3 action object as listed in the view's ``legal_actions`` (``seat`` is filled in
    by the server) and the ``seq`` of the view it was chosen from."""

    type: Literal["act"]
    seq: int = Field(ge=0)
    action: dict[str, Any]


class Next(Message):
    """Between hands: this seat is ready for the next one. ``seq`` is that of the view the client saw at the
    hand's end; sent at another seq or during a hand it is ignored (no error). The next hand is dealt once every
    person connected has said so, or when the countdown ends."""

    type: Literal["next"]
    seq: int = Field(ge=0)


class Ping(Message):
    type: Literal["ping"]


class Chat(Message):
    """A line to the table's chat (``text``, plain text, at most 200 characters) or a quick ``reaction``; only a
    seat writes (a spectator's chat is refused), at most a few lines a second (the server's settings)."""

    type: Literal["chat"]
    text: Annotated[str, BeforeValidator(not_past_chat_bounds), AfterValidator(clean_line)] | None = None
    reaction: Reaction | None = Field(None, description="thumbs_up (👍), good_hand, well_played or oops.")


ClientMessage = Annotated[Hello | Act | Next | Ping | Chat, Field(discriminator="type")]
client_message = TypeAdapter(ClientMessage)


class Clock(BaseModel):
    seat: int
    seconds: float = Field(description="Seconds left for that seat's decision when the message was sent.")


class Countdown(BaseModel):
    """Between hands: the countdown to the next deal and who has said "next"."""

    seconds: float = Field(description="Seconds left before the next hand is dealt by itself.")
    ready: list[int] = Field(description="The evening seats that said next.")
    waiting: list[int] = Field(description="The seats still awaited: people connected, playing their own seat, "
                                           "still in the evening, who have not said next. Bots never are.")


class ChatLine(BaseModel):
    """A line of the table's chat: its number, the writer's seat and that seat's name now (never a name the
    message gave), the text (plain text: show it as text, never as HTML) and the reaction it is, if one."""

    n: int
    seat: int
    name: str
    text: str
    reaction: Reaction | None
    at: float = Field(description="When it was written (seconds since 1970).")


class ChatMessage(BaseModel):
    """Someone at the table wrote to the chat (sent to every client of the table)."""

    type: Literal["chat"] = "chat"
    line: ChatLine


class Rematch(BaseModel):
    """At the evening's end someone pressed "Play again": a new table with the same seats, bots and options.
    ``token`` is this seat's own token at the new table: sent only to the clients of that seat (a spectator's
    and a seat's that has none get ``null``: they may watch)."""

    type: Literal["rematch"] = "rematch"
    table: str
    by: str = Field(description="The name of the person who made it.")
    seat: int | None
    token: str | None


class Welcome(BaseModel):
    """The answer to hello: the seat (``null`` for a spectator), its whole view, and the events it missed."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    table: str
    seat: int | None
    seq: int
    view: dict[str, Any]
    events: list[dict[str, Any]]
    seats: list[SeatInfo]
    clock: Clock | None = None
    next_hand: Countdown | None = Field(None, description="Between hands (else null).")
    pace: Pace
    chat: list[ChatLine] = Field(default_factory=list, description="The chat's last lines, oldest first.")
    rematch: Rematch | None = Field(None, description="The rematch made at the evening's end, if any.")


class Update(BaseModel):
    """Something changed: the events this client may see since its last message, and its new view."""

    type: Literal["update"] = "update"
    seq: int
    events: list[dict[str, Any]]
    view: dict[str, Any]
    clock: Clock | None = None
    next_hand: Countdown | None = Field(None, description="Between hands (else null).")


class NextHand(Countdown):
    """Between hands, when only who is ready (or awaited) changed: no new seq, no update."""

    type: Literal["next_hand"] = "next_hand"


class Seats(BaseModel):
    """Who is at the table changed (someone joined, left, went away or came back, a bot took a seat over)."""

    type: Literal["seats"] = "seats"
    seats: list[SeatInfo]


class ErrorMessage(BaseModel):
    """A refused message: nothing changed. ``rule`` names the rule an illegal action breaks."""

    type: Literal["error"] = "error"
    code: Literal["malformed", "too_large", "rate_limited", "protocol", "unauthorized", "not_found", "stale",
                  "not_your_turn", "illegal", "over", "unavailable", "internal"]
    message: str
    rule: str | None = None
    seq: int | None = Field(None, description="The table's seq now (after a stale action).")


class Pong(BaseModel):
    type: Literal["pong"] = "pong"


ServerMessage = Annotated[Welcome | Update | NextHand | Seats | ChatMessage | Rematch | ErrorMessage | Pong,
                          Field(discriminator="type")]


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every websocket message, both ways, with the protocol version."""
    client = {m.__name__.lower(): m.model_json_schema() for m in (Hello, Act, Next, Ping, Chat)}
    names = {ErrorMessage: "error", NextHand: "next_hand", ChatMessage: "chat"}
    server = {names.get(m, m.__name__.lower()): m.model_json_schema()
              for m in (Welcome, Update, NextHand, Seats, ChatMessage, Rematch, ErrorMessage, Pong)}
    return {
        "protocol": PROTOCOL_VERSION,
        "websocket": "/ws/tables/{id}",
        "client_messages": client,
        "server_messages": server,
        "client_message": TypeAdapter(ClientMessage).json_schema(),
        "server_message": TypeAdapter(ServerMessage).json_schema(),
    }


#: What a value of each JSON type is called in a message (pydantic's error types, for a value of the wrong type).
_TYPES = {"int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
          "float_type": "a number", "float_parsing": "a number", "string_type": "text", "bool_type": "true or false",
          "dict_type": "a JSON object", "model_type": "a JSON object", "model_attributes_type": "a JSON object",
          "list_type": "a list"}
#: Bounds, as ``(words, the key of the bound in pydantic's context)``.
_BOUNDS = {"greater_than_equal": ("at least", "ge"), "greater_than": ("above", "gt"),
           "less_than_equal": ("at most", "le"), "less_than": ("below", "lt")}
_SIZES = {"string_too_short": ("at least", "min_length", "characters"),
          "string_too_long": ("at most", "max_length", "characters"),
          "too_short": ("at least", "min_length", "items"), "too_long": ("at most", "max_length", "items")}
_QUOTED = re.compile(r"'([^']*)'")
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _where(loc: Sequence[Any], kind: str) -> list[Any]:
    """The path to the value at fault: a list index, a field, or a key the client wrote (quoted, see
    :func:`rummoli.errors.quote`). Where a field takes one of several types (a ruleset's name or object),
    pydantic adds the type it tried (``constrained-str``, ``dict[str,any]``): that is left out."""
    parts = [p for p in loc if p != "body"]
    if parts and kind not in ("extra_forbidden", "missing") and isinstance(parts[-1], str) and (
            "-" in parts[-1] or "[" in parts[-1]):
        parts.pop()
    return parts


def _problem(error: Mapping[str, Any], errors: Sequence[Mapping[str, Any]]) -> str:
    """One problem pydantic found, in our words, quoting what the client sent as JSON spells it."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    got = f", got {quote(error['input'])}" if "input" in error else ""
    if kind == "value_error":  # our own validators' words
        return str(error.get("msg", "")).removeprefix("Value error, ")
    if kind in _TYPES:
        # A field of several types (text or an object) has one error per type: name them all.
        where = _where(error.get("loc", ()), kind)
        kinds = dict.fromkeys(_TYPES[str(e.get("type"))] for e in errors
                              if _where(e.get("loc", ()), kind) == where and e.get("type") in _TYPES)
        return f"must be {' or '.join(kinds)}{got}"
    if kind in _BOUNDS:
        words, key = _BOUNDS[kind]
        return f"must be {words} {ctx.get(key)}{got}"
    if kind in _SIZES:
        words, key, unit = _SIZES[kind]
        return f"must hold {words} {ctx.get(key)} {unit}"  # the value itself is long or short: not quoted
    if kind == "literal_error":
        return f"must be one of {', '.join(quote(v) for v in _QUOTED.findall(str(ctx.get('expected', ''))))}{got}"
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        return "no such field"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        key = "".join(_QUOTED.findall(str(ctx.get("discriminator", "")))) or "type"
        sent = error.get("input")
        tags = _QUOTED.findall(str(ctx.get("expected_tags", "")))
        known = f" ({', '.join(tags)})" if tags else ""
        if kind == "union_tag_not_found" or not isinstance(sent, dict):
            return f"a message names its kind under {quote(key)}{known}"
        return f"unknown message {key} {quote(sent.get(key))}{known}"
    return f"is not valid here{got}"


def first_problem(errors: Sequence[Mapping[str, Any]], not_json: str) -> str:
    """The first problem pydantic found in a request or a message, as one line in our words naming where it is
    and quoting what was sent (``not_json`` when it is not JSON at all); our own validators' words are kept.

    >>> first_problem([{"type": "value_error", "loc": ("body", "name"),
    ...                 "msg": "Value error, a name may not hold control characters"}], "not JSON")
    'name: a name may not hold control characters'
    >>> first_problem([{"type": "json_invalid", "loc": ("body", 3), "msg": "Invalid JSON"}], "not JSON")
    'not JSON'
    >>> print(first_problem([{"type": "int_type", "loc": ("act", "seq"), "input": True}], "not JSON"))
    act.seq: must be a whole number, got true
    >>> print(first_problem([{"type": "extra_forbidden", "loc": ("hello", "x\\ny"), "input": None}], "not JSON"))
    hello."x\\ny": no such field

    A body that is not an object at all (text sent without a JSON content type, a list, a number) or is missing:

    >>> first_problem([{"type": "model_attributes_type", "loc": ("body",), "msg": "Input should be a valid "
    ...                 "dictionary or object to extract fields from"}], "not JSON")
    'the body is not a JSON object sent as application/json'
    >>> first_problem([{"type": "missing", "loc": ("body",), "msg": "Field required"}], "not JSON")
    'the body is missing: a JSON object was expected'
    """
    first = errors[0]
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        # A number of over 4300 digits is refused by the parser (as Python would not write it back either).
        too_long = "number out of range" in str((first.get("ctx") or {}).get("error", ""))
        return f"{not_json}: a number in it has too many digits" if too_long else not_json
    if tuple(first.get("loc", ())) == ("body",):
        # pydantic's words here ("Input should be a valid dictionary or object to extract fields from") name
        # its own machinery, not what the client sent.
        if kind == "missing":
            return "the body is missing: a JSON object was expected"
        if kind.endswith("_type"):
            return "the body is not a JSON object sent as application/json"
    where = ".".join(str(p) if isinstance(p, int) or _FIELD.fullmatch(p) else quote(p)
                     for p in _where(first.get("loc", ()), kind))
    if not where and kind in _TYPES:  # a list, a number, text: not an object at all
        return f"{not_json}, not {quote(first.get('input'))}"[:200]
    message = _problem(first, errors)
    return (f"{where}: {message}" if where else message)[:200]
