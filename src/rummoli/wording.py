"""The small words every game's sentences share: a seat and its verb, a card, some chips.

Every sentence a player reads about the game (the log of events, the prompt that says what happens now, a
hand's result) is made in Python, once, by the game's own ``words`` module (:mod:`rummoli.stops.words`,
:mod:`rummoli.rummy.words`); the terminal, ``rummoli replay --summary`` and the web page show those
sentences as they are.  This module holds what both families' words need.

The terminal table names its human seat "You", and the hand records it saves keep that name, so every
sentence that starts with a seat's name goes through :func:`said`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummoli.cards import CARDS, RANK_NAMES, SUIT_SYMBOLS, Card

#: The suit symbols and the letters the terminal's ``--ascii`` mode writes instead.
_ASCII = str.maketrans({**{symbol: letter for symbol, letter in zip(SUIT_SYMBOLS, "shdc", strict=True)},
                        "→": "->", "—": "-"})


def said(who: str, verb: str) -> str:
    """A subject and its verb, in the second person for the player.

    >>> said("Ann", "keeps their hand"), said("You", "keeps their hand"), said("You", "passes")
    ('Ann keeps their hand', 'You keep your hand', 'You pass')
    >>> said("You", "knocks, discarding 4♠"), said("You", "pays 1 chip as they cannot lead")
    ('You knock, discarding 4♠', 'You pay 1 chip as you cannot lead')
    """
    if who != "You":
        return f"{who} {verb}"
    first, _, rest = verb.partition(" ")
    mark = first[len(first.rstrip(",;:")):]  # "knocks," is the verb "knocks" and its comma
    first = first[:len(first) - len(mark)]
    irregular = {"is": "are", "has": "have", "goes": "go", "did": "did", "runs": "run"}
    if first in irregular:
        first = irregular[first]
    elif first.endswith(("sses", "shes", "ches", "xes")):
        first = first[:-2]
    elif first.endswith("s"):
        first = first[:-1]
    rest = f" {rest} ".replace("their", "your").replace(" them", " you").replace(" they ", " you ").strip()
    return f"You {first}{mark}" + (f" {rest}" if rest else "")


def whom(who: str) -> str:
    """A seat as the object of a sentence: "you" for the player named "You".

    >>> whom("Ann"), whom("You")
    ('Ann', 'you')
    """
    return "you" if who == "You" else who


def card_word(card: str) -> str:
    """A card as a sentence writes it: rank then suit symbol, ten as ``10``.

    >>> card_word("Td"), card_word("As")
    ('10♦', 'A♠')
    """
    word = _CARD_WORDS.get(card)
    if word is None:  # another spelling of a card (10d, 10♦): read it
        c = Card.parse(card)
        word = RANK_NAMES[c.rank] + SUIT_SYMBOLS[c.suit]
    return word


#: Each card's word by its name (sentences name thousands of cards: a lookup, not a parse).
_CARD_WORDS = {str(c): RANK_NAMES[c.rank] + SUIT_SYMBOLS[c.suit] for c in CARDS}


def cards_word(cards: Iterable[str]) -> str:
    """Cards in a sentence, in the order given.

    >>> cards_word(["5h", "6h", "7h"])
    '5♥ 6♥ 7♥'
    """
    return " ".join(card_word(c) for c in cards)


def chips(n: int | str) -> str:
    """``1 chip``, ``4 chips`` (and an exact share such as ``101/3 chips``).

    >>> chips(1), chips(0), chips("7/2")
    ('1 chip', '0 chips', '7/2 chips')
    """
    return counted(n, "chip")


def counted(n: int | str, thing: str) -> str:
    """A count of things, one or many (a thing whose plural adds an s).

    >>> counted(1, "hand"), counted(20, "hand"), counted(3, "deal sequence")
    ('1 hand', '20 hands', '3 deal sequences')
    """
    return f"{n} {thing}" + ("" if n == 1 else "s")


def departures(ledger: Sequence[dict[str, Any]]) -> str:
    """The players an evening's ledger says left since its last hand because they could not ante (R-ANTE-1), in
    sentences (each after a space), for the line that opens the next hand: without it their seats just vanished.

    >>> departures([{"type": "out", "player": "Al", "chips_to_centre": 1, "pot": "kitty"}, {"type": "hand"},
    ...             {"type": "out", "player": "Cy", "chips_to_centre": 3, "pot": "kitty"}])
    ' Cy leaves the table, unable to pay the ante; their 3 chips go to the board.'
    >>> departures([{"type": "out", "player": "You", "chips_to_centre": 0, "pot": "kitty"}])
    ' You leave the table, unable to pay the ante.'
    >>> departures([{"type": "out", "player": "Bob", "chips_to_centre": 1, "pot": "kitty"}])
    ' Bob leaves the table, unable to pay the ante; their 1 chip goes to the board.'
    """
    first = len(ledger)  # after the last hand: read from the end, since an evening's ledger grows every hand
    while first and ledger[first - 1].get("type") != "hand":
        first -= 1
    out = ""
    for e in ledger[first:]:
        if e.get("type") == "out":
            left = e.get("chips_to_centre")
            rest = f"; their {chips(left)} {'goes' if left == 1 else 'go'} to the board" if left else ""
            out += " " + sentence(said(str(e["player"]), "leaves the table, unable to pay the ante" + rest))
    return out


def names_listed(names: Sequence[str]) -> str:
    """Names as a sentence lists them: ``Ann``, ``Ann and Bob``, ``You, Ann, Bob and Cy`` (not "You and Ann and Bob
    and Cy").

    >>> names_listed(["Ann"]), names_listed(["Ann", "Bob"]), names_listed(["You", "Ann", "Bob", "Cy"])
    ('Ann', 'Ann and Bob', 'You, Ann, Bob and Cy')
    """
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


def first_dealer(how: object, cut: Sequence[Mapping[str, str]] | None) -> str:
    """How an evening's first dealer was chosen, as its record says (``dealer_by``, and the ``cut``'s rounds, each
    {name: card} in the order cut), in sentences for the evening's first line; empty when that is not known. The cut
    is made face up at the table (R-MI-1), so every card of it may be told to everyone.

    >>> print(first_dealer("cut", [{"Al": "Ks", "Bo": "Kh", "Cy": "2d"}, {"Al": "9c", "Bo": "Th"}]))
    The cut for the first deal: Al K♠, Bo K♥, Cy 2♦; Al and Bo cut again: Al 9♣, Bo 10♥. Bo's 10♥ was the highest.
    >>> print(first_dealer("cut", [{"You": "Ks", "Ann": "7h"}]))
    The cut for the first deal: you K♠, Ann 7♥. Your K♠ was the highest.
    >>> first_dealer("lot", None), first_dealer("unrecorded", None)
    ('The first dealer was chosen by lot.', '')
    """
    if how == "cut" and cut:
        rounds = "; ".join((f"{names_listed([whom(n) for n in held])} cut again: " if k else "")
                           + ", ".join(f"{whom(n)} {card_word(c)}" for n, c in held.items())
                           for k, held in enumerate(cut))
        name, card = max(cut[-1].items(), key=lambda held: Card.parse(held[1]).rank)
        whose = "Your" if name == "You" else f"{name}'s"
        return f"The cut for the first deal: {rounds}. {whose} {card_word(card)} was the highest."
    return {"cut": "", "lot": "The first dealer was chosen by lot.",
            "given": "The first dealer was set when the table was made."}.get(str(how), "")


def points(n: int) -> str:
    """Points, one or many.

    >>> points(1), points(-4)
    ('1 point', '-4 points')
    """
    return f"{n} point" + ("" if abs(n) == 1 else "s")


def players_range(low: int, high: int) -> str:
    """How many players a game seats, in words: ``2 to 6 players``, or ``exactly 2 players`` (not "2 to 2").

    >>> players_range(2, 6), players_range(2, 2)
    ('2 to 6 players', 'exactly 2 players')
    """
    return f"exactly {low} players" if low == high else f"{low} to {high} players"


def ascii_text(text: str) -> str:
    """A sentence for a terminal without suit symbols: ``10♦`` becomes ``10d``, an arrow ``->``.

    >>> ascii_text("Ann leads 2♣; 100 → 104")
    'Ann leads 2c; 100 -> 104'
    """
    return text.translate(_ASCII)


def only_choice(text: str) -> str:
    """``text`` marked as the seat's only choice, inside a bracket it already ends with.

    >>> only_choice("You lead 2♣"), only_choice("You draw from the stock (5♣)")
    ('You lead 2♣ (the only choice)', 'You draw from the stock (5♣, the only choice)')
    """
    return f"{text[:-1]}, the only choice)" if text.endswith(")") else f"{text} (the only choice)"


def sentence(text: str) -> str:
    """A clause as a sentence: a capital first letter and a full stop (unless it ends in ! or ?).

    >>> sentence("the hand stalls"), sentence("Gin!")
    ('The hand stalls.', 'Gin!')
    """
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
