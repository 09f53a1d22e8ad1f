"""Kept only until ``rummoli.server.web`` imports :func:`hand_from_record` from the package (``from rummoli.rummy
import hand_from_record``): Rummy's replays are :mod:`rummoli.rummy.replay`, as the stops engine's are.  Delete
this module then; nothing else imports it.
"""

from rummoli.rummy.replay import hand_from_record

__all__ = ["hand_from_record"]
