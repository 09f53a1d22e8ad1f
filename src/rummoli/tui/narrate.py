"""The game log: the sentences of each new event of the player's view, as the engine wrote them.

The terminal words nothing itself: every event carries its ``text`` (made once, in Python, by the game's
``words`` module), and the log shows it, with the suit symbols written as letters in ``--ascii`` mode.
It reads views only, so the log can never tell a hidden card.

>>> log = EventLog(ascii=True)
>>> view = {"events": [{"type": "action", "text": "Ann plays 10♠."}, {"type": "chips"},
...                    {"type": "chips", "text": "Ann wins the Ten of spades pot: 4 chips."}]}
>>> log.lines(view)
['Ann plays 10s.', 'Ann wins the Ten of spades pot: 4 chips.']
>>> log.lines(view)
[]
"""

from __future__ import annotations

from typing import Any

from rummoli.wording import ascii_text


class EventLog:
    """Remembers how much of a hand's events it has told, and gives the sentences of what is new."""

    def __init__(self, ascii: bool = False) -> None:
        self.ascii = ascii
        self.told = 0

    def new_hand(self) -> None:
        self.told = 0

    def lines(self, view: dict[str, Any]) -> list[str]:
        events = view["events"][self.told:]
        self.told = len(view["events"])
        texts = [str(e["text"]) for e in events if e.get("text")]
        return [ascii_text(t) for t in texts] if self.ascii else texts
