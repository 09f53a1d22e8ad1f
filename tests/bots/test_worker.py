"""Bots a server can run: decisions in worker processes keep the bot's memory; deadlines; snapshots of bots."""

from __future__ import annotations

import copy
import random
import time

import pytest

from rummoli.bots.base import make_bot
from rummoli.bots.worker import BotWorkers, _warm_up, decide
from rummoli.table import Seat, Table


def table_at_a_bot_decision(ruleset: str, level: str) -> Table:
    n = 2 if ruleset == "gin-rummy" else 4
    table = Table(ruleset, [Seat(f"B{i}", level, seed=i) for i in range(n)], seed="worker", samples=4, hands=3)
    rng = random.Random(1)
    # play a hand and a bit, so the bots have seen a hand end and remember it
    while table.hand_no < 2 or rng.random() < 0.9:
        if table.hand_over:
            table.next_hand()
        else:
            table.step()
    return table


@pytest.mark.parametrize(("ruleset", "level"), [("rummoli", "hard"), ("rummoli", "normal"), ("gin-rummy", "hard")])
def test_a_decision_in_a_worker_is_the_one_made_here_and_the_bot_comes_back_with_its_memory(
        ruleset: str, level: str) -> None:
    table = table_at_a_bot_decision(ruleset, level)
    seat = table.bot_due()
    assert seat is not None
    bot = table.bots[seat]
    assert bot is not None
    here_choice, here_bot = decide(copy.deepcopy(bot), table.bot_view(seat))
    with BotWorkers(1) as workers:
        choice, back = workers.submit(bot, table.bot_view(seat)).result(timeout=120)
    assert choice == here_choice
    assert back is not bot and back.state() == here_bot.state()  # generator and memory went on alike
    if level == "normal" and ruleset == "rummoli":
        assert back.state()["memory"]["record"] or back.state()["memory"] == bot.state()["memory"]
    table.apply_bot_choice(seat, choice, back)
    assert table.bots[seat] is back


def test_a_deadline_makes_a_searching_bot_answer_its_best_so_far() -> None:
    table = Table("rummoli", [Seat(f"B{i}", "hard", seed=i) for i in range(4)], seed="deadline", samples=10**7)
    table.bots = [make_bot("stops", "easy", i) if i else b for i, b in enumerate(table.bots)]
    while table.bot_due() != 0 or table.view(None)["hand"]["phase"] not in ("poker", "play", "auction"):
        if table.hand_over:
            table.next_hand()
        else:
            table.play_bot()
    bot = table.bots[0]
    assert bot is not None
    started = time.perf_counter()
    choice, back = decide(bot, table.bot_view(0), deadline=time.time() + 0.3)
    # Ten million worlds would take hours; the deadline ends the search after a fraction of a second.
    assert time.perf_counter() - started < 30
    assert back.deadline is None and choice["seat"] == table.view(None)["hand"]["to_act"][0]
    table.apply_bot_choice(0, choice, back)


def test_apply_bot_choice_refuses_a_seat_whose_bot_is_not_due() -> None:
    from rummoli.errors import IllegalAction

    table = Table("rummy", [Seat("A", "easy"), Seat("B", "easy")], seed="due", dealer=1)
    with pytest.raises(IllegalAction):
        table.apply_bot_choice(1, {"action": "draw", "from": "stock"})


def test_a_worker_that_gives_no_answer_is_replaced_and_the_next_decisions_are_answered() -> None:
    import asyncio

    from rummoli.bots.worker import NoAnswer

    table = Table("rummoli", [Seat(f"B{i}", "easy", seed=i) for i in range(4)], seed="stuck")
    while table.bot_due() != 0 or table.view(None)["hand"]["phase"] not in ("poker", "play", "auction"):
        table.next_hand() if table.hand_over else table.play_bot() if table.bot_due() else table.step()
    view = table.bot_view(0)
    stuck = make_bot("stops", "hard", 0, samples=10**7)  # only the bot under test thinks for hours

    async def run() -> None:
        with BotWorkers(1) as workers:
            before = list(workers.slots)
            started = time.perf_counter()
            with pytest.raises(NoAnswer):  # ten million worlds and no deadline: it would think for hours
                await workers.decide(stuck, view, seconds=None, wait=1.0)
            assert time.perf_counter() - started < 5
            assert workers.replaced == 1 and workers.slots != before
            assert workers.slots[0].warm is not None  # the replacement starts at once, not at the next decision
            choice, _ = await workers.decide(make_bot("stops", "hard", 1, samples=5), view, seconds=30)
            assert choice["seat"] == view["seat"]
            choice, _ = await workers.decide(make_bot("stops", "easy", 1), view, seconds=30)  # the quick worker
            assert choice["seat"] == view["seat"]

    asyncio.run(run())


