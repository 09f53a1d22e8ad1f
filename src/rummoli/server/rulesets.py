"""The built-in rulesets in words: what the lobby lists (:func:`ruleset_catalogue`), the rules a player reads
(:func:`rules_text`, the text ``rummoli rules`` prints) and a table's title (:func:`ruleset_title`, which a
table's summary carries).

>>> [r["name"] for r in ruleset_catalogue()][:2]
['rummoli', 'rummoli-tripoley']
>>> describe("michigan")["players"]
[3, 8]
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib import resources
from typing import Any

from rummoli.errors import MalformedInput
from rummoli.records import game_of

BUILTIN_ORDER = (
    "rummoli", "rummoli-tripoley", "tripoley", "michigan",
    "rummy", "rummy-aces-high", "block-rummy", "boathouse-rummy", "500-rum", "knock-rummy", "gin-rummy",
)




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
        from rummoli.stops import load_ruleset as load_stops

        stops = load_stops(name)
        return {"name": name, "game": game, "title": stops.title, "players": [stops.min_players, stops.max_players],
                "chips": stops.starting_chips, "board": [p.name for p in stops.board.pots],
                "options": _stops_words(stops), "summary": _from_texts("summary", name)}
    from rummoli.rummy import load_ruleset as load_rummy

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
            from rummoli.stops import load_ruleset as load_stops

            return load_stops(ruleset)
        from rummoli.rummy import load_ruleset as load_rummy

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
