"""Computer opponents for the Rummy family (straight Rummy and its variants, 500 Rum, Knock Rummy).

>>> from rummoli.bots import make_bot
>>> from rummoli.bots.driver import play_out
>>> from rummoli.rummy import RummyGame
>>> hand = RummyGame("rummy", ["Ann", "Bob"], seed=4).deal()
>>> play_out(hand, [make_bot("rummy", "easy", seed=1), make_bot("rummy", "normal", seed=2)])
>>> hand.over
True

Every level reads only the view it is handed (:func:`rummoli.bots.rummy_view.read_view`):

- ``easy`` -- rules of thumb (:mod:`rummoli.bots.rummy_policy`);
- ``normal`` -- the same with counting: live and dead cards, opponents' collections, a judged knock;
- ``hard`` -- determinized Monte-Carlo search (:mod:`rummoli.bots.rummy_search`) over the draw and
  the discard (or knock), melds following the normal plan, in worlds weighed by what the others chose
  (Gin: :mod:`rummoli.bots.rummy_infer`); in Gin its discard adds to the normal race
  reckoning the weighed chance of feeding the next player; ``budget`` seconds per decision, or a fixed
  number of sampled worlds (``samples``) for reproducible tournaments.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummoli.bots.base import ActionJSON, Bot, View, register
from rummoli.bots.rummy_policy import choose, lay_off_names
from rummoli.bots.rummy_search import HardRummyBot
from rummoli.bots.rummy_view import read_view


class _PolicyBot(Bot):
    """A bot that follows the turn plan of :mod:`rummoli.bots.rummy_policy`, counting or not."""

    game = "rummy"
    counting = False
    reads_words = False

    def choose(self, view: View) -> ActionJSON:
        return choose(read_view(view), counting=self.counting)

    def lay_off(self, view: View, knocker: Sequence[Sequence[str]]) -> list[str]:
        """After the other player's Gin knock, in an engine where the defender lays off by hand: the cards of
        the view's hand this bot lays off on the ``knocker``'s melds (card names)."""
        return lay_off_names(view, knocker, self.counting)


@register
class EasyRummyBot(_PolicyBot):
    """Rules of thumb: take the discard only for a meld, shed the dearest deadwood, do not feed the next player."""

    level = "easy"


@register
class NormalRummyBot(_PolicyBot):
    """Rules of thumb plus counting: live outs for partial melds, opponents' collections, judged knocks."""

    level = "normal"
    counting = True


register(HardRummyBot)
