"""The server's settings: where it keeps its data, what it listens on, its limits and its pace.

Every value has a safe default; ``rummoli serve`` sets the few a person changes from its options, and
environment variables (``RUMMOLI_*``) set any of them for deployments.

>>> s = Settings(data_dir=Path("/tmp/x"))
>>> s.database_url
'sqlite:////tmp/x/rummoli.sqlite3'
>>> Settings(data_dir=Path("/tmp/x"), database_url="sqlite:////elsewhere.db").database_url
'sqlite:////elsewhere.db'
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field, fields
from pathlib import Path


def default_data_dir() -> Path:
    """The user's data folder for Rummoli (``$XDG_DATA_HOME/rummoli``, else ``~/.local/share/rummoli``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummoli"


@dataclass
class Settings:
    """Everything the server needs to know before it starts."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = field(default_factory=default_data_dir)
    #: SQLAlchemy URL; empty means the embedded SQLite file ``rummoli.sqlite3`` in ``data_dir``.
    database_url: str = ""
    #: Redis URL. Set, this process is one of several sharing ``database_url`` (PostgreSQL): each table is
    #: driven by one owner process under a lease, and updates fan out over Redis (docs/deploy.md).
    redis_url: str = ""
    #: What every Redis channel and key of this site starts with (two sites on one Redis need two prefixes).
    redis_prefix: str = "rummoli"
    #: Seconds a table's lease lasts; its owner renews it every third of that. A dead owner's tables are
    #: taken over by another process once their leases run out.
    lease_seconds: float = 3.0
    #: This process's name among several (default: host, process id and a random part).
    process_name: str = ""
    #: The address people use to reach the server (``https://cards.example.org``), behind a reverse proxy
    #: or a name; empty: the address it listens on. Requests naming another host are refused and invite
    #: links are made from it (rummoli.server.api.guard).
    public_url: str = ""
    #: Browser origins allowed on the websocket besides the server's own address (``https://example.org``).
    allowed_origins: tuple[str, ...] = ()
    #: Seconds between a bot's turn coming up and its move being shown (so people can follow), for a table
    #: whose creator chose no pace (rummoli.server.tables.schedule).
    bot_pace: float = 1.0
    #: Seconds between forced plays (each its own step, shown one at a time), for a table whose creator chose
    #: no pace; 0: they are made inside the action that caused them, all at once.
    play_pace: float = 0.6
    #: Seconds of the countdown at the end of a hand: the next deal comes when it ends, or sooner when every
    #: person connected has said "next".
    hand_pause: float = 15.0
    #: Seconds a person may be away before a bot plays their seat (until they return).
    grace: float = 60.0
    #: The level of the bot that plays an absent person's seat.
    takeover_level: str = "easy"
    #: Worker processes in which bots decide (0: one per core, at most 4; -1: none, bots decide in a thread).
    bot_workers: int = 0
    #: Seconds a bot may think at most: past it, it answers its best so far.
    bot_deadline: float = 10.0
    #: Worlds per decision for hard bots (a budget in samples, so a decision costs the same on any machine).
    bot_samples: int = 200
    #: Let a table's creator fix the shuffle with a seed (practice and tests; off on a public server).
    allow_seeds: bool = False
    #: Largest websocket message the server reads, in bytes (bigger ones get an error and change nothing).
    max_message: int = 8192
    #: Messages a client may send per second on average, and in one burst.
    rate: float = 10.0
    burst: int = 30
    #: Websockets one address may hold open at once (0: no limit). Behind a reverse proxy every client has
    #: the proxy's address: limit per client in the proxy there, and set this to 0.
    max_connections_per_ip: int = 32
    #: Connections one address may hold open at once, plain HTTP and websockets together (0: no limit); one
    #: more is answered 429 and closed at once (rummoli.server.gate). A trusted proxy is never refused.
    max_open_per_ip: int = 64
    #: Seconds a connection has to send a whole request (headers and body) after it opens or after its
    #: previous answer, and a websocket to finish its handshake; then it is closed.
    request_timeout: float = 15.0
    #: Seconds an idle keep-alive connection stays open after an answer (uvicorn's ``timeout_keep_alive``).
    keep_alive: float = 5.0
    #: Addresses of reverse proxies whose ``X-Forwarded-For`` names the client (rummoli.server.api.limits).
    #: Without them, behind a proxy every client has the proxy's address and shares its limits.
    trusted_proxies: tuple[str, ...] = ()
    #: Tables one address may create per second on average, and in one burst; and how many of its tables may
    #: wait for players at once (0: no limit).
    table_rate: float = 0.2
    table_burst: int = 10
    max_waiting_per_ip: int = 10
    #: Requests per second on average, and in one burst, one address may make to the endpoints that write or
    #: cost CPU (seats, start and end, history, records, replays), all together.
    request_rate: float = 5.0
    request_burst: int = 30
    #: Longest display name, in characters.
    max_name: int = 24
    #: Compress websocket messages (permessage-deflate): fewer bytes on a slow link, more CPU per update.
    ws_deflate: bool = False
    #: A finished evening stays in memory while watched and ``over_keep`` seconds after, and at most
    #: ``over_cap`` finished ones stay (the longest unwatched leave first); the store keeps them all.
    over_keep: float = 300.0
    over_cap: int = 200
    #: A table still waiting for players that nobody has been connected to for ``waiting_keep`` seconds leaves
    #: the lobby (it is closed); an evening in play with no person connected for ``idle_end`` seconds ends (the
    #: hand in play is finished by the bots, no new one is dealt): bots never play on alone.
    waiting_keep: float = 1800.0
    idle_end: float = 600.0
    #: Chat lines one seat may write per second on average, and in one burst.
    chat_rate: float = 0.5
    chat_burst: int = 5
    #: Most tables that may be in play at once (creating more answers 503).
    max_tables: int = 5000
    #: Seconds between freezing the long-lived objects out of the garbage collector's way (0: never), and
    #: between full sweeps that find garbage among them (0: never); see rummoli.server.heap.
    gc_freeze: float = 1.0
    gc_sweep: float = 3600.0
    #: uvicorn's event loop: ``auto`` (uvloop, which the server depends on, where it installs) or ``asyncio``.
    event_loop: str = "auto"

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        if not self.database_url:
            self.database_url = f"sqlite:///{self.data_dir / 'rummoli.sqlite3'}"
        if not self.process_name:
            self.process_name = f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"

    @classmethod
    def from_env(cls, **given: object) -> Settings:
        """Settings from ``RUMMOLI_<NAME>`` environment variables, overridden by ``given`` (not ``None``)."""
        values: dict[str, object] = {}
        defaults = cls(data_dir=Path("."))
        for f in fields(cls):
            raw = os.environ.get(f"RUMMOLI_{f.name.upper()}")
            if raw is None:
                continue
            kind = type(getattr(defaults, f.name))
            if kind is bool:
                values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
            elif kind is tuple:
                values[f.name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            elif kind in (int, float):
                values[f.name] = kind(raw)
            elif f.name == "data_dir":
                values[f.name] = Path(raw)
            else:
                values[f.name] = raw
        values.update({k: v for k, v in given.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
