"""The coach on the server (issue 37): a finished hand reviewed from one seat's chair, off the play path.

``GET /api/tables/{id}/hands/{n}/review`` reviews a finished hand of a table for the seat whose token is sent
(``?seat=N`` may name another of the hand's seats only once the evening is over, when ``?open=1`` would show
that seat's cards anyway); ``POST /api/review?seat=N`` reviews an uploaded ``rummoli-hand/1`` record (which
holds every card already, like ``POST /api/replay``).  Either way the coach reads only that seat's view at each
decision (:mod:`rummoli.coach`), never the record's hidden cards.

A review takes seconds of CPU, so it never runs in the server's event loop: it runs among the server's bot
workers, in the one kept for long jobs beside the play (:meth:`rummoli.bots.worker.BotWorkers.run_aside`),
started when first needed at a lower priority than the server and the workers that decide for bots, so that a
table's bots never wait behind a review.  At most ``RUMMOLI_REVIEW_QUEUE`` (4)
reviews wait or run at once; one more is refused at once with ``503``.  ``RUMMOLI_REVIEW_BUDGET``
sets the seconds of search per decision (the coach's default, 0.25).
"""

from __future__ import annotations

import os
from typing import Annotated, Any

from fastapi import Body, Header, Query

from rummoli.bots.worker import BotWorkers, NoAnswer
from rummoli.coach import DEFAULT_BUDGET
from rummoli.coach import review as review_hand
from rummoli.errors import MalformedInput
from rummoli.records import RecordError
from rummoli.server.api.web import finished_record

#: the most seconds a review may take before the server gives up waiting for it
WAIT = 120.0


def _env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def review_in_worker(record: dict[str, Any], seat: int, budget: float, seen: bool = False) -> dict[str, Any]:
    """In the worker: the review, or ``{"error": {"message", "rule"}}`` for a bad record or seat (an error
    object travels back as plain data, its index and rule kept). ``seen``: a table's hand, whose decisions are
    numbered as the seat's own stream numbers the actions (:func:`rummoli.coach.review`)."""
    try:
        return review_hand(record, seat, budget, seen=seen)
    except RecordError as error:
        where = f"action {error.index}: " if error.index is not None else ""
        return {"error": {"message": f"{where}{error.message}"[:200], "rule": error.rule}}
    except MalformedInput as error:
        return {"error": {"message": str(error)[:200], "rule": None}}


class Reviews:
    """The bounded queue of reviews, made in the server's aside bot worker (:meth:`use` names the server's
    workers; a server that decides for its bots in-process gets workers of the reviews' own)."""

    def __init__(self, queue: int | None = None, budget: float | None = None) -> None:
        self.most = max(1, int(_env_number("RUMMOLI_REVIEW_QUEUE", 4) if queue is None else queue))
        self.budget = max(0.01, min(30.0, _env_number("RUMMOLI_REVIEW_BUDGET", DEFAULT_BUDGET)
                                    if budget is None else budget))
        self.workers: BotWorkers | None = None
        self.own_workers = False
        self.waiting = 0

    def use(self, workers: BotWorkers | None) -> None:
        """Make the reviews in ``workers``, the server's bot workers."""
        self.workers = workers

    async def run(self, record: dict[str, Any], seat: int, server_error: Any, seen: bool = False) -> dict[str, Any]:
        """The coach's review of ``record`` from ``seat``, made in the worker (``seen``: see
        :func:`review_in_worker`)."""
        if self.waiting >= self.most:
            raise server_error("unavailable", f"the coach is busy with {self.waiting} reviews; try again in a "
                               "few seconds", status=503)
        self.waiting += 1
        try:
            if self.workers is None:
                self.workers, self.own_workers = BotWorkers(1), True
            result = await self.workers.run_aside(review_in_worker, record, seat, self.budget, seen, wait=WAIT)
        except NoAnswer:
            raise server_error("unavailable", "the coach gave no answer in time; try again", status=503) from None
        finally:
            self.waiting -= 1
        problem = result.get("error")
        if problem is not None:
            raise server_error("malformed", problem["message"], rule=problem["rule"])
        return result

    def close(self) -> None:
        """End the workers the reviews started themselves (the server's own are the server's to close)."""
        workers, self.workers = self.workers, None
        if workers is not None and self.own_workers:
            workers.close()


def add_review_routes(app: Any, table_of: Any, seat_of: Any, server_error: Any, reviews: Reviews) -> None:
    """The two review endpoints (see the module)."""

    @app.get("/api/tables/{table_id}/hands/{hand_no}/review", summary="Review a finished hand", tags=["history"])
    async def table_review(table_id: str, hand_no: int, authorization: Annotated[str | None, Header()] = None,
                           seat: Annotated[int | None, Query()] = None) -> dict[str, Any]:
        """The coach's review of a finished hand of this table from your seat (send your seat token): each
        decision, its choices with expected chips or points and 95% intervals, the coach's preferred choice
        and the cost of each mistake. `seat` may name another seat of the hand only once the evening is
        over. `401`/`403` without a token of the table (or for another seat during the evening), `409`
        while the hand is in play, `503` when the coach is busy."""
        room = await table_of(table_id)
        own = seat_of(room, authorization)
        over = room.over
        record, seats = await finished_record(room, hand_no, server_error)
        wanted = own if seat is None else seat
        if wanted != own and not over:
            raise server_error("unauthorized", "a review is of your own seat while the evening goes on",
                               status=403)
        if wanted not in seats:
            raise server_error("unauthorized", "that seat did not play this hand", status=403)
        # Numbered as the seat's stream numbers the actions: the record leaves forced moves out, and its numbers
        # would tell how many of the others' moves were forced, which their hidden cards decide (R-VIEW-1).
        result = await reviews.run(record, seats.index(wanted), server_error, seen=True)
        return {**result, "hand_no": hand_no, "table": table_id}

    @app.post("/api/review", summary="Review an uploaded hand record", tags=["history"])
    async def uploaded_review(record: Annotated[dict[str, Any], Body()], seat: int = 0) -> dict[str, Any]:
        """The coach's review of a `rummoli-hand/1` record (at most 32 KiB) from `seat`'s chair (0 unless
        given). A bad record or seat is one line."""
        return await reviews.run(record, seat, server_error)
