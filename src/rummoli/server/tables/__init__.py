"""The tables a process holds: each table's room (its lock, its clients, what every client reads), the host that
drives it (changes stored, then told), its schedule (bots, forced plays, deals, the countdown, clocks), the
registry of rooms, the placement that says where each table is driven (here, for a single process), and the
fan-out to its clients (the hub, the update texts).

A single process runs these alone; rummoli.server.cluster adds several processes on top, and nothing here
imports it.
"""
