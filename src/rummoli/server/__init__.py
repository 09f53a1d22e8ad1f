"""The game server: ``rummoli serve``.

* :mod:`~rummoli.server.settings` -- where the data lives, limits, pace;
* :mod:`~rummoli.server.protocol` -- every message, as pydantic models, and their JSON Schema;
* :mod:`~rummoli.server.store`, :mod:`~rummoli.server.schema`, ``migrations/`` -- the database (SQLAlchemy 2,
  Alembic migrations applied at start);
* :mod:`~rummoli.server.tables.host` -- tables in play: changes stored before anyone is told, bots, clocks;
* :mod:`~rummoli.server.tables.hub` -- fan-out of "this table changed" to its clients;
* :mod:`~rummoli.server.connection` -- one websocket client;
* :mod:`~rummoli.server.workers` -- bots decide in worker processes;
* :mod:`~rummoli.server.app` -- the FastAPI application; :mod:`~rummoli.server.run` starts it on uvicorn.
"""
