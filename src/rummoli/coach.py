"""The coach: each decision one seat made in a hand, beside the one the hard bot prefers, with what it cost.

:func:`review` replays a hand record through its engine and, before each action of the reviewed seat that
was a choice (more than one legal action, or an amount), takes **that seat's view** at that moment, as the
table showed it (:func:`rummoli.bots.driver.view_for`: the engine's own redaction, never the record's hidden
cards), and hands it to a fresh hard bot of the family, which weighs its candidates and the action taken over
worlds sampled from that view (:mod:`rummoli.bots.estimate`).  The bot is seeded per decision
(:func:`decision_seed`), so a decision's review is the hard bot's decision at the same seed and budget.

A decision is a **mistake** when the preferred choice beats the one taken by more than the 95% interval of
their paired difference (the same worlds for both); the hand's cost is the sum of its mistakes' costs.  Values
are chips from that moment to the hand's end (stops games) or points against the others' average at the
hand's end (Rummy family).

>>> from rummoli.games import family
>>> record = family("stops").random_hand_record("rummoli", 4, "7")
>>> out = review(record, seat=0, samples=4)
>>> out["unit"], all(d["taken"] == record["actions"][d["index"]] for d in out["decisions"])
('chips', True)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, cast

from rummoli.bots.driver import view_for
from rummoli.bots.estimate import Choice, Estimate, Estimator
from rummoli.errors import IllegalAction, MalformedInput
from rummoli.games import family_of
from rummoli.records import RecordError, check_envelope
from rummoli.wording import card_word

#: seconds of search per decision by default: a Rummoli or Gin hand reviewed in a few seconds of one core
DEFAULT_BUDGET = 0.25
#: the most seconds a whole review may spend: later decisions get less time when earlier ones used more
HAND_SECONDS = 8.0
#: the format of a review
FORMAT = "rummoli-review/1"


def decision_seed(seed: int | str, index: int) -> str:
    """The hard bot's seed for the decision before action ``index`` of a review seeded ``seed``."""
    return f"{seed}:{index}"


def is_choice(view: dict[str, Any]) -> bool:
    """Whether the seat's view offers a choice (more than one legal action, or an amount to choose)."""
    legal = view.get("legal_actions") or []
    return len(legal) > 1 or any("min" in a for a in legal)


