"""Words about a seat, in the second person for the player who sits at the terminal or reads their own record.

The terminal table names its human seat "You", and the hand records it saves keep that name, so every line
that starts with a seat's name goes through :func:`said` (the game log, the end of a hand, the summary of
``rummoli replay --summary``).
"""

from __future__ import annotations


def said(who: str, verb: str) -> str:
    """A subject and its verb, in the second person for the player.

    >>> said("Ann", "keeps their hand"), said("You", "keeps their hand"), said("You", "passes")
    ('Ann keeps their hand', 'You keep your hand', 'You pass')
    """
    if who != "You":
        return f"{who} {verb}"
    first, _, rest = verb.partition(" ")
    irregular = {"is": "are", "has": "have", "goes": "go", "did": "did"}
    if first in irregular:
        first = irregular[first]
    elif first.endswith(("sses", "shes", "ches", "xes")):
        first = first[:-2]
    elif first.endswith("s"):
        first = first[:-1]
    rest = rest.replace("their", "your")
    return f"You {first}" + (f" {rest}" if rest else "")
