"""The Poch family: the old German stops game with its board of pools (:mod:`rummoli.poch`)."""

from __future__ import annotations

from typing import Any

from rummoli.games.family import BoardFamily

POCH_WORDS: dict[str, dict[str, str]] = {
    "deal": {"all": "Every card is dealt; the last one is turned for trumps and stays in its player's hand.",
             "packets": "Cards are dealt three and two at a time; the next card is turned for trumps and the "
                        "rest stay out of play."},
    "sequence": {"trump_789": "The Sequence goes to whoever holds the 7, 8 and 9 of trumps.",
                 "best_run": "The Sequence goes to the longest, then highest run of three or more in any suit."},
    "opener": {"any": "Anyone may knock (bet), bluffing or not.",
               "set_holder": "Only a player holding a pair or better may open the betting."},
    "vie": {"raise": "Knocking again (raising) is allowed.", "no_raise": "One bet, then hold or drop out: no raising."},
    "first_lead": {"poch_winner": "The winner of the vying leads first.", "eldest": "The player left of the dealer "
                                                                                   "leads first."},
    "run_top": {"ace": "Runs go up to the ace.", "king": "Runs go up to the king; the ace plays below the 7."},
}


def poch_words(rules: Any) -> list[str]:
    """A Poch ruleset's board and options in words."""
    lines = ["Board: " + ", ".join(f"{p.name} (ante {p.ante})" for p in rules.pools) + "."]
    lines += [POCH_WORDS[key][getattr(rules, key)] for key in POCH_WORDS]
    if rules.vie == "raise":
        lines.append(f"At most {rules.max_bet} chips a knock, {rules.max_raises} raises a hand.")
    else:
        lines.append(f"At most {rules.max_bet} chips a knock.")
    return lines


class PochFamily(BoardFamily):
    name = "poch"
    engine = "rummoli.poch"
    evening_class = "rummoli.poch:PochEvening"

    def board_names(self, rules: Any) -> list[str]:
        return [p.name for p in rules.pools]

    def words(self, rules: Any) -> list[str]:
        return poch_words(rules)
