"""Imported by the computer's fork server (``bot.fork_server.PRELOAD``): the networks and
the bear-off database loaded, and one throwaway decision per variant made (what is built
on first use is built), once there, so every worker forked from it has them at once.

Importing this module does it: a fork server can only be asked to import modules. Nothing
else imports it. A failure here must not take the fork server down (it only skips an
``ImportError``): each worker then loads what it needs itself, and reports what fails.
"""

from __future__ import annotations

import contextlib
import random


def _prepare() -> None:
    from engine import GameState, MatchConfig, Phase, Variant
    from engine.ai import Level, choose_play, warm_up

    warm_up()
    for variant in Variant:
        state = GameState.new_match(MatchConfig(variant, length=1, cube=False))
        state = state.roll_opening(3, 1)
        if state.phase is Phase.ROLL:  # a variant whose opening roll only picks who starts
            state = state.roll(3, 1)
        choose_play(state, Level.MEDIO, random.Random(0))


with contextlib.suppress(Exception):
    _prepare()
