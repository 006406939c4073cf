"""A small pool of worker processes, one pipe each, watched by the bot's event loop.

The computer's decisions (``bot.computer``) and the board pictures (``bot.drawing``) are
both made in worker processes, so that neither holds the bot's GIL. Both use this pool.

A fork server (not ``fork``) starts the workers: forking a process that runs an event loop
and threads is unsafe. The fork server has the engine, its networks and the renderer loaded
(``bot.fork_server``), so a worker is ready within milliseconds of its fork.

Each worker has a pipe of its own, watched by the event loop: a call is pickled onto it and
its answer read back when the pipe is readable, with no thread in the bot. (A
``ProcessPoolExecutor`` moves each call through a feeder thread and a manager thread, whose
wake-ups cost the bot about as much CPU as a Medio move costs its worker, or a board its
drawer.)

A worker dies with the bot, takes its pool's priority, runs its pool's warm-up and says it
is ready, then runs one call at a time. A call has a budget; a worker that dies is replaced
(its call fails as a broken pool's, for the caller to retry or do otherwise), and so is a
worker that has held one call for a whole ``stuck_seconds``. A stopped pool starts no
worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from bot import fork_server

log = logging.getLogger(__name__)

_R = TypeVar("_R")

#: A worker whose warm-up failed, in a pool that retries them, is replaced this many times
#: its pool's first wait at most (the wait doubles at each failure in a row): a failure
#: that lasts (fonts missing) costs a fork every few minutes, one that passes (memory
#: short for a moment) is over at the next try.
COLD_RETRY_MAX_FACTOR = 64

#: How often a worker checks that the bot it works for is still alive.
PARENT_CHECK_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # linux/prctl.h

#: What a worker is sent: the function to run and its arguments.
_Call = tuple[Callable[..., Any], tuple[Any, ...]]
#: What a worker says first, once warmed up (before any answer): ``(READY, pid)``, or
#: ``(READY, exception)`` when its warm-up failed (it serves its calls all the same).
READY = None


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


def niceness() -> int:
    """This process's niceness (0 where the OS has none)."""
    try:
        return os.nice(0)
    except (OSError, AttributeError):
        return 0


def _take_niceness(target: int) -> None:
    """Run at ``target`` niceness: lowering the priority is always allowed, raising it
    needs a privilege (CAP_SYS_NICE, or RLIMIT_NICE) the process may not have, and then it
    keeps the one it has."""
    with contextlib.suppress(OSError, AttributeError):
        change = min(19, target) - os.nice(0)
        if change:
            os.nice(change)


def _serve(
    conn: Connection,
    bot_pid: int,
    target_niceness: int,
    warm: Callable[[], None] | None,
) -> None:
    """A worker's life: die with the bot, take its priority, warm up and say so, then run
    each call received on ``conn`` and send back ``(True, result)`` or ``(False,
    exception)``, one call at a time, until the bot hangs up."""
    _die_with(bot_pid)
    _take_niceness(target_niceness)
    word: tuple[None, Any] = (READY, os.getpid())
    try:
        if warm is not None:
            warm()
    except Exception as exc:  # told to the bot (the pool is then never ready); calls go on
        word = (READY, exc)
    try:
        conn.send(word)
    except OSError:
        return
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
    #: When the call under way was sent (``time.monotonic``).
    sent: float = 0.0
    #: Whether it has warmed up (said so on its pipe).
    ready: bool = False
    #: When it said its warm-up failed (``time.monotonic``; None: it did not).
    cold_since: float | None = None
    #: The event loop that watches the pipe (None: not watched yet).
    loop: asyncio.AbstractEventLoop | None = None


