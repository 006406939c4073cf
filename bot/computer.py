"""The computer opponent's thinking, off the event loop.

A Difficile move can take a second of CPU; done on the event loop it would freeze every
other chat. So each decision runs in a worker process (a small pool of processes that
load the networks once), the handler awaits it, and other chats are served
meanwhile. A decision has a time budget: past it, the computer falls back to the cheaper
Medio choice, and if even that does not come back, to the first legal play, so a game can
never hang on a stuck worker.

The state travels as the engine's JSON document (small and version-checked) and comes back
as an engine ``Play`` or a yes/no cube answer.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any, TypeVar

from bot.fork_server import WORKER_NICENESS
from bot.game.decisions import Decision, ResignQuestion
from bot.process_pool import ProcessPool
from engine import DecisionKind, GameState, Phase, Side, from_dict, to_dict
from engine.ai import CheckerHint, CubeHint

log = logging.getLogger(__name__)

DEFAULT_BUDGET_SECONDS = 5.0
FALLBACK_LEVEL = "medio"
#: How many plays a hint shows.
HINT_PLAYS = 3
_R = TypeVar("_R")


def decide(
    doc: dict[str, Any], level_name: str, seed: int, offer: ResignQuestion | None = None
) -> Decision:
    """One decision for the side on turn, or the answer to ``offer`` when one is put (the
    computer may be asked whoever is on turn). Runs in a worker process (also inline)."""
    from engine.ai import Level, accept_double, accept_resignation, choose_play, cube_decision

    state = from_dict(doc)
    level = Level(level_name)
    if offer is not None:
        yes = accept_resignation(state, Side(offer.resigner), offer.points, level)
        return Decision(DecisionKind.RESIGN, yes=yes)
    if state.phase is Phase.MOVE:
        return Decision(DecisionKind.PLAY, play=choose_play(state, level, random.Random(seed)))
    if state.phase is Phase.DOUBLED:
        return Decision(DecisionKind.TAKE, yes=accept_double(state, level))
    if state.phase is Phase.ROLL:
        return Decision(DecisionKind.DOUBLE, yes=cube_decision(state, level))
    raise ValueError(f"the computer has nothing to decide in phase {state.phase.value}")


def suggest(doc: dict[str, Any], n: int = HINT_PLAYS) -> CheckerHint:
    """The ``n`` best plays for the roll of the state ``doc`` (in Phase.MOVE; the steps
    already made are ignored), valued at the match score and the cube, best first. Runs in
    a worker process."""
    from engine.ai import checker_hint

    return checker_hint(from_dict(doc), n)


def suggest_cube(doc: dict[str, Any]) -> CubeHint:
    """The proper cube action for the side on turn of the state ``doc`` (about to roll with
    the cube available, or doubled), with its equities. Runs in a worker process."""
    from engine.ai import cube_hint

    return cube_hint(from_dict(doc))


def _warm_engine() -> None:
    """Load the networks and the bear-off database once, before a worker's first decision
    (nothing to do when the fork server had them)."""
    from engine.ai import warm_up

    warm_up()


def default_workers() -> int:
    """Leave one core to the event loop (Telegram I/O, rendering threads)."""
    return max(1, (os.cpu_count() or 2) - 1)


class ComputerPool(ProcessPool):
    """A pool of worker processes that make the computer's decisions (``bot.process_pool``:
    one pipe per worker, watched by the event loop; forked from the fork server, which has
    the engine and its networks loaded, so a worker is ready as soon as it is forked). The
    workers run at a lower priority than the bot (``WORKER_NICENESS``)."""

    def __init__(
        self, workers: int | None = None, *, budget: float = DEFAULT_BUDGET_SECONDS
    ) -> None:
        super().__init__(
            workers or default_workers(),
            warm=_warm_engine,
            niceness=WORKER_NICENESS,
            what="computer worker",
        )
        self.budget = budget

    async def decide(
        self, state: GameState, level: str, seed: int, offer: ResignQuestion | None = None
    ) -> Decision:
        """The computer's decision for ``state`` (or its answer to ``offer``), within the
        time budget; its wall time is a metric, by level."""
        from bot.adapters import metrics  # not in the workers: they import this module too

        started = time.monotonic()
        try:
            return await self._decide(state, level, seed, offer)
        finally:
            metrics.DECISION_SECONDS.labels(level).observe(time.monotonic() - started)

    async def _decide(
        self, state: GameState, level: str, seed: int, offer: ResignQuestion | None
    ) -> Decision:
        doc = to_dict(state)
        try:
            return await self._run(doc, level, seed, self.budget, offer)
        except TimeoutError:
            log.warning("the computer (%s) ran out of time; falling back", level)
        if level != FALLBACK_LEVEL:
            try:
                return await self._run(doc, FALLBACK_LEVEL, seed, self.budget, offer)
            except TimeoutError:
                log.warning("the fallback choice ran out of time too")
        if offer is not None:
            return Decision(DecisionKind.RESIGN, yes=False)  # play on: nothing is lost
        return _emergency(state)

    async def run(self, budget: float, fn: Callable[..., _R], *args: Any) -> _R:
        """``fn(*args)`` in a worker process (a module-level function, picklable arguments),
        within ``budget`` seconds (``TimeoutError`` past it; the worker finishes it anyway).
        A worker that dies meanwhile (killed, out of memory) is replaced and the call run
        again by a fresh one. The computer's decisions go through here, and so do hints,
        analyses and replays."""
        try:
            return await self.call(budget, fn, *args)
        except BrokenExecutor:
            if self.closed:
                raise
            log.error("a computer worker died; starting another")
        return await self.call(budget, fn, *args)

    async def _run(
        self,
        doc: dict[str, Any],
        level: str,
        seed: int,
        budget: float,
        offer: ResignQuestion | None = None,
    ) -> Decision:
        return await self.run(budget, decide, doc, level, seed, offer)


def _emergency(state: GameState) -> Decision:
    """A legal decision with no thinking at all: never leave a game hanging."""
    if state.phase is Phase.MOVE:
        plays = state.legal_plays()
        return Decision(DecisionKind.PLAY, play=plays[0] if plays else None)
    if state.phase is Phase.DOUBLED:
        return Decision(DecisionKind.TAKE, yes=True)
    return Decision(DecisionKind.DOUBLE, yes=False)
