"""Rummoli: the Canadian stops game and its family, played online.

The engines (:mod:`rummoli.cards`, :mod:`rummoli.poker`, :mod:`rummoli.stops`,
:mod:`rummoli.rummy`, :mod:`rummoli.records`) depend on the standard library only.
"""

__version__ = "0.1.0"
