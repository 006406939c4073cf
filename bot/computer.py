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

import asyncio
import contextlib
import ctypes
import logging
import os
import random
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot import fork_server
from bot.fork_server import WORKER_NICENESS
from bot.game.decisions import Decision, ResignQuestion
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


#: How often a worker checks that the bot it works for is still alive.
PARENT_CHECK_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True  # no /proc (not Linux): os.kill said it exists


def _die_with(bot_pid: int) -> None:
    """End this worker when the bot dies, however it dies (kill -9 included): a worker
    outliving its bot would hold its memory forever.

    The worker's parent is the fork server, which exits when the bot does: on Linux the
    kernel then kills the worker (``PR_SET_PDEATHSIG``). A thread watching the bot's pid
    covers the rest (another OS, a fork server that lingers).
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if not _alive(bot_pid):
        os._exit(0)

    def watch() -> None:
        while _alive(bot_pid):
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="bot watcher", daemon=True).start()


def _warm_worker(bot_pid: int | None = None, bot_niceness: int = 0) -> None:
    """Die with the bot, lower the worker's priority (unless it was forked at it already,
    from the fork server), then load the networks and the bear-off database once, before
    its first decision (nothing to do when the fork server had them)."""
    if bot_pid is not None:
        _die_with(bot_pid)
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or not on this OS
        os.nice(max(0, bot_niceness + WORKER_NICENESS - os.nice(0)))
    from engine.ai import warm_up

    warm_up()


def _niceness() -> int:
    """This process's niceness (0 where the OS has none)."""
    try:
        return os.nice(0)
    except (OSError, AttributeError):
        return 0


def _warm_task() -> int:
    return os.getpid()


def default_workers() -> int:
    """Leave one core to the event loop (Telegram I/O, rendering threads)."""
    return max(1, (os.cpu_count() or 2) - 1)


#: What a worker is sent: the function to run and its arguments.
_Call = tuple[Callable[..., Any], tuple[Any, ...]]


def _serve(conn: Connection, bot_pid: int, bot_niceness: int) -> None:
    """A worker's life: get ready, then run each call received on ``conn`` and send back
    ``(True, result)`` or ``(False, exception)``, one call at a time, until the bot hangs
    up."""
    _warm_worker(bot_pid, bot_niceness)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return  # the bot closed its end: nothing more will come
        try:
            reply: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:
            reply = (False, exc)
        try:
            conn.send(reply)
        except OSError:
            return
        except Exception as exc:  # a result or an exception that cannot be pickled
            conn.send((False, RuntimeError(f"the worker's answer cannot be sent: {exc!r}")))


@dataclass(eq=False)
class _Worker:
    """One worker process, the bot's end of its pipe, and the call it is running."""

    process: BaseProcess
    conn: Connection
    job: asyncio.Future[Any] | None = None
    #: The event loop that watches the pipe (None: not watched yet).
    loop: asyncio.AbstractEventLoop | None = None


