"""Imported by the computer's fork server (``bot.fork_server.PRELOAD``): the engine, the
networks and the bear-off database loaded, and one throwaway decision per variant made
(what is built on first use is built), once there, so every worker forked from it has them
at once.

Importing this module does it: a fork server can only be asked to import modules. Nothing
else imports it. A failure here must not take the fork server down (it only skips an
``ImportError``): each worker then loads what it needs itself, and reports what fails.

The fork server holds the bot's standard output and error, and it watches the bot only
once its preloading is done: a bot stopped meanwhile (a SIGTERM during its start-up) would
have its pipes held open until then. So each step first checks that the bot is still there.
"""

from __future__ import annotations

import contextlib
import os
import random

from bot.fork_server import WORKER_NICENESS

_BOT = os.getppid()  # the fork server's parent: the bot that started it


def _stop_if_orphaned() -> None:
    if os.getppid() != _BOT:
        os._exit(0)


def _prepare() -> None:
    with contextlib.suppress(OSError):  # behind the bot's own start-up; workers inherit it
        os.nice(WORKER_NICENESS)
    _stop_if_orphaned()
    import numpy  # noqa: F401  (the heaviest import, on its own)

    _stop_if_orphaned()
    from engine import GameState, MatchConfig, Phase, Variant
    from engine.ai import Level, choose_play, warm_up

    _stop_if_orphaned()
    warm_up()
    for variant in Variant:
        _stop_if_orphaned()
        state = GameState.new_match(MatchConfig(variant, length=1, cube=False))
        state = state.roll_opening(3, 1)
        if state.phase is Phase.ROLL:  # a variant whose opening roll only picks who starts
            state = state.roll(3, 1)
        choose_play(state, Level.MEDIO, random.Random(0))
    _stop_if_orphaned()


with contextlib.suppress(Exception):
    _prepare()
