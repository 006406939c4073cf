"""The computer's fork server, started first thing so that its workers are ready early.

The computer's worker processes (``bot.computer``) are forked by a fork server, a small
process of its own. A worker started from a bare fork server imports the engine (numpy and
the networks' code, half a second of CPU) and loads the networks before its first decision:
against the computer, the first board of a fresh process waited for that. So the fork
server imports and loads all of it once, itself (``PRELOAD``), and every worker forked
from it starts with it done (sharing those pages, copy-on-write).

``start`` launches the fork server before the bot's own imports, so its loading runs
while the bot imports and connects, at the workers' lower priority: on CPU the bot leaves
(the other core, on a quiet machine). It costs the bot one fork and exec, a few
milliseconds, and nothing on the way to the first ``getUpdates``. This module imports
nothing heavy for that reason.
"""

from __future__ import annotations

import logging
import multiprocessing
import os

log = logging.getLogger(__name__)

#: How much less CPU priority the workers take than the bot: thinking may wait a moment,
#: answering a press may not (on a small machine they share the cores). The fork server
#: takes it too: its preloading never slows the bot's own start-up.
WORKER_NICENESS = 10

#: What the fork server imports before forking any worker: the worker's own module and the
#: networks, loaded (see ``bot.computer_preload``), and the board drawer's module with the
#: renderer (``bot.drawing``: a drawer builds its caches itself, once forked).
PRELOAD = ("bot.computer_preload", "bot.computer", "bot.drawing")

#: The BLAS libraries numpy may load (OpenBLAS, MKL, any OpenMP build) and the variable each
#: reads, once, when it loads.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread_for_workers() -> None:
    """Give each worker process one BLAS thread, before numpy loads in it.

    The networks multiply small matrices: a BLAS thread pool per worker only adds
    synchronisation (a Difficile decision costs about twice the CPU with it), and the pool
    already spreads the work over the cores, one decision per worker. The workers (and the
    fork server they come from) inherit the bot's environment when they start, so it is set
    here, before the first of them starts; a value the operator set is kept. Under
    ``python -m bot`` it is set before the bot's own numpy loads too: the bot multiplies no
    matrices on its event loop, and idle BLAS threads there would only spin.
    """
    for name in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


def context() -> multiprocessing.context.BaseContext:
    """How the workers start: a fork server preloading the engine (``fork`` is unsafe in a
    process running an event loop and threads), or ``spawn`` where there is none."""
    one_blas_thread_for_workers()
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))  # read when the server starts, not after
    return ctx


def start() -> None:
    """Start the fork server now (it preloads the engine in the background, on its own).

    Best effort: where it cannot start, the pool starts it (or reports why) when it first
    needs a worker."""
    ctx = context()
    if ctx.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    try:
        forkserver.ensure_running()
    except OSError as exc:
        log.warning("cannot start the computer's fork server early: %s", exc)
