"""The refusals a client reads, and the one a room answers by itself (:class:`Moved`)."""

from __future__ import annotations


class ServerError(Exception):
    """A refusal the client should read: ``code`` as in the protocol, ``rule`` when a rule forbids it."""

    def __init__(self, code: str, message: str, rule: str | None = None, seq: int | None = None,
                 status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.rule, self.seq, self.status = code, message, rule, seq, status


class Moved(ServerError):
    """The keeper a command reached was replaced while the command waited (this process took the table over, or
    lost it): the room runs the command again with the keeper it has now (:meth:`Room.command`). A client sees
    it only if the table keeps moving."""

    def __init__(self) -> None:
        super().__init__("unavailable", "this table just moved between server processes; try again", status=503)
