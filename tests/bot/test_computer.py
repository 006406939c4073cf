"""The computer thinks in a worker process: legal decisions for every question, a busy
worker never stops the event loop, and the game flow plays its decisions back."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from bot.computer import ComputerPool, decide
from bot.game import flow
from bot.game.decisions import Decision
from bot.game.table import COMPUTER_ID, Player, Table
from engine import DecisionKind, GameState, MatchConfig, Phase, Variant
from engine.serialize import to_dict


class Dice:
    def __init__(self, *rolls: tuple[int, int], dice: tuple[int, ...] = ()) -> None:
        self.rolls = list(rolls)
        self.dice = list(dice)

    def roll(self) -> tuple[int, int]:
        return self.rolls.pop(0)

    def die(self) -> int:
        return self.dice.pop(0)


@pytest.fixture(scope="module")
def pool() -> Iterator[ComputerPool]:
    p = ComputerPool(1)
    yield p
    p.close()


def computer_table(variant: Variant = Variant.CLASSIC, length: int = 1) -> Table:
    return Table(
        GameState.new_match(MatchConfig(variant, length)),
        (Player(7, "Anna"), Player(COMPUTER_ID, "Computer")),
        ai_level="difficile",
        turn_seconds=None,
    )


def computer_to_move(variant: Variant) -> Table:
    """The opening won by the computer (in long the winner then rolls afresh)."""
    table = flow.advance(computer_table(variant), Dice((6, 4), dice=(2, 6)))
    assert flow.computer_question(table) is DecisionKind.PLAY
    return table


@pytest.mark.parametrize("variant", list(Variant))
async def test_the_worker_chooses_a_legal_play(pool: ComputerPool, variant: Variant) -> None:
    table = computer_to_move(variant)
    decision = await pool.decide(table.state, "difficile", seed=1)
    assert decision.kind is DecisionKind.PLAY
    assert decision.play is not None
    assert decision.play.key in {p.key for p in table.state.legal_plays()}
    after = flow.apply_decision(table, decision, Dice())
    assert after.actor.user_id == 7  # the turn passed to the person
    assert after.state.last_play is not None
    assert after.state.last_play.steps == decision.play.steps


async def test_the_event_loop_runs_while_the_computer_thinks(pool: ComputerPool) -> None:
    table = computer_to_move(Variant.LONG)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    try:
        await pool.decide(table.state, "difficile", seed=2)
    finally:
        task.cancel()
    assert ticks > 1  # other work ran between sending the question and its answer


async def test_the_decision_is_made_in_another_process(pool: ComputerPool) -> None:
    pid = await pool.run(60.0, os.getpid)
    assert pid != os.getpid()


async def test_cube_questions_are_answered_yes_or_no(pool: ComputerPool) -> None:
    state = GameState.new_match(MatchConfig(Variant.CLASSIC, 5)).roll_opening(6, 1)
    state = state.play(state.legal_plays()[0])  # White played; Black may double
    assert state.phase is Phase.ROLL and state.cube_available
    double = await pool.decide(state, "medio", seed=3)
    assert double.kind is DecisionKind.DOUBLE
    offered = state.double()
    take = await pool.decide(offered, "medio", seed=3)
    assert take.kind is DecisionKind.TAKE
    # Early in a game a double is a clear take.
    assert take.yes is True


async def test_a_decision_past_its_budget_falls_back_to_a_legal_one() -> None:
    slow = ComputerPool(1, budget=0.000001)
    try:
        table = computer_to_move(Variant.CLASSIC)
        decision = await slow.decide(table.state, "difficile", seed=4)
    finally:
        slow.close()
    assert decision.kind is DecisionKind.PLAY and decision.play is not None
    assert decision.play.key in {p.key for p in table.state.legal_plays()}


def test_decide_inline_matches_the_questions() -> None:
    table = computer_to_move(Variant.CLASSIC)
    decision = decide(to_dict(table.state), "medio", 5)
    assert isinstance(decision, Decision) and decision.kind is DecisionKind.PLAY


async def test_the_workers_think_at_a_lower_priority_than_the_bot(pool: ComputerPool) -> None:
    """Answering presses comes first: the workers run niced, once (forked niced from the
    fork server, they are not niced again)."""
    from bot.fork_server import WORKER_NICENESS

    niceness = await pool.run(60.0, os.nice, 0)
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)


def _worker_threads() -> tuple[dict[str, str], int, int]:
    """In a worker: the BLAS settings it got, its native threads after numpy's matrix
    product ran, and the threads Python knows of (a BLAS pool adds native ones)."""
    import threading

    import numpy as np

    from bot.fork_server import BLAS_THREAD_VARIABLES

    matrix = np.ones((64, 64))
    _ = matrix @ matrix
    with open("/proc/self/status") as status:
        native = next(int(line.split()[1]) for line in status if line.startswith("Threads:"))
    settings = {name: os.environ.get(name, "") for name in BLAS_THREAD_VARIABLES}
    return settings, native, threading.active_count()


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="counts threads in /proc")
async def test_each_worker_runs_one_blas_thread(pool: ComputerPool) -> None:
    settings, native, python = await pool.run(30.0, _worker_threads)
    assert settings == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    assert native == python  # no BLAS thread pool beside the worker's own threads


async def test_each_decision_time_is_a_metric_by_level(pool: ComputerPool) -> None:
    from prometheus_client import REGISTRY

    def count() -> float:
        labels = {"level": "medio"}
        return REGISTRY.get_sample_value("tavola_computer_decision_seconds_count", labels) or 0.0

    before = count()
    await pool.decide(computer_to_move(Variant.CLASSIC).state, "medio", seed=1)
    assert count() == before + 1


def _forked_from_preloaded_server() -> bool:
    """In a worker: was it forked from a fork server that had the networks loaded and a
    decision made (``bot.computer_preload``)?"""
    import sys

    return "bot.computer_preload" in sys.modules


async def test_workers_are_forked_with_the_engine_and_networks_loaded(pool: ComputerPool) -> None:
    """A worker starts ready: the first game against the computer waits for no import."""
    assert await pool.run(30.0, _forked_from_preloaded_server)


def _answer_after(seconds: float, answer: str) -> tuple[int, str]:
    """In a worker: ``answer`` (and the worker's pid) after ``seconds``."""
    import time

    time.sleep(seconds)
    return os.getpid(), answer


async def test_a_call_whose_worker_dies_is_run_again_by_a_fresh_one() -> None:
    import signal

    lone = ComputerPool(1)
    try:
        first, _ = await lone.run(60.0, _answer_after, 0.0, "ready")
        call = asyncio.create_task(lone.run(60.0, _answer_after, 1.0, "done"))
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)  # killed mid-call (out of memory, an operator)
        second, answer = await call
    finally:
        lone.close()
    assert answer == "done" and second != first