def test_a_starting_worker_is_waited_for_and_its_start_up_is_not_counted_against_the_decision() -> None:
    """A worker starts when first needed (a new process that imports the bots); a decision given to it meanwhile
    waits for the start-up, and its own time begins after: on a loaded machine a start-up counted against a 0.5 s
    deadline gave no answer, and so did the replacement's, until the table was paused (seen in CI)."""
    import asyncio

    table = Table("rummoli", [Seat(f"B{i}", "easy", seed=i) for i in range(4)], seed="start-up")
    while table.bot_due() is None:
        table.step()
    seat = table.bot_due()
    assert seat is not None
    view = table.bot_view(seat)

    async def run() -> None:
        with BotWorkers(1) as workers:
            quick = workers._slot(quick=True)
            assert quick.warm is None and workers.slots[0].warm is None  # nothing started before it is needed
            quick.pool.submit(_warm_up)  # the bots imported, then a start-up that takes a second more
            quick.warm = quick.pool.submit(time.sleep, 1.0)
            started = time.perf_counter()
            choice, _ = await workers.decide(make_bot("stops", "easy", 1), view, seconds=0.05, wait=1.0)
            assert time.perf_counter() - started >= 1.0 and workers.replaced == 0
            assert choice["seat"] == seat
            # A worker's own start-up imports every family's bots before its first decision.
            modules = await asyncio.wrap_future(workers.slots[0].started())
            assert {"rummoli.bots.stops_search", "rummoli.bots.rummy_search", "rummoli.bots.poch_bots"} <= set(modules)

    asyncio.run(run())


def test_a_long_job_aside_runs_below_the_bots_never_delays_them_and_is_ended_when_stuck() -> None:
    """The coach's reviews run in the aside worker (issue 37): a worker of the bot workers kept for long jobs,
    niced below the server; a bot's decision is answered while a job runs there, and a job past its wait is
    ended with its worker."""
    import asyncio
    import os

    from rummoli.bots.worker import ASIDE_NICE, NoAnswer

    table = table_at_a_bot_decision("rummoli", "normal")
    view = table.bot_view(table.bot_due())

    async def run() -> None:
        with BotWorkers(1) as workers:
            assert await workers.run_aside(os.nice, 0, wait=30) == os.nice(0) + ASIDE_NICE
            first = await workers.run_aside(os.getpid, wait=30)
            assert first not in {os.getpid()}
            long_job = asyncio.ensure_future(workers.run_aside(time.sleep, 3.0, wait=30))
            await asyncio.sleep(0.5)
            started = time.perf_counter()
            choice, _ = await workers.decide(make_bot("stops", "hard", 1, samples=5), view, seconds=30)
            assert choice["seat"] == view["seat"]
            assert time.perf_counter() - started < 2.0 and not long_job.done()
            await long_job

            started = time.perf_counter()
            with pytest.raises(NoAnswer):
                await workers.run_aside(time.sleep, 60.0, wait=1.0)
            assert time.perf_counter() - started < 5
            assert await workers.run_aside(os.getpid, wait=30) != first  # a new worker in its place

    asyncio.run(run())


def test_closed_workers_let_their_queues_go_and_take_no_more_decisions() -> None:
    """A server stopped by a signal ends without finalizers, so the workers' queues (and their semaphores, which
    multiprocessing's tracker otherwise reports as leaked) are let go at close; nothing new is started after it."""
    import asyncio
    import weakref

    workers = BotWorkers(1)
    view = {"legal_actions": [{"seat": 0, "action": "keep"}]}
    choice, _ = asyncio.run(workers.decide(make_bot("stops", "easy", 1), view, seconds=5))
    assert choice == {"seat": 0, "action": "keep"}
    assert workers.quick is not None
    queues = [weakref.ref(slot.pids) for slot in (*workers.slots, workers.quick)]
    workers.close()
    assert [queue() for queue in queues] == [None, None]  # gone, with their semaphores
    with pytest.raises(RuntimeError, match="closed"):
        workers.submit(make_bot("stops", "easy", 1), view)
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(workers.decide(make_bot("stops", "easy", 1), view))
    assert workers.quick is None and workers.slots == []  # no worker was started for them
    workers.close()  # twice is harmless
