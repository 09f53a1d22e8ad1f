"""The game server: ``rummoli serve``. Its floors, each importing only those below it:

* :mod:`~rummoli.server.api` -- what clients speak to: the FastAPI application, one websocket client, the
  protocol's models, the page's routes and replays;
* :mod:`~rummoli.server.tables` -- the tables this process holds: each one's room and host (changes stored,
  then told), its schedule (bots, forced plays, deals, clocks), the registry, the fan-out to clients;
* :mod:`~rummoli.server.storage` -- the database: the store, its writing thread, the schema and migrations;
* :mod:`~rummoli.server.cluster` -- several processes (leases, follower copies, the bus), an add-on to the
  tables that only ``--redis-url`` brings in.

Beside them: :mod:`~rummoli.server.settings`, :mod:`~rummoli.server.rulesets` (rulesets in words),
:mod:`~rummoli.server.jsontext`, :mod:`~rummoli.server.heap` (the garbage collector's pauses), and
:mod:`~rummoli.server.run`, which starts the application on uvicorn.
"""
