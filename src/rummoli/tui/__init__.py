"""The terminal table: ``rummoli play``, every game against computer players, built with Textual.

* :mod:`~rummoli.tui.tables` -- the evening: engine, bots, pacing steps and hand records (no Textual);
* :mod:`~rummoli.tui.cardtext` -- cards as text: suit symbols or letters, colours, suit orders;
* :mod:`~rummoli.tui.narrate` -- public events as lines of the game log;
* :mod:`~rummoli.tui.widgets` -- the action bar (legal actions by keyboard) and the panels;
* :mod:`~rummoli.tui.stops_screen`, :mod:`~rummoli.tui.rummy_screen` -- each family's table;
* :mod:`~rummoli.tui.app` -- the application: keys, the bots' pace, the end of a hand and of the evening.

The screens draw from the human seat's *view* (``hand.view(0)`` through a JSON round trip) and never
from the state, so no hidden card can reach the terminal.
"""
