"""Several server processes on one PostgreSQL database and one Redis (``rummoli serve --redis-url``;
docs/deploy.md): the placement over fenced leases (:class:`Cluster`), follower copies of the tables other
processes drive, forwarded commands, the bus and its Redis connections, the liveness locks that tell of a death,
and the upkeep that renews leases and takes free tables. Imported only when a Redis URL is given: a single
process runs rummoli.server.tables alone.
"""

from rummoli.server.cluster.placement import Cluster

__all__ = ["Cluster"]