class ProcessPool:
    """Worker processes, each with a pipe watched by the event loop (see the module).

    ``warm`` runs in each worker before its first call (a module-level function); the
    workers run ``niceness`` steps below the bot's priority (0: the bot's own, taken back
    from the fork server's where allowed); ``stuck_seconds`` (None: never) is how long a
    worker may hold one call before a call's timeout has it taken for stuck and replaced.
    ``retry_cold_after`` (None: never) is how long an idle worker whose warm-up failed is
    kept before ``ready`` replaces it (doubling at each failure in a row); otherwise it
    serves its calls cold and the pool is never ready. ``what`` names the workers in the logs.
    """

    def __init__(
        self,
        workers: int,
        *,
        warm: Callable[[], None] | None = None,
        niceness: int = 0,
        stuck_seconds: float | None = None,
        retry_cold_after: float | None = None,
        what: str = "worker",
    ) -> None:
        self.workers = max(1, workers)
        self.warm = warm
        self.niceness = niceness
        self.stuck_seconds = stuck_seconds
        self.retry_cold_after = retry_cold_after
        self.what = what
        #: Workers replaced after dying, being stuck or failing to warm up.
        self.replaced = 0
        self._cold_in_row = 0  # warm-ups failed since the last one that worked
        self._lock = threading.Lock()  # start() runs in threads, the rest on the loop
        self._closed = False
        self._starting = 0  # workers being forked outside the lock
        self._procs: list[_Worker] = []
        self._waiting: deque[tuple[_Call, asyncio.Future[Any]]] = deque()

    # ------------------------------------------------------------------ life
    def _fork(self) -> _Worker:
        """A new worker (forking waits for the fork server: not under the lock)."""
        ctx = fork_server.context()
        ours, theirs = ctx.Pipe(duplex=True)
        process = ctx.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(theirs, os.getpid(), niceness() + self.niceness, self.warm),
            name=self.what,
            daemon=True,
        )
        try:
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        return _Worker(process, ours)

    def _add_one(self) -> _Worker | None:
        """Fork one more worker if the pool lacks one (None: it does not, or it is closed)."""
        with self._lock:
            if self._closed or len(self._procs) + self._starting >= self.workers:
                return None
            self._starting += 1
        try:
            worker = self._fork()
        finally:
            with self._lock:
                self._starting -= 1
        with self._lock:
            if not self._closed:
                self._procs.append(worker)
                return worker
        _stop(worker)  # the pool was stopped while it was forked
        return None

    def start(self) -> None:
        """Start the missing workers now (in a thread: forking waits for the fork server's
        preloading), so the first call does not wait for their start-up. Nothing once
        closed (the bot stopped while starting)."""
        while self._add_one() is not None:
            pass
        waiting = self._waiting
        if waiting:  # calls made meanwhile wait for these workers
            loop = waiting[0][1].get_loop()
            with contextlib.suppress(RuntimeError):  # that loop is closed
                loop.call_soon_threadsafe(self._dispatch, loop)

    def start_soon(self) -> None:
        """Start the missing workers in a thread of their own (replacing dead ones)."""
        with self._lock:
            if self._closed or len(self._procs) + self._starting >= self.workers:
                return
        threading.Thread(target=self._start_quietly, name=f"{self.what} start", daemon=True).start()

    def _start_quietly(self) -> None:
        try:
            self.start()
        except Exception:
            if not self._closed:
                log.exception("cannot start a %s", self.what)

    @property
    def closed(self) -> bool:
        return self._closed

    def ready(self) -> bool:
        """Whether every worker has started and warmed up, and none is known dead since.
        (Call it on the loop: it reads the pipes no loop watches yet.) A worker whose
        warm-up failed is stopped here once its wait is over (``retry_cold_after``), so
        that the next ``start`` forks another."""
        with self._lock:
            if self._closed or len(self._procs) < self.workers:
                return False
            procs = list(self._procs)
        for worker in procs:
            if worker.loop is None and worker.conn.poll():  # its word, or its end
                self._read(worker)
        self._replace_cold(procs)
        return all(w.ready for w in procs) and len(self._procs) == self.workers

    def _replace_cold(self, procs: list[_Worker]) -> None:
        if self.retry_cold_after is None:
            return
        factor = min(COLD_RETRY_MAX_FACTOR, 2 ** max(0, self._cold_in_row - 1))
        wait = self.retry_cold_after * factor
        now = time.monotonic()
        for worker in procs:
            cold = worker.cold_since
            if cold is not None and worker.job is None and now - cold >= wait:
                log.warning("a %s failed to warm up %g s ago: trying another", self.what, wait)
                self._bury(worker)

    def pids(self) -> list[int]:
        """The workers' process ids (tests, diagnostics)."""
        with self._lock:
            return [w.process.pid for w in self._procs if w.process.pid is not None]

    def close(self) -> None:
        """Stop the workers now: a call under way is abandoned (its caller is told the
        pool broke), and a worker still starting does not hold up the bot's exit."""
        with self._lock:
            self._closed = True
            procs, self._procs = self._procs, []
            waiting, self._waiting = self._waiting, deque()
        for worker in procs:
            self._unwatch(worker)
            _stop(worker)
            if worker.job is not None:
                _fail_soon(worker.job, f"the {self.what}s were stopped")
        for _, future in waiting:
            _fail_soon(future, f"the {self.what}s were stopped")

    # ------------------------------------------------------------------ calls
    async def call(self, budget: float, fn: Callable[..., _R], *args: Any) -> _R:
        """``fn(*args)`` in a worker (a module-level function, picklable arguments), within
        ``budget`` seconds, waiting for a free worker included (``TimeoutError`` past it:
        the worker finishes it anyway, unless it has held it for ``stuck_seconds``).
        ``BrokenProcessPool`` when its worker died meanwhile, or the pool was stopped."""
        if self._closed:
            raise BrokenProcessPool(f"the {self.what}s were stopped")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_R] = loop.create_future()
        self._waiting.append(((fn, args), future))
        self._dispatch(loop)
        try:
            return await asyncio.wait_for(future, budget)
        except TimeoutError:
            self._replace_stuck()
            raise

    def _replace_stuck(self) -> None:
        """Stop the workers that have held one call for ``stuck_seconds`` (hung: stopped,
        or looping); others take their place."""
        if self.stuck_seconds is None:
            return
        now = time.monotonic()
        for worker in list(self._procs):
            if worker.job is not None and now - worker.sent >= self.stuck_seconds:
                log.error(
                    "a %s is stuck (no answer in %.1f s); replacing it",
                    self.what,
                    now - worker.sent,
                )
                self._bury(worker)

    # ------------------------------------------------------------------ the workers' pipes
    def _free_worker(self, loop: asyncio.AbstractEventLoop) -> _Worker | None:
        """An idle worker, watched by ``loop``, or None when all are busy or missing (a
        missing one is started in a thread, which then sends it the waiting calls)."""
        for worker in list(self._procs):
            if worker.job is not None and worker.job.get_loop().is_closed():
                self._bury(worker)  # its answer would be taken for the next call's
        free = next((w for w in list(self._procs) if w.job is None), None)
        if free is None:
            # Forking waits for the fork server (seconds while it preloads): a thread does
            # it, and dispatches the waiting calls once the worker exists.
            self.start_soon()
            return None
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
            worker.sent = time.monotonic()

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
        """The worker's pipe is readable: its answer, its word that it is ready, or its
        end (it died)."""
        loop = worker.loop
        self._read(worker)
        if loop is not None:
            self._dispatch(loop)

    def _read(self, worker: _Worker) -> None:
        """Take one message from a worker's pipe."""
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._bury(worker)
        except Exception as exc:  # an answer that cannot be unpickled here
            self._settle(worker, False, exc)
        else:
            if ok is READY and isinstance(value, BaseException):
                log.error("a %s cannot warm up: %r", self.what, value)
                worker.cold_since = time.monotonic()
                self._cold_in_row += 1
            elif ok is READY:
                worker.ready = True
                self._cold_in_row = 0
            else:
                self._settle(worker, ok, value)

    def _settle(self, worker: _Worker, ok: bool, value: Any) -> None:
        job, worker.job = worker.job, None
        if job is None or job.done():
            return  # nobody waits for it any more (past its budget)
        if ok:
            job.set_result(value)
        else:
            job.set_exception(value)

    def _bury(self, worker: _Worker) -> None:
        """Forget a worker whose pipe broke (it died), that is stuck, or whose caller's
        loop is gone, and stop it: its call fails as a broken pool's."""
        self._unwatch(worker)
        with self._lock:
            if worker in self._procs:
                self._procs.remove(worker)
                if not self._closed:
                    self.replaced += 1
        _stop(worker)
        job, worker.job = worker.job, None
        if job is not None and not job.done() and not job.get_loop().is_closed():
            job.set_exception(BrokenProcessPool(f"a {self.what} died"))


def _stop(worker: _Worker) -> None:
    """Close a worker's pipe and kill it (SIGKILL: a stopped, hung worker ignores SIGTERM)."""
    with contextlib.suppress(OSError):
        worker.conn.close()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        worker.process.kill()


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
