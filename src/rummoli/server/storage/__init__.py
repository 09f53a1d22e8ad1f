"""The server's memory: the store (rows, changes, snapshots, the leases' columns), its writing thread, its own
PostgreSQL line for the statements run many times a second, the schema and the Alembic migrations."""