def decisions(record: dict[str, Any], seat: int) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Each choice ``seat`` made in ``record``: ``(index of the action, the seat's view just before it, the
    action)``.  A forced move (made for the seat, or its only legal action) is no decision."""
    family = family_of(record.get("ruleset"))
    actions = record["actions"]
    steps = family.steps(record)
    hand = next(steps)
    index = 0
    try:
        while index < len(actions):
            data = actions[index]
            forced = hand.forced_action()
            mine = forced is None or forced == family.read_action(data)  # else a forced move comes first
            if mine and isinstance(data, dict) and data.get("seat") == seat:
                view = view_for(hand, seat)
                if is_choice(view):
                    yield index, view, data
            hand = next(steps)
            if mine:
                index += 1
    except StopIteration:
        return
    except IllegalAction as error:
        raise RecordError(error.message, index=index, rule=error.rule) from None


# ------------------------------------------------------------------------------------------ words
_VERBS = {
    "bid": "Bidding {amount} for the widow", "pass": "Passing", "keep": "Keeping your hand",
    "swap": "Taking the widow", "check": "Checking", "bet": "Betting {amount}", "call": "Calling",
    "raise": "Raising {amount}", "fold": "Folding", "lead": "Leading {card}", "play": "Playing {card}",
    "claim": "Claiming", "discard": "Discarding {card}", "knock": "Knocking with {card}",
    "meld": "Laying down {cards}", "layoff": "Laying off {card}",
}


def action_words(action: dict[str, Any], upcard: str | None = None) -> str:
    """An action as the start of a sentence: ``Bidding 4 for the widow``, ``Discarding 9♣``; a draw from the
    discard pile names its top card when ``upcard`` is given.

    >>> action_words({"seat": 0, "action": "draw", "from": "discard"}, "7d")
    'Taking 7♦ from the discard pile'
    >>> action_words({"action": "bet", "amount": 3})
    'Betting 3'
    """
    kind = str(action.get("action"))
    if kind == "draw":
        if action.get("from") != "discard":
            return "Drawing from the stock"
        return f"Taking {card_word(upcard)} from the discard pile" if upcard else "Taking from the discard pile"
    card = action.get("card")
    cards = action.get("cards") or []
    pattern = _VERBS.get(kind, kind.capitalize())
    try:
        return pattern.format(amount=action.get("amount", ""), card=card_word(str(card)) if card else "",
                              cards=" ".join(card_word(str(c)) for c in cards))
    except (ValueError, KeyError):  # a card we cannot name: its text as given
        return pattern.format(amount=action.get("amount", ""), card=card or "", cards=" ".join(map(str, cards)))


def _lower(words: str) -> str:
    return words[:1].lower() + words[1:]


def _num(x: float) -> str:
    return f"{abs(x):.1f}"


def explain(entry: dict[str, Any], unit: str) -> str:
    """The decision in plain words (``entry`` as :func:`review_decision` makes it)."""
    taken = entry["choices"][entry["taken_choice"]]
    preferred = entry["choices"][entry["preferred_choice"]]
    did, best = taken["text"], preferred["text"]
    if taken["mean"] is None or preferred["mean"] is None:
        return f"{did}: the coach's choice too (by rule, not weighed)." if entry["agrees"] else f"{did}: not weighed."
    if entry["agrees"]:
        return f"{did}: the coach's choice too, worth about {taken['mean']:+.1f} {unit}."
    cost, half = entry["cost"], entry["cost_half"] or 0.0
    if not entry["mistake"]:
        if abs(cost) < 0.05:
            return f"{did} was as good as {_lower(best)}: about {taken['mean']:+.1f} {unit} each."
        if cost < 0:
            return (f"{did} was worth about {taken['mean']:+.1f} {unit}, no less than {_lower(best)} "
                    f"({preferred['mean']:+.1f}).")
        return (f"{did} was close: {_lower(best)} may be worth {_num(cost)} {unit} more, but the interval "
                f"(±{half:.1f}) cannot tell them apart.")
    why = ""
    worth = entry.get("widow_worth")
    if taken["action"].get("action") == "bid" and worth is not None:
        why = (f": the widow is worth about {worth:.1f} to a hand like yours" if worth >= 0 else
               f": trading a hand like yours for the widow loses about {-worth:.1f} before the bid")
    tf, pf = taken.get("facts") or {}, preferred.get("facts") or {}
    if not why and preferred["action"].get("action") == "knock" and pf.get("deadwood") == 0:
        why = f": {_lower(best)} was gin"
    if not why and "draws" in tf and "draws" in pf and tf["draws"] - pf["draws"] >= 0.5:
        n = tf["draws"] - pf["draws"]
        why = (f": it kept you {n:.0f} draw{'s' if round(n) != 1 else ''} further from a knock than "
               f"{_lower(best)}")
    elif not why and "deadwood" in tf and "deadwood" in pf and tf["deadwood"] > pf["deadwood"]:
        why = f": it kept {tf['deadwood'] - pf['deadwood']} more points of deadwood than {_lower(best)}"
    if not why:
        why = f"; {_lower(best)} was worth about {preferred['mean']:+.1f}, this {taken['mean']:+.1f}"
    return f"{did} cost about {_num(cost)} {unit}{why}."


# ------------------------------------------------------------------------------------------ the review
def review_decision(est: Estimate, taken: dict[str, Any], facts: list[dict[str, Any]],
                    upcard: str | None = None) -> dict[str, Any]:
    """One decision's entry from its estimate and the action taken (one of the estimate's choices); each
    choice carries its words (``text``), which every client shows as they are."""
    t = est.index_of(taken)
    if t is None:  # an estimator that left it out (not one of ours): listed, unweighed
        est.choices.append(Choice(taken))
        est.scores.append([])
        facts = [*facts, {}]
        t = len(est.choices) - 1
    p = est.preferred
    choices = [c.to_json() for c in est.choices]
    for c, f in zip(choices, facts, strict=True):
        c["text"] = action_words(c["action"], upcard)
        if f:
            c["facts"] = f
    cost, half = (0.0, None) if t == p else est.gap(p, t)
    weighed = est.choices[t].mean is not None and est.choices[p].mean is not None
    entry: dict[str, Any] = {
        "choices": choices, "taken_choice": t, "preferred_choice": p, "agrees": t == p,
        "worlds": est.worlds, "how": est.how,
        "cost": round(cost, 3) if weighed else None, "cost_half": None if half is None else round(half, 3),
        "mistake": bool(weighed and t != p and half is not None and cost - half > 0),
    }
    pass_at = next((i for i, c in enumerate(est.choices) if c.action.get("action") == "pass"), None)
    bids = [(int(c.action["amount"]), i) for i, c in enumerate(est.choices)
            if c.action.get("action") == "bid" and c.mean is not None]
    if pass_at is not None and bids and est.choices[pass_at].mean is not None:
        amount, i = min(bids)  # what winning the widow at the least bid adds, plus the bid it costs
        mean, _ = est.gap(i, pass_at)
        entry["widow_worth"] = round(mean + amount, 2)
    return entry


def seen_index(view: dict[str, Any]) -> int:
    """How many actions were made before the decision ``view`` (the seat's view with its history) is asked
    for, forced ones included, as the seat saw them: its own stream of events numbers them so.

    >>> seen_index({"actions": [{"seat": 1, "action": "keep"}, {"seat": 2, "action": "pass"}]})
    2
    """
    actions = view.get("actions", view.get("history"))
    return len(actions) if isinstance(actions, list) else 0


def _upcard(view: dict[str, Any]) -> str | None:
    pile = view.get("discard")
    return str(pile[-1]) if isinstance(pile, list) and pile else None


def review(record: dict[str, Any], seat: int = 0, budget: float | None = None, samples: int | None = None,
           seed: int | str = 0, hand_seconds: float = HAND_SECONDS, seen: bool = False) -> dict[str, Any]:
    """Every decision ``seat`` made in ``record`` weighed by a hard bot from that seat's view (see the module).

    ``budget`` seconds of search per decision (:data:`DEFAULT_BUDGET`), never more than what is left of
    ``hand_seconds`` shared among the decisions to come; or exactly ``samples`` worlds (reproducible).
    ``seen``: each decision's ``index`` counts every action before it, forced ones too, as the seat's own view
    lists them (:func:`seen_index`), not its place in the record, which leaves forced moves out: the server's
    numbering, since the record's would tell the seat how many of the others' moves were forced (R-VIEW-1).
    Raises :class:`~rummoli.records.RecordError` (one line) for a bad record or seat."""
    check_envelope(record)
    family = family_of(record.get("ruleset"))
    players = record.get("players")
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(players, list) \
            or not 0 <= seat < len(players):
        count = len(players) if isinstance(players, list) else 0
        raise RecordError(f"seat {seat} is not at this hand (seats 0-{max(0, count - 1)})", rule="R-NOTE-2")
    budget = DEFAULT_BUDGET if budget is None else budget
    started = time.process_time()
    try:
        found = list(decisions(record, seat))
    except (MalformedInput, KeyError, TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"the record does not replay: {error}", rule="R-NOTE-2") from None
    unit = family.unit
    out: list[dict[str, Any]] = []
    for left, (index, view, taken) in zip(range(len(found), 0, -1), found, strict=True):
        spare = hand_seconds - (time.process_time() - started)
        # every family's hard bot is an Estimator (rummoli.bots.estimate)
        bot = cast(Estimator, family.make_bot("hard", decision_seed(seed, index),
                                              max(0.02, min(budget, spare / left)), samples))
        est = bot.estimate(view, extra=[taken])
        facts = bot.facts(view, [c.action for c in est.choices])
        entry = {"index": seen_index(view) if seen else index, "phase": view.get("phase"), "taken": taken,
                 "preferred": est.preferred_action, **review_decision(est, taken, facts, _upcard(view))}
        entry["words"] = explain(entry, unit)
        out.append(entry)
    mistakes = [d for d in out if d["mistake"]]
    cost = round(sum(d["cost"] for d in mistakes), 2)
    return {
        "format": FORMAT, "game": family.name, "unit": unit, "seat": seat, "player": players[seat],
        "budget": budget, "samples": samples, "seed": seed, "decisions": out,
        "mistakes": len(mistakes), "cost": cost,
        "summary": summary(str(players[seat]), len(out), len(mistakes), cost, unit), "legend": legend(out),
        "cpu_seconds": round(time.process_time() - started, 2),
    }


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(player: str, decisions: int, mistakes: int, cost: float, unit: str) -> str:
    """The review in one sentence: how many decisions the seat made and what its mistakes cost, or that it had
    none to make (each move of its was forced, or it had no turn)."""
    if not decisions:
        return f"{player} had no decision to make in this hand."
    return (f"{_count(decisions, 'decision')} of {player}, {_count(mistakes, 'mistake')}"
            + (f" costing about {cost:.1f} {unit}" if mistakes else "") + ".")


#: why a choice with a higher figure may not be the coach's (the web's review panel shows the review's ``legend``)
LEGEND = ("\"coach\" marks what the hard bot plays: it keeps to its plain choice unless another is clearly better, "
          "so a choice with a higher figure may not be the coach's; each figure is an estimate with its 95% interval.")
#: and when such a choice is the bot's by rule (a Gin discard)
LEGEND_RULE = "A choice the bot makes by rule (a Gin discard) is the coach's whatever the figures say."


def outshone(entry: dict[str, Any]) -> bool:
    """Whether a choice of the decision shows a higher figure than the coach's."""
    best = entry["choices"][entry["preferred_choice"]]["mean"]
    return best is not None and any(c["mean"] is not None and round(c["mean"], 1) > round(best, 1)
                                    for c in entry["choices"])


def legend(entries: list[dict[str, Any]]) -> str | None:
    """:data:`LEGEND` when a decision shows a choice with a higher figure than the coach's, else ``None``."""
    hows = {d["how"] for d in entries if outshone(d)}
    if not hows:
        return None
    return f"{LEGEND} {LEGEND_RULE}" if "rule" in hows else LEGEND


def tell(result: dict[str, Any]) -> str:
    """A review in words, one line a decision (the ``rummoli review`` text)."""
    unit = result["unit"]
    head = f"Review of {result['player']} (seat {result['seat']})"
    if not result["decisions"]:
        return f"{head}: {result['summary']}"
    lines = [f"{head}: {_count(len(result['decisions']), 'decision')}, {_count(result['mistakes'], 'mistake')}"
             + (f" costing about {result['cost']:.1f} {unit}" if result["mistakes"] else "") + "."]
    for d in result["decisions"]:
        mark = "✗" if d["mistake"] else "✓" if d["agrees"] else "·"
        lines.append(f"{mark} {d['index']:>3} {d['phase']:<8} {d['words']}")
        for i, c in enumerate(d["choices"]):
            if c["mean"] is None:
                continue
            tags = ("taken " if i == d["taken_choice"] else "") + ("coach" if i == d["preferred_choice"] else "")
            interval = "" if c["low"] is None else f"  [{c['low']:+.1f}, {c['high']:+.1f}]"
            lines.append(f"        {c['text']:<32} {c['mean']:+6.1f}{interval}  {tags}".rstrip())
    if result.get("legend"):
        lines.append(result["legend"])
    return "\n".join(lines)