class ComputerPool:
    """A pool of worker processes that make the computer's decisions.

    A fork server (not ``fork``) starts the workers: forking a process that runs an event
    loop and threads is unsafe. The fork server has the engine and its networks loaded
    (``bot.fork_server``), so a worker is ready as soon as it is forked.

    Each worker has a pipe of its own, watched by the event loop: a call is pickled onto
    it and its answer read back when the pipe is readable, with no thread in the bot. (A
    ``ProcessPoolExecutor`` moves each call through a feeder thread and a manager thread,
    whose wake-ups cost the bot about as much CPU as a Medio move costs its worker.)
    """

    def __init__(
        self, workers: int | None = None, *, budget: float = DEFAULT_BUDGET_SECONDS
    ) -> None:
        self.workers = workers or default_workers()
        self.budget = budget
        self._lock = threading.Lock()  # start() runs in a thread, the rest on the loop
        self._closed = False
        self._procs: list[_Worker] = []
        self._waiting: deque[tuple[_Call, asyncio.Future[Any]]] = deque()

    def _spawn_locked(self) -> _Worker:
        ctx = fork_server.context()
        ours, theirs = ctx.Pipe(duplex=True)
        process = ctx.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(theirs, os.getpid(), _niceness()),
            name="computer worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._procs.append(worker)
        return worker

    def start(self) -> None:
        """Start the workers in the background now, so the first game does not wait for
        their start-up (and start-up does not wait for them). Nothing once closed (the bot
        stopped while starting)."""
        with self._lock:
            if self._closed:
                return
            while len(self._procs) < self.workers:
                self._spawn_locked()

    def close(self) -> None:
        """Stop the workers now: a decision under way is abandoned (its caller is told the
        pool broke), and a worker still loading the networks does not hold up the bot's
        exit."""
        with self._lock:
            self._closed = True
            procs, self._procs = self._procs, []
            waiting, self._waiting = self._waiting, deque()
        for worker in procs:
            self._unwatch(worker)
            with contextlib.suppress(OSError):
                worker.conn.close()
            with contextlib.suppress(OSError, ValueError, AttributeError):
                worker.process.terminate()
            if worker.job is not None:
                _fail_soon(worker.job, "the computer's workers were stopped")
        for _, future in waiting:
            _fail_soon(future, "the computer's workers were stopped")

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
        The computer's decisions go through here, and so do hints, analyses and replays."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            if self._closed:
                raise BrokenProcessPool("the computer's workers were stopped")
            future: asyncio.Future[_R] = loop.create_future()
            self._waiting.append(((fn, args), future))
            self._dispatch(loop)
            try:
                return await asyncio.wait_for(future, budget)
            except BrokenExecutor:
                # A worker died (killed, out of memory): a fresh one takes the call again.
                log.error("a computer worker died; starting another")
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _run(
        self,
        doc: dict[str, Any],
        level: str,
        seed: int,
        budget: float,
        offer: ResignQuestion | None = None,
    ) -> Decision:
        return await self.run(budget, decide, doc, level, seed, offer)

    # ------------------------------------------------------------------ the workers' pipes
    def _free_worker(self, loop: asyncio.AbstractEventLoop) -> _Worker | None:
        """An idle worker, watched by ``loop`` (started when there are fewer than the
        pool's size), or None when all are busy."""
        for worker in list(self._procs):
            if worker.job is not None and worker.job.get_loop().is_closed():
                self._bury(worker)  # its answer would be taken for the next call's
        with self._lock:
            if self._closed:
                return None
            while len(self._procs) < self.workers:
                self._spawn_locked()
            free = next((w for w in self._procs if w.job is None), None)
        if free is not None:
            self._watch(free, loop)
        return free

    def _dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send the calls waiting to the idle workers (one each), oldest first."""
        while self._waiting:
            if self._waiting[0][1].done():  # timed out or cancelled before it was sent
                self._waiting.popleft()
                continue
            worker = self._free_worker(loop)
            if worker is None:
                return
            call, future = self._waiting.popleft()
            try:
                worker.conn.send(call)
            except OSError:  # the worker is gone: the call waits for another one
                self._waiting.appendleft((call, future))
                self._bury(worker)
                continue
            except Exception as exc:  # the call cannot be pickled
                future.set_exception(exc)
                continue
            worker.job = future

    def _watch(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        if worker.loop is loop:
            return
        self._unwatch(worker)
        loop.add_reader(worker.conn.fileno(), self._on_answer, worker)
        worker.loop = loop

    def _unwatch(self, worker: _Worker) -> None:
        loop, worker.loop = worker.loop, None
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(OSError, ValueError):
                loop.remove_reader(worker.conn.fileno())

    def _on_answer(self, worker: _Worker) -> None:
        """The worker's pipe is readable: its answer, or its end (it died)."""
        loop = worker.loop
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._bury(worker)
        except Exception as exc:  # an answer that cannot be unpickled here
            self._settle(worker, False, exc)
        else:
            self._settle(worker, ok, value)
        if loop is not None:
            self._dispatch(loop)

    def _settle(self, worker: _Worker, ok: bool, value: Any) -> None:
        job, worker.job = worker.job, None
        if job is None or job.done():
            return  # nobody waits for it any more (past its budget)
        if ok:
            job.set_result(value)
        else:
            job.set_exception(value)

    def _bury(self, worker: _Worker) -> None:
        """Forget a worker whose pipe broke (it died), or whose caller's loop is gone: its
        call fails as a broken pool's."""
        self._unwatch(worker)
        with self._lock, contextlib.suppress(ValueError):
            self._procs.remove(worker)
        with contextlib.suppress(OSError):
            worker.conn.close()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            worker.process.terminate()
        job, worker.job = worker.job, None
        if job is not None and not job.done() and not job.get_loop().is_closed():
            job.set_exception(BrokenProcessPool("a computer worker died"))


def _fail_soon(future: asyncio.Future[Any], why: str) -> None:
    """Fail a pending call from any thread (close() may run off its loop)."""
    loop = future.get_loop()
    if loop.is_closed():
        return

    def fail() -> None:
        if not future.done():
            future.set_exception(BrokenProcessPool(why))

    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fail)


def _emergency(state: GameState) -> Decision:
    """A legal decision with no thinking at all: never leave a game hanging."""
    if state.phase is Phase.MOVE:
        plays = state.legal_plays()
        return Decision(DecisionKind.PLAY, play=plays[0] if plays else None)
    if state.phase is Phase.DOUBLED:
        return Decision(DecisionKind.TAKE, yes=True)
    return Decision(DecisionKind.DOUBLE, yes=False)