async def test_an_answer_past_its_budget_is_not_taken_for_the_next_call() -> None:
    lone = ComputerPool(1)
    try:
        with pytest.raises(TimeoutError):
            await lone.run(0.2, _answer_after, 0.6, "late")
        _, answer = await lone.run(30.0, _answer_after, 0.0, "next")
    finally:
        lone.close()
    assert answer == "next"


async def test_an_error_in_the_worker_reaches_the_caller(pool: ComputerPool) -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        await pool.run(30.0, int, "not a number")
    assert await pool.run(30.0, int, "7") == 7  # and the worker goes on serving


async def test_a_stopped_pool_starts_no_more_workers() -> None:
    from concurrent.futures import BrokenExecutor

    stopped = ComputerPool(1)
    await stopped.run(60.0, _answer_after, 0.0, "ready")
    stopped.close()
    with pytest.raises(BrokenExecutor):
        await stopped.run(30.0, _answer_after, 0.0, "after the stop")
    assert stopped._procs == []


async def test_a_worker_killed_while_idle_is_replaced_before_the_next_call() -> None:
    import signal

    lone = ComputerPool(1)
    try:
        first, _ = await lone.run(60.0, _answer_after, 0.0, "ready")
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.5)  # its pipe closes: the pool notices while it waits
        second, answer = await lone.run(60.0, _answer_after, 0.0, "again")
    finally:
        lone.close()
    assert answer == "again" and second != first
