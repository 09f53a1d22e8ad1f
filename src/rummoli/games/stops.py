"""The stops family: Rummoli, Tripoley and Michigan (:mod:`rummoli.stops`)."""

from __future__ import annotations

from typing import Any

from rummoli.games.family import BoardFamily

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
        "lowest_overall": "A lead is the lowest card you hold, whatever its suit.",
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


def stops_words(rules: Any) -> list[str]:
    """A stops ruleset's board and options in words."""
    lines = [f"Board: {rules.board.title}: "
             + ", ".join(f"{p.name} (ante {p.ante})" for p in rules.board.pots) + "."]
    for option, words in STOPS_WORDS.items():
        text = words.get(str(getattr(rules, option)), "")
        if option == "poker" and rules.poker == "before_play":
            text += f" At most {rules.max_bet} chips a bet, {rules.max_raises} raises a round."
        if text:
            lines.append(text)
    return lines


class StopsFamily(BoardFamily):
    name = "stops"
    engine = "rummoli.stops"
    evening_class = "rummoli.evening:StopsEvening"

    def board_names(self, rules: Any) -> list[str]:
        return [p.name for p in rules.board.pots]

    def words(self, rules: Any) -> list[str]:
        return stops_words(rules)
